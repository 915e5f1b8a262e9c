import { realpath } from "node:fs/promises";
import * as path from "node:path";
import { type JsonValue, jsonPath, nestingOf } from "@climpt/model";
import { cutShort } from "./bounded-problems.ts";
import { isInside } from "./inline-schema-refs.ts";
import { readRegularFile } from "./regular-file.ts";

/** Why a JSON file could not be used, with the SR-LOAD code that says so. */
export interface JsonFileFailure {
  readonly code:
    | "SR-LOAD-001"
    | "SR-LOAD-003"
    | "SR-LOAD-004"
    | "SR-LOAD-007"
    | "SR-LOAD-013"
    | "SR-LOAD-014"
    | "SR-LOAD-015";
  /** Completes "<file> …": "does not exist", "is not valid JSON (line 3, column 5: …)". */
  readonly reason: string;
  readonly hint: string;
}

export type JsonFileResult =
  | { readonly ok: true; readonly value: JsonValue }
  | ({ readonly ok: false } & JsonFileFailure);

/**
 * The largest definition file read (agent.json, the registry, a schema file). A registry of
 * 10,000 steps is about 6 MB; past this a file is not a definition anyone wrote by hand, and
 * reading it would only fill memory.
 */
export const MAX_DEFINITION_FILE_BYTES: number = 64 * 1024 * 1024;

/**
 * Reads and parses a JSON file that must live inside `root` (after symlinks are followed), so a
 * definition can never make the loader read outside the agent folder. The resolved file is opened
 * without blocking and without following a link swapped in after the check, and must be a
 * regular file of at most `MAX_DEFINITION_FILE_BYTES`: a FIFO in its place would otherwise hold
 * the load (and `climpt validate`) until some writer came.
 */
export async function readJsonFile(file: string, root: string): Promise<JsonFileResult> {
  let realFile: string;
  try {
    const [resolvedFile, realRoot] = await Promise.all([realpath(file), realpath(root)]);
    realFile = resolvedFile;
    if (!isInside(realRoot, realFile)) {
      return {
        ok: false,
        code: "SR-LOAD-007",
        reason: "resolves (through a symlink) to a file outside the agent folder",
        hint: "Keep the file itself inside the agent folder.",
      };
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return missing(file);
    return unreadable(code ?? (error as Error).message);
  }
  const read = await readRegularFile(realFile, {
    maxBytes: MAX_DEFINITION_FILE_BYTES,
    noFollow: true,
  });
  if (!read.ok) {
    switch (read.reason) {
      case "missing":
        return missing(file);
      case "unreadable":
        return unreadable(read.errno);
      case "too-large":
        return {
          ok: false,
          code: "SR-LOAD-015",
          reason: `is larger than ${MAX_DEFINITION_FILE_BYTES / (1024 * 1024)} MiB (${read.detail})`,
          hint: "A definition file is small; split a generated one, or check that the path names the file you mean.",
        };
      case "not-regular":
        // A folder keeps the code it always had; a FIFO, socket or device is never a definition.
        if (read.kind === "folder") return unreadable("EISDIR");
        return {
          ok: false,
          code: "SR-LOAD-014",
          reason: `is a ${read.kind}, not a regular file, and is not read`,
          hint: "Replace it with a regular JSON file (a FIFO or device in its place would make the loader wait or read forever).",
        };
    }
  }
  // One buffer decoded at once: with an encoding, readFile decodes chunk by chunk and joins
  // the pieces, which JSON.parse then has to flatten again (a registry runs to megabytes).
  let text = read.bytes.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    return {
      ok: false,
      code: "SR-LOAD-004",
      reason: `is not valid JSON (${describeSyntaxError(text, (error as Error).message)})`,
      hint: "Fix the JSON syntax at that line (trailing commas and comments are not allowed in JSON).",
    };
  }
  // The text is valid JSON here, so counting brackets outside strings measures the nesting
  // exactly, with no allocation per value; only a file that is too deep is walked for the path.
  const deepAt = nestingOf(text) > MAX_JSON_DEPTH ? tooDeepAt(value) : undefined;
  if (deepAt !== undefined) {
    return {
      ok: false,
      code: "SR-LOAD-013",
      reason: `nests values more than ${MAX_JSON_DEPTH} levels deep (at ${cutShort(deepAt)})`,
      hint: "Nest objects and arrays at most a few hundred levels deep; share schema parts through $ref instead of nesting them.",
    };
  }
  return { ok: true, value };
}

function missing(file: string): JsonFileResult {
  return {
    ok: false,
    code: "SR-LOAD-001",
    reason: "does not exist",
    hint: `Create ${path.basename(file)}, or correct the path that names it.`,
  };
}

function unreadable(why: string): JsonFileResult {
  return {
    ok: false,
    code: "SR-LOAD-003",
    reason: `cannot be read (${why})`,
    hint: "Make it a readable file (not a folder) with read permission for this user.",
  };
}

/**
 * How deep a definition file may nest. Real definitions stay under 20 levels; every walk over a
 * definition (normalizing, inlining, the JSON a run sends) is recursive, and V8's stack ends a
 * recursive walk somewhere past a few thousand levels.
 */
export const MAX_JSON_DEPTH = 1_000;

/** A value met in the walk, and how it was reached (its path is built only when reported). */
interface Visit {
  readonly value: JsonValue;
  readonly depth: number;
  readonly key: string | number;
  readonly parent: Visit | undefined;
}

function pathOf(visit: Visit): string {
  const keys: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) {
    keys.push(at.key);
  }
  return keys.reverse().reduce<string>((path, key) => jsonPath(path, key), "$");
}

/** The JSON path of the first value deeper than `MAX_JSON_DEPTH`, found without recursion. */
function tooDeepAt(root: JsonValue): string | undefined {
  const stack: Visit[] = [{ value: root, depth: 0, key: "$", parent: undefined }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, depth } = visit;
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) return pathOf(visit);
    const entries: [string | number, JsonValue][] = Array.isArray(value)
      ? value.map((child, index) => [index, child])
      : Object.entries(value);
    for (const [key, child] of entries) {
      stack.push({ value: child, depth: depth + 1, key, parent: visit });
    }
  }
  return undefined;
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
