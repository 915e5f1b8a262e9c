import * as v from "valibot";

const DURATION_PATTERN = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A timeout as written in a definition: a number of milliseconds, or a string with a unit
 * (`"1500ms"`, `"30s"`, `"5m"`, `"1h"`), so nobody has to guess whether `300` meant seconds.
 */
export const durationSchema = v.union([
  v.pipe(v.number(), v.integer(), v.minValue(1)),
  v.pipe(v.string(), v.regex(DURATION_PATTERN, 'a duration such as "30s", "5m" or "1500ms"')),
]);

/** Milliseconds of a value that passed `durationSchema`. */
export function durationToMs(value: number | string): number {
  if (typeof value === "number") return value;
  const match = DURATION_PATTERN.exec(value);
  if (match === null) return Number.NaN;
  return Math.round(Number(match[1]) * (UNIT_MS[match[2] ?? "ms"] ?? 1));
}
