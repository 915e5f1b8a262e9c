/**
 * A coded failure, as data. Loading, validation and analysis return all of them at once instead
 * of throwing at the first, so a user fixes a definition in one pass; a run that fails reports
 * one. Every package uses this one shape; a thrown `ClimptError` carries the same fields.
 */
export interface Problem {
  /**
   * The specific, stable code from the catalogue in @climpt/registry-schema's README, e.g.
   * `SR-LOAD-002` or `SR-INTENT-002`. Never a family name when a specific code exists.
   */
  readonly code: string;
  /** What is wrong, in one sentence. Does not repeat the code. */
  readonly message: string;
  readonly severity: "error" | "warning";
  /**
   * The run-level family the code belongs to, when it has one: `GATE_INTERPRETATION_ERROR` for an
   * `SR-INTENT-002` the gate found on the first iteration, `FAILED_STEP_ROUTING` for the same on
   * a later one. A runner reports the family as the run's failure and the code as its detail.
   */
  readonly family?: string;
  /** The file the problem is in, as given to the loader (absolute when the loader had a path). */
  readonly file?: string;
  /** JSON path inside the file, in `$.steps["initial.issue"].transitions.next` form. */
  readonly path?: string;
  /** How to fix it. */
  readonly hint?: string;
}

/** Where a problem is and how to fix it: the optional fields of `Problem`. */
export interface ProblemDetails {
  readonly severity?: "error" | "warning" | undefined;
  readonly family?: string | undefined;
  readonly file?: string | undefined;
  readonly path?: string | undefined;
  readonly hint?: string | undefined;
}

/**
 * A `Problem` (severity `error` unless given). Fields given as `undefined` are left out, so a
 * caller can pass optional values straight through and the result still compares equal to a
 * literal that omits them.
 */
export function problem(code: string, message: string, details: ProblemDetails = {}): Problem {
  return {
    code,
    message,
    severity: details.severity ?? "error",
    ...(details.family === undefined ? {} : { family: details.family }),
    ...(details.file === undefined ? {} : { file: details.file }),
    ...(details.path === undefined ? {} : { path: details.path }),
    ...(details.hint === undefined ? {} : { hint: details.hint }),
  };
}

/** `{ ok: true, value } | { ok: false, issues }`: the shape of every fallible pure function. */
export type Result<T, I = Problem> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly I[] };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function fail<I = Problem>(
  issues: readonly I[],
): { readonly ok: false; readonly issues: readonly I[] } {
  return { ok: false, issues };
}

/**
 * The code as a user reads it: the specific code, then the family when there is one
 * (`SR-INTENT-007 (FAILED_STEP_ROUTING)`), so both can be searched for in the catalogue.
 */
export function formatCode(problem: Pick<Problem, "code" | "family">): string {
  return problem.family === undefined ? problem.code : `${problem.code} (${problem.family})`;
}

/** One line per problem: `CODE (FAMILY) file at path: message Fix: hint`. */
export function formatProblem(problem: Problem): string {
  const code = formatCode(problem);
  const where = [problem.file, problem.path ? `at ${problem.path}` : undefined]
    .filter((part): part is string => part !== undefined && part !== "")
    .join(" ");
  const head = where ? `${code} ${where}: ${problem.message}` : `${code}: ${problem.message}`;
  return problem.hint ? `${head} Fix: ${problem.hint}` : head;
}

/**
 * A JSON path segment appended to a parent path. Identifiers use dot notation; anything else
 * (step ids with dots, numbers) uses bracket notation so the path can be read back unambiguously.
 */
export function jsonPath(parent: string, segment: string | number): string {
  if (typeof segment === "number") return `${parent}[${segment}]`;
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) return `${parent}.${segment}`;
  return `${parent}[${JSON.stringify(segment)}]`;
}

/**
 * The path of a step in steps_registry.json, and of fields below it:
 * `stepPath("initial.issue", "transitions", "next")` is `$.steps["initial.issue"].transitions.next`.
 */
export function stepPath(stepId: string, ...rest: readonly (string | number)[]): string {
  let path = jsonPath("$.steps", stepId);
  for (const segment of rest) path = jsonPath(path, segment);
  return path;
}
