import type { JsonValue } from "@climpt/model";

/** How a near miss was turned into a structured output (docs/design.md#the-gate). */
export type SalvageKind = "fence" | "prose" | "output-wrapper" | "stringified";

/** One reading of a reply: the value, and the salvage steps that produced it (none = as sent). */
export interface OutputCandidate {
  readonly value: JsonValue;
  readonly salvage: readonly SalvageKind[];
}

const FENCE = /```[A-Za-z0-9_-]*[^\S\n]*\n?([\s\S]*?)```/g;
const MAX_PROSE_CANDIDATES = 8;
const MAX_DEPTH = 3;

function tryParse(text: string): { ok: true; value: JsonValue } | { ok: false } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(trimmed) as JsonValue };
  } catch {
    return { ok: false };
  }
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The end (exclusive) of the JSON object or array that opens at `start`, by bracket matching
 * that skips over strings; undefined when it never closes.
 */
function balancedEnd(text: string, start: number): number | undefined {
  const stack: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{") stack.push("}");
    else if (char === "[") stack.push("]");
    else if (char === "}" || char === "]") {
      if (stack.pop() !== char) return undefined;
      if (stack.length === 0) return index + 1;
    }
  }
  return undefined;
}

/** JSON objects and arrays embedded in prose, left to right, not nested in one another. */
function embedded(text: string): JsonValue[] {
  const found: JsonValue[] = [];
  let index = 0;
  while (index < text.length && found.length < MAX_PROSE_CANDIDATES) {
    const char = text[index];
    if (char === "{" || char === "[") {
      const end = balancedEnd(text, index);
      if (end !== undefined) {
        const parsed = tryParse(text.slice(index, end));
        if (parsed.ok) {
          found.push(parsed.value);
          index = end;
          continue;
        }
      }
    }
    index++;
  }
  return found;
}

/** A value, then what unwrapping it yields: `{"output": …}` and JSON held in a string. */
function expand(candidate: OutputCandidate, depth: number, into: OutputCandidate[]): void {
  into.push(candidate);
  if (depth >= MAX_DEPTH) return;
  const { value, salvage } = candidate;
  if (typeof value === "string") {
    const inner = tryParse(value);
    if (inner.ok && typeof inner.value === "object" && inner.value !== null) {
      expand({ value: inner.value, salvage: [...salvage, "stringified"] }, depth + 1, into);
    }
    return;
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    const output = value.output;
    if (
      keys.length === 1 &&
      output !== undefined &&
      typeof output === "object" &&
      output !== null
    ) {
      expand({ value: output, salvage: [...salvage, "output-wrapper"] }, depth + 1, into);
    } else if (keys.length === 1 && typeof output === "string") {
      expand({ value: output, salvage: [...salvage, "output-wrapper"] }, depth + 1, into);
    }
  }
}

/**
 * Every reading of a reply text, most faithful first: the text as JSON; else the contents of its
 * code fences; else JSON objects found after (or around) prose. Each is followed by its unwrapped
 * forms. The caller validates them in order and takes the first that fits the schema, so a reply
 * that is valid as sent is never "salvaged" into something else.
 */
export function outputCandidates(text: string): OutputCandidate[] {
  const candidates: OutputCandidate[] = [];
  const direct = tryParse(text);
  if (direct.ok) {
    expand({ value: direct.value, salvage: [] }, 0, candidates);
    return candidates;
  }
  let fenced = false;
  for (const match of text.matchAll(FENCE)) {
    const parsed = tryParse(match[1] ?? "");
    if (parsed.ok) {
      fenced = true;
      expand({ value: parsed.value, salvage: ["fence"] }, 0, candidates);
    }
  }
  if (fenced) return candidates;
  for (const value of embedded(text)) expand({ value, salvage: ["prose"] }, 0, candidates);
  return candidates;
}
