import { jsonPath } from "@climpt/model";
import { ORCHESTRATOR_CODES as C } from "./codes.ts";
import { describeType, didYouMean, isRecord, type ProblemList } from "./workflow-problems.ts";

/** Warns about each key of `value` that `known` does not list, suggesting the nearest. */
export function unknownFields(
  problems: ProblemList,
  value: Record<string, unknown>,
  known: readonly string[],
  path: string,
): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    problems.warning(
      C.schemaUnknownField,
      jsonPath(path, key),
      `"${key}" is not a field of ${path === "$" ? "the workflow" : path}; it is ignored.${didYouMean(key, known)}`,
      "Remove it, or correct its name.",
    );
  }
}

/** A string field, or undefined (with a problem when present with another type). */
export function optionalString(
  problems: ProblemList,
  owner: Record<string, unknown>,
  key: string,
  path: string,
): string | undefined {
  const value = owner[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  problems.error(
    C.schemaType,
    jsonPath(path, key),
    `${jsonPath(path, key)} must be a string, not ${describeType(value)}.`,
    `Write "${key}": "<text>".`,
  );
  return undefined;
}

/** An object of strings (`outputPhases`, `fallbackPhases`, `commentTemplates`). */
export function stringMap(
  problems: ProblemList,
  owner: Record<string, unknown>,
  key: string,
  path: string,
): Record<string, string> | undefined {
  const value = owner[key];
  if (value === undefined) return undefined;
  const at = jsonPath(path, key);
  if (!isRecord(value)) {
    problems.error(
      C.schemaType,
      at,
      `${at} must be an object of names to strings, not ${describeType(value)}.`,
      `Write "${key}": { "<name>": "<text>" }.`,
    );
    return undefined;
  }
  const result: Record<string, string> = {};
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry === "string") result[name] = entry;
    else {
      problems.error(
        C.schemaType,
        jsonPath(at, name),
        `${jsonPath(at, name)} must be a string, not ${describeType(entry)}.`,
        "Give the name of a phase (or the template text).",
      );
    }
  }
  return result;
}
