import { promises as fs } from "node:fs";
import { type BuiltinTool, failure, success } from "../builtin-tool.ts";
import { TOOL_CODES } from "../codes.ts";
import { confinePath } from "../confine-path.ts";
import { openForRead } from "../safe-file.ts";
import { byteLength, capLine, looksBinary } from "../text-cap.ts";
import { defineInput } from "../tool-input.ts";

const DEFAULT_LINES = 2000;
const MAX_LINE_CHARS = 2000;
/** Larger files are refused rather than loaded: use Grep, or Bash with head/tail. */
export const MAX_READ_BYTES: number = 10 * 1024 * 1024;

const input = defineInput({
  file_path: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "The file to read, relative to the working directory (an absolute path must lie inside it).",
  },
  offset: {
    type: "integer",
    minimum: 1,
    description: "The line number to start at (1 is the first line). Default 1.",
  },
  limit: {
    type: "integer",
    minimum: 1,
    description: `How many lines to show. Default ${DEFAULT_LINES}.`,
  },
});

export const readTool: BuiltinTool = {
  name: "Read",
  description: [
    "Reads a text file from the working directory and shows it with line numbers (`number<TAB>line`).",
    `Shows up to ${DEFAULT_LINES} lines from \`offset\`; use \`offset\` and \`limit\` to page through longer files.`,
    `Lines longer than ${MAX_LINE_CHARS} characters are cut. The output is capped in size, and a note says where to continue.`,
    "Binary files are not shown. Only files inside the working directory can be read.",
  ].join(" "),
  inputSchema: input.schema,
  prepare(raw, context) {
    const parsed = input.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const target = confinePath(context.root, parsed.value.file_path);
    if (!target.ok) return { kind: "refused", code: TOOL_CODES.pathOutside, reason: target.reason };
    const offset = parsed.value.offset ?? 1;
    const limit = parsed.value.limit ?? DEFAULT_LINES;

    return {
      kind: "run",
      async run() {
        const where = target.relative;
        const stats = await fs.stat(target.real).catch(() => undefined);
        if (stats === undefined) {
          return failure(
            TOOL_CODES.fileNotFound,
            `"${where}" does not exist. Use Glob to find files.`,
          );
        }
        if (stats.isDirectory()) {
          return failure(
            TOOL_CODES.fileNotFound,
            `"${where}" is a directory; use Glob to list it.`,
          );
        }
        const opened = await openForRead(target.real, where);
        if (!opened.ok) return failure(opened.code, opened.message);
        let buffer: Buffer;
        try {
          if (opened.stats.size > MAX_READ_BYTES) {
            return failure(
              TOOL_CODES.fileUnreadable,
              `"${where}" is ${opened.stats.size} bytes, more than Read loads (${MAX_READ_BYTES}); search it with Grep or show parts with Bash (head, tail, sed -n).`,
            );
          }
          buffer = await opened.handle.readFile();
        } finally {
          await opened.handle.close();
        }
        if (looksBinary(buffer)) {
          return failure(
            TOOL_CODES.fileUnreadable,
            `"${where}" is a binary file (${buffer.length} bytes); Read shows text files only.`,
          );
        }
        const text = buffer.toString("utf8");
        if (text === "") return success(`[${where} is empty]`);
        const lines = text.split(/\r?\n/);
        if (text.endsWith("\n")) lines.pop();
        if (offset > lines.length) {
          return failure(
            TOOL_CODES.invalidInput,
            `"${where}" has ${lines.length} lines; offset ${offset} is past the end.`,
          );
        }
        const end = Math.min(lines.length, offset - 1 + limit);
        let out = "";
        let bytes = 0;
        for (let index = offset - 1; index < end; index++) {
          const row = `${String(index + 1).padStart(6)}\t${capLine(lines[index] ?? "", MAX_LINE_CHARS)}\n`;
          const rowBytes = byteLength(row);
          if (bytes + rowBytes > context.outputCapBytes) {
            return success(
              `${out}[output cut at ${context.outputCapBytes} bytes after line ${index} of ${lines.length}; continue with offset=${index + 1}]`,
            );
          }
          out += row;
          bytes += rowBytes;
        }
        if (end < lines.length) {
          out += `[showing lines ${offset}-${end} of ${lines.length}; continue with offset=${end + 1}]`;
        }
        return success(out.replace(/\n$/, ""));
      },
    };
  },
};
