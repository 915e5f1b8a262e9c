import { readFile, realpath } from "node:fs/promises";
import * as path from "node:path";
import type { JsonValue } from "@climpt/model";
import { isInside } from "./inline-schema-refs.ts";

/** Why a JSON file could not be used, with the SR-LOAD code that says so. */
export interface JsonFileFailure {
  readonly code: "SR-LOAD-001" | "SR-LOAD-003" | "SR-LOAD-004" | "SR-LOAD-007";
  /** Completes "<file> …": "does not exist", "is not valid JSON (line 3, column 5: …)". */
  readonly reason: string;
  readonly hint: string;
}

export type JsonFileResult =
  | { readonly ok: true; readonly value: JsonValue }
  | ({ readonly ok: false } & JsonFileFailure);

/**
 * Reads and parses a JSON file that must live inside `root` (after symlinks are followed), so a
 * definition can never make the loader read outside the agent folder.
 */
export async function readJsonFile(file: string, root: string): Promise<JsonFileResult> {
  let text: string;
  try {
    const [realFile, realRoot] = await Promise.all([realpath(file), realpath(root)]);
    if (!isInside(realRoot, realFile)) {
      return {
        ok: false,
        code: "SR-LOAD-007",
        reason: "resolves (through a symlink) to a file outside the agent folder",
        hint: "Keep the file itself inside the agent folder.",
      };
    }
    text = await readFile(realFile, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return {
        ok: false,
        code: "SR-LOAD-001",
        reason: "does not exist",
        hint: `Create ${path.basename(file)}, or correct the path that names it.`,
      };
    }
    return {
      ok: false,
      code: "SR-LOAD-003",
      reason: `cannot be read (${code ?? (error as Error).message})`,
      hint: "Make it a readable file (not a folder) with read permission for this user.",
    };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    return {
      ok: false,
      code: "SR-LOAD-004",
      reason: `is not valid JSON (${describeSyntaxError(text, (error as Error).message)})`,
      hint: "Fix the JSON syntax at that line (trailing commas and comments are not allowed in JSON).",
    };
  }
}

function describeSyntaxError(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  const offset =
    position === null
      ? /end of JSON input/.test(message)
        ? text.length
        : undefined
      : Number(position[1]);
  const detail = message
    .replace(/ in JSON at position \d+.*$/, "")
    .replace(/, ".*" is not valid JSON$/, "");
  if (offset === undefined) return detail;
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `line ${line}, column ${column}: ${detail}`;
}
