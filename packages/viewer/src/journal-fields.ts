import type { TokenCounts, ViewJson } from "./view-model.ts";

/**
 * Readers for fields of journal events that may be missing or of another type: a journal written
 * by an older or newer runner must still show, so every field is read defensively and a wrong
 * type reads as "absent", never as a crash.
 */
export type Fields = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

export function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function flag(value: unknown): boolean {
  return value === true;
}

export function record(value: unknown): Fields {
  return isRecord(value) ? value : {};
}

/** A JSON value as it came from `JSON.parse` (anything else reads as null). */
export function json(value: unknown): ViewJson {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(json);
  if (isRecord(value)) {
    const out: Record<string, ViewJson> = {};
    for (const [key, item] of Object.entries(value)) out[key] = json(item);
    return out;
  }
  return null;
}

export function jsonRecord(value: unknown): Record<string, ViewJson> {
  const converted = json(value);
  return isRecord(converted) ? (converted as Record<string, ViewJson>) : {};
}

/** Milliseconds since the epoch of an ISO time, or null. */
export function timeOf(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

export const NO_TOKENS: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** The sdk-adapter's `Usage` or the runner's `RunUsage`, as token counts. */
export function tokensOf(value: unknown): TokenCounts {
  const usage = record(value);
  return {
    input: count(usage.inputTokens) ?? 0,
    output: count(usage.outputTokens) ?? 0,
    cacheRead: count(usage.cacheReadInputTokens) ?? 0,
    cacheWrite: count(usage.cacheCreationInputTokens) ?? 0,
  };
}

export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
}
