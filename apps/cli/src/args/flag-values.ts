import type { FlagSpec, FlagValue } from "./flag-spec.ts";

/** A flag value read from its text, or why it could not be. */
export type ConvertedValue =
  | { readonly ok: true; readonly value: FlagValue }
  | { readonly ok: false; readonly expected: string; readonly hint: string };

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

export function parseBooleanWord(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds of `90s`, `15m`, `1h30m`, `1500ms`. A bare number is refused: `--max-time 30`
 * could mean seconds or minutes, and a budget guessed wrong is worse than a usage error.
 */
export function parseDuration(text: string): number | undefined {
  const source = text.trim();
  if (source === "") return undefined;
  DURATION_PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = DURATION_PART.exec(source); match; match = DURATION_PART.exec(source)) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] ?? 0);
    consumed = DURATION_PART.lastIndex;
  }
  return consumed === source.length ? Math.round(total) : undefined;
}

/** A number as a user types it: decimal, optional sign and fraction, nothing else. */
function parseNumber(text: string): number | undefined {
  const source = text.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(source)) return undefined;
  const value = Number(source);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads `text` as the value of `spec`. Booleans take `true|false|yes|no|on|off|1|0`. */
export function convertFlagValue(spec: FlagSpec, text: string): ConvertedValue {
  const flag = `--${spec.name}`;
  switch (spec.kind) {
    case "string":
      return { ok: true, value: text };
    case "boolean": {
      const value = parseBooleanWord(text);
      return value === undefined
        ? {
            ok: false,
            expected: "true or false",
            hint: `Write ${flag}${spec.negatable ? ` or --no-${spec.name}` : `=false`}.`,
          }
        : { ok: true, value };
    }
    case "choice": {
      const choices = spec.choices ?? [];
      return choices.includes(text)
        ? { ok: true, value: text }
        : {
            ok: false,
            expected: `one of ${choices.join(", ")}`,
            hint: `Write ${flag} ${choices[0] ?? "VALUE"}.`,
          };
    }
    case "duration": {
      const value = parseDuration(text);
      if (value === undefined) {
        return {
          ok: false,
          expected: "a duration with a unit (ms, s, m, h)",
          hint: `Write ${flag} 90s, ${flag} 15m or ${flag} 1h30m.`,
        };
      }
      return checkRange(spec, value, text);
    }
    case "number":
    case "integer": {
      const value = parseNumber(text);
      if (value === undefined || (spec.kind === "integer" && !Number.isSafeInteger(value))) {
        const what = spec.kind === "integer" ? "a whole number" : "a number";
        return { ok: false, expected: what, hint: `Write ${flag} ${spec.min ?? 1}.` };
      }
      return checkRange(spec, value, text);
    }
  }
}

function checkRange(spec: FlagSpec, value: number, text: string): ConvertedValue {
  const flag = `--${spec.name}`;
  if (spec.positive && value <= 0) {
    return {
      ok: false,
      expected: "a value greater than 0",
      hint: `${text} is not a usable limit; leave ${flag} out for no limit.`,
    };
  }
  if (spec.min !== undefined && value < spec.min) {
    const shown = spec.kind === "duration" ? `${spec.min}ms` : String(spec.min);
    return { ok: false, expected: `at least ${shown}`, hint: `Write ${flag} ${shown} or more.` };
  }
  return { ok: true, value };
}
