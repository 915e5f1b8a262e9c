/**
 * An expected failure, as data. Loading, validation and analysis return all of them at once
 * instead of throwing at the first, so a user fixes a definition in one pass.
 */
export interface Problem {
  /** Stable code from the catalogue in this package's README, e.g. `SR-LOAD-002`. */
  readonly code: string;
  /** What is wrong, in one sentence. */
  readonly message: string;
  readonly severity: "error" | "warning";
  /** The file the problem is in, as given to the loader (absolute when the loader had a path). */
  readonly file?: string;
  /** JSON path inside the file, in `$.steps["initial.issue"].transitions.next` form. */
  readonly path?: string;
  /** How to fix it. */
  readonly hint?: string;
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

/** One line per problem: `CODE file at path: message Fix: hint`. */
export function formatProblem(problem: Problem): string {
  const where = [problem.file, problem.path ? `at ${problem.path}` : undefined]
    .filter((part): part is string => part !== undefined && part !== "")
    .join(" ");
  const head = where
    ? `${problem.code} ${where}: ${problem.message}`
    : `${problem.code}: ${problem.message}`;
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
