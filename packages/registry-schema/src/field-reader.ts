/**
 * Reads a definition object field by field with its valibot entries, so one bad field becomes a
 * problem (with its JSON path) and the field's absence, not the loss of the whole object. That
 * is what lets the normalizers report every problem of a file at once and still check the rest.
 */

import { isPlainObject, jsonPath, type Problem } from "@climpt/model";
import * as v from "valibot";

/** Problems found in one file, and the code its shape problems carry. */
export interface Findings {
  readonly file: string | undefined;
  readonly problems: Problem[];
  /** `SR-LOAD-005` for the registry, `AC-VALID-001` for agent.json. */
  readonly shapeCode: string;
}

export function newFindings(file: string | undefined, shapeCode: string): Findings {
  return { file, problems: [], shapeCode };
}

export function report(
  findings: Findings,
  code: string,
  path: string,
  message: string,
  hint: string,
): void {
  findings.problems.push({
    code,
    severity: "error",
    message,
    ...(findings.file === undefined ? {} : { file: findings.file }),
    path,
    hint,
  });
}

export type FieldValues<E extends v.ObjectEntries> = { [K in keyof E]?: v.InferOutput<E[K]> };

export interface ReadOptions {
  /** Keys the caller reads itself (nested objects it salvages field by field). */
  readonly skip?: readonly string[];
  /** Per-key problem codes that replace the file's shape code (e.g. `AC-PARAM-001` for `type`). */
  readonly codes?: Readonly<Record<string, string>>;
}

/**
 * What a field schema makes of a missing field, for schemas that accept one as absent or as a
 * primitive default: a schema is a constant, so that is the same every time, and most of a
 * step's fields are optional and missing (a registry of thousands of steps parsed each again).
 * Failures and object defaults (which the caller may keep and change) are never remembered.
 */
const absentOutputs = new WeakMap<v.GenericSchema, { readonly output: unknown }>();

function isObjectLike(value: unknown): boolean {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

/** Each entry's value, parsed on its own; a field that fails is reported and left out. */
export function readFields<E extends v.ObjectEntries>(
  entries: E,
  raw: Record<string, unknown>,
  at: string,
  findings: Findings,
  options: ReadOptions = {},
): FieldValues<E> {
  const out: Record<string, unknown> = {};
  // Keys, then a lookup: no entry pairs per object read (the registry reads several per step).
  for (const key of Object.keys(entries)) {
    const schema = entries[key] as E[keyof E];
    if (options.skip?.includes(key)) continue;
    const value = Object.hasOwn(raw, key) ? raw[key] : undefined;
    const absent = value === undefined ? absentOutputs.get(schema) : undefined;
    if (absent !== undefined) {
      if (absent.output !== undefined) out[key] = absent.output;
      continue;
    }
    const result = v.safeParse(schema, value);
    if (result.success) {
      if (result.output !== undefined) out[key] = result.output;
      // A default computed by a function may differ from call to call: never remembered.
      if (
        value === undefined &&
        !isObjectLike(result.output) &&
        typeof (schema as { readonly default?: unknown }).default !== "function"
      ) {
        absentOutputs.set(schema, { output: result.output });
      }
    } else {
      reportIssues(findings, result.issues, jsonPath(at, key), schema, options.codes?.[key]);
    }
  }
  return out as FieldValues<E>;
}

/** `readFields` for a value that must be an object; reports and returns undefined otherwise. */
export function readObject<E extends v.ObjectEntries>(
  entries: E,
  raw: unknown,
  at: string,
  findings: Findings,
  options: ReadOptions = {},
): FieldValues<E> | undefined {
  if (!isPlainObject(raw)) {
    reportNotObject(findings, raw, at);
    return undefined;
  }
  return readFields(entries, raw, at, findings, options);
}

export function reportNotObject(findings: Findings, raw: unknown, at: string): void {
  report(
    findings,
    findings.shapeCode,
    at,
    raw === undefined
      ? `Required object ${at} is missing.`
      : `${at} must be an object, but is ${describeValue(raw)}.`,
    `Write ${at} as a JSON object ({ … }).`,
  );
}

/** A short rendering of a value for messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}

type Issue = v.BaseIssue<unknown>;

function reportIssues(
  findings: Findings,
  issues: readonly Issue[],
  fieldPath: string,
  fieldSchema: v.GenericSchema,
  code: string | undefined,
): void {
  for (const issue of precise(issues)) {
    const path = (issue.path ?? []).reduce<string>(
      (parent, item) =>
        typeof item.key === "string" || typeof item.key === "number"
          ? jsonPath(parent, item.key)
          : parent,
      fieldPath,
    );
    const expectation = describeExpectation(issue);
    const missing = issue.kind === "schema" && issue.input === undefined;
    const message = missing
      ? `Required field ${path} is missing.`
      : `${path} must be ${expectation}, but is ${issue.received}.`;
    const description = path === fieldPath ? describeSchema(fieldSchema) : undefined;
    const hint = `Set ${path} to ${expectation}.${description === undefined ? "" : ` ${description}`}`;
    report(findings, code ?? findings.shapeCode, path, message, hint);
  }
}

/**
 * A union issue says only "expected A | B"; when the value had the right type for one option
 * (an object for an object option), that option's own issues are the useful ones.
 */
function precise(issues: readonly Issue[]): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const nested = issue.type === "union" ? (issue.issues ?? []) : [];
    const deeper = nested.filter(
      (sub) => !(sub.kind === "schema" && (sub.path === undefined || sub.path.length === 0)),
    );
    if (deeper.length > 0) out.push(...precise(deeper));
    else out.push(issue);
  }
  return out;
}

function describeExpectation(issue: Issue): string {
  // Messages we wrote ourselves on an action are already phrased as an expectation.
  if (!/^Invalid /.test(issue.message)) return issue.message;
  switch (issue.type) {
    case "integer":
      return "an integer";
    case "min_value":
      return `a number >= ${String(issue.requirement)}`;
    case "min_length":
      return issue.requirement === 1 ? "non-empty" : `at least ${String(issue.requirement)} long`;
    default:
      return describeExpected(issue.expected);
  }
}

const TYPE_PHRASES: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "a boolean",
  Object: "an object",
  Array: "an array",
  null: "null",
};

function describeExpected(expected: string | null): string {
  if (expected === null) return "valid";
  const inner =
    expected.startsWith("(") && expected.endsWith(")") ? expected.slice(1, -1) : expected;
  const options = inner.split(" | ").map((option) => TYPE_PHRASES[option] ?? option);
  if (options.length === 1) return options[0] ?? expected;
  return options.every((option) => option.startsWith('"'))
    ? `one of ${options.join(", ")}`
    : options.join(" or ");
}

/** The description attached with `v.description`, looking through `optional` / `nullable`. */
function describeSchema(schema: v.GenericSchema): string | undefined {
  let current: unknown = schema;
  for (let depth = 0; depth < 4; depth++) {
    const description = v.getDescription(current as v.GenericSchema);
    if (description !== undefined) return description;
    if (typeof current === "object" && current !== null && "wrapped" in current) {
      current = (current as { wrapped: unknown }).wrapped;
    } else {
      return undefined;
    }
  }
  return undefined;
}
