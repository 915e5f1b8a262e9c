import { promises as fs } from "node:fs";
import { type BuiltinTool, failure, success } from "../builtin-tool.ts";
import { TOOL_CODES } from "../codes.ts";
import { writeSafely } from "../safe-file.ts";
import { byteLength } from "../text-cap.ts";
import { defineInput } from "../tool-input.ts";
import { writablePath } from "./writable-path.ts";

const input = defineInput({
  file_path: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "The file to write, relative to the working directory (an absolute path must lie inside it).",
  },
  content: {
    type: "string",
    required: true,
    description: "The complete new content of the file.",
  },
});

export const writeTool: BuiltinTool = {
  name: "Write",
  description: [
    "Writes a file in the working directory, replacing it if it exists and creating missing parent directories.",
    "Give the complete content; to change part of an existing file, use Edit instead.",
    "Paths outside the working directory and inside .git are refused.",
  ].join(" "),
  inputSchema: input.schema,
  prepare(raw, context) {
    const parsed = input.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const target = writablePath(context.root, parsed.value.file_path, context.protectedPaths);
    if (!target.ok) return { kind: "refused", code: target.code, reason: target.reason };
    const { content } = parsed.value;

    return {
      kind: "run",
      async run() {
        const existing = await fs.stat(target.real).catch(() => undefined);
        if (existing?.isDirectory()) {
          return failure(
            TOOL_CODES.fileNotFound,
            `"${target.relative}" is a directory, not a file.`,
          );
        }
        const written = await writeSafely(target.real, target.relative, content);
        if (!written.ok) return failure(written.code, written.message);
        const verb = written.created ? "Created" : "Overwrote";
        return success(`${verb} ${target.relative} (${byteLength(content)} bytes).`);
      },
    };
  },
};
