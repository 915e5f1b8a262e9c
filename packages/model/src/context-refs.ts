import { fail, ok, type Result } from "./problem.ts";

/**
 * `${context.<key>}` in a subprocess step's arguments: the key is everything up to the closing
 * brace, trimmed, and may not be empty. The original runtime used the same reading.
 */
const CONTEXT_REF = /\$\{context\.([^}]*)\}/g;

/** The keys `arg` references, in order, repeats included. An empty key is returned as "". */
export function findContextRefs(arg: string): readonly string[] {
  return [...arg.matchAll(CONTEXT_REF)].map((match) => (match[1] as string).trim());
}

/** Every key the arguments reference, in order of first appearance, each once. */
export function contextKeysOf(args: readonly string[]): readonly string[] {
  const keys: string[] = [];
  for (const arg of args) {
    for (const key of findContextRefs(arg)) if (key !== "" && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** A context value as an argument: strings as they are, numbers and booleans as written in JSON. */
function argumentText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/**
 * The arguments a subprocess step runs with: each `${context.<key>}` replaced by `context[key]`
 * (own keys only). A key with no value, a `null`, an object or an array cannot become an
 * argument: the result then lists every such key (each once) instead, so the caller refuses to
 * start the program and says which values are missing. One pass: a value that itself contains
 * `${context.…}` is inserted as written.
 */
export function substituteContextRefs(
  args: readonly string[],
  context: Readonly<Record<string, unknown>>,
): Result<string[], string> {
  const missing: string[] = [];
  const substituted = args.map((arg) =>
    arg.replace(CONTEXT_REF, (whole, rawKey: string) => {
      const key = rawKey.trim();
      const text = Object.hasOwn(context, key) ? argumentText(context[key]) : undefined;
      if (text !== undefined) return text;
      if (!missing.includes(key)) missing.push(key);
      return whole;
    }),
  );
  return missing.length === 0 ? ok(substituted) : fail(missing);
}
