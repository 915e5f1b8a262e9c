import { readFile, realpath } from "node:fs/promises";
import * as path from "node:path";
import { type JsonValue, jsonPath } from "@climpt/model";
import { cutShort } from "./bounded-problems.ts";
import { isInside } from "./inline-schema-refs.ts";

/** Why a JSON file could not be used, with the SR-LOAD code that says so. */
export interface JsonFileFailure {
  readonly code: "SR-LOAD-001" | "SR-LOAD-003" | "SR-LOAD-004" | "SR-LOAD-007" | "SR-LOAD-013";
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
    // One buffer decoded at once: with an encoding, readFile decodes chunk by chunk and joins
    // the pieces, which JSON.parse then has to flatten again (a registry runs to megabytes).
    text = (await readFile(realFile)).toString("utf8");
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

/**
 * How deep a definition file may nest. Real definitions stay under 20 levels; every walk over a
 * definition (normalizing, inlining, the JSON a run sends) is recursive, and V8's stack ends a
 * recursive walk somewhere past a few thousand levels.
 */
export const MAX_JSON_DEPTH = 1_000;

/**
 * How many objects and arrays the deepest value of a valid JSON text sits in (`{}` is 1). A
 * linear scan of the characters, strings skipped: the loader runs it over every definition file,
 * and the walk below, which keeps a record per value, cost more than the parse at 10,000 steps.
 */
export function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

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
