import { promises as fs } from "node:fs";
import { type BuiltinTool, failure, success } from "../builtin-tool.ts";
import { TOOL_CODES } from "../codes.ts";
import { openForRead, writeSafely } from "../safe-file.ts";
import { looksBinary } from "../text-cap.ts";
import { defineInput } from "../tool-input.ts";
import { writablePath } from "./writable-path.ts";

const input = defineInput({
  file_path: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "The file to change, relative to the working directory (an absolute path must lie inside it).",
  },
  old_string: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "The exact text to replace, including whitespace and indentation. It must occur exactly once unless replace_all is true.",
  },
  new_string: {
    type: "string",
    required: true,
    description: "The text to put in its place (may be empty to delete old_string).",
  },
  replace_all: {
    type: "boolean",
    description: "Replace every occurrence of old_string instead of exactly one. Default false.",
  },
});

export const editTool: BuiltinTool = {
  name: "Edit",
  description: [
    "Replaces exact text in an existing file of the working directory.",
    "`old_string` must match the file exactly (whitespace and indentation included) and occur exactly once;",
    "include surrounding lines to make it unique, or set `replace_all` to change every occurrence.",
    "Read the file first. To create a file or replace all of it, use Write.",
    "Paths outside the working directory and inside .git are refused.",
  ].join(" "),
  inputSchema: input.schema,
  prepare(raw, context) {
    const parsed = input.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const { old_string: oldText, new_string: newText, replace_all: replaceAll } = parsed.value;
    if (oldText === newText) {
      return {
        kind: "invalid",
        problems: ["old_string and new_string are the same: nothing would change."],
      };
    }
    const target = writablePath(context.root, parsed.value.file_path, context.protectedPaths);
    if (!target.ok) return { kind: "refused", code: target.code, reason: target.reason };

    return {
      kind: "run",
      async run() {
        const where = target.relative;
        const stats = await fs.stat(target.real).catch(() => undefined);
        if (stats === undefined || stats.isDirectory()) {
          return failure(
            TOOL_CODES.fileNotFound,
            `"${where}" does not exist or is not a file; use Write to create a file.`,
          );
        }
        const opened = await openForRead(target.real, where);
        if (!opened.ok) return failure(opened.code, opened.message);
        let buffer: Buffer;
        try {
          buffer = await opened.handle.readFile();
        } finally {
          await opened.handle.close();
        }
        if (looksBinary(buffer)) {
          return failure(
            TOOL_CODES.fileUnreadable,
            `"${where}" is a binary file; Edit changes text files only.`,
          );
        }
        const text = buffer.toString("utf8");
        const positions = occurrences(text, oldText);
        if (positions.length === 0) {
          return failure(
            TOOL_CODES.editNoMatch,
            `old_string was not found in "${where}".${noMatchHint(text, oldText)}`,
          );
        }
        if (positions.length > 1 && replaceAll !== true) {
          return failure(
            TOOL_CODES.editNotUnique,
            `old_string occurs ${positions.length} times in "${where}". Include more surrounding lines to make it unique, or set replace_all to true to replace every occurrence.`,
          );
        }
        // Slicing, not String#replace: "$&" or "$1" in new_string must stay literal.
        let result = "";
        let from = 0;
        for (const at of replaceAll === true ? positions : positions.slice(0, 1)) {
          result += text.slice(from, at) + newText;
          from = at + oldText.length;
        }
        result += text.slice(from);
        const written = await writeSafely(target.real, where, result);
        if (!written.ok) return failure(written.code, written.message);
        const count = replaceAll === true ? positions.length : 1;
        return success(`Replaced ${count} occurrence${count === 1 ? "" : "s"} in ${where}.`);
      },
    };
  },
};

/** Start indices of the non-overlapping occurrences of `needle`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  let at = text.indexOf(needle);
  while (at >= 0) {
    found.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return found;
}

function noMatchHint(text: string, oldText: string): string {
  if (text.includes("\r\n") && oldText.includes("\n") && !oldText.includes("\r\n")) {
    return " The file uses CRLF line endings; old_string must too.";
  }
  const trimmed = oldText.trim();
  if (trimmed !== "" && trimmed !== oldText && text.includes(trimmed)) {
    return " The text without its leading/trailing whitespace does occur: check indentation and line breaks.";
  }
  return " It must match exactly, including whitespace and indentation: Read the file and copy the text.";
}
