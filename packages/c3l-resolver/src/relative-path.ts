import { fail, ok, type Problem, problem, type Result } from "@climpt/model";
import { PROMPT_CODES } from "./problems.ts";

/** Where a checked value came from, for messages: `prompt path`, `c2 value of step "x"`, … */
export interface PathContext {
  /** What the value is, e.g. `prompt path` or `c2`. */
  readonly what: string;
  readonly file?: string | undefined;
  readonly path?: string | undefined;
}

const DRIVE_LETTER = /^[A-Za-z]:/;

/**
 * The lexical half of path confinement, shared by every prompt source: a relative path that
 * cannot name anything outside the folder it is joined to, whatever the platform. Returns the
 * path normalized to `/`-separated segments without `.` or empty segments.
 *
 * Symlinks are the other half and need the file system; see `createFsPromptSource`.
 */
export function checkRelativePath(value: string, context: PathContext): Result<string> {
  const safe = safeNormalPath(value);
  if (safe !== undefined) return ok(safe);
  const issue = unsafePathProblem(value, context);
  if (issue) return fail([issue]);
  return ok(isNormalPath(value) ? value : normalizePath(value));
}

/**
 * `checkRelativePath`'s value for a safe path, `undefined` for an unsafe one, without the
 * context its message needs: a prompt's paths are checked on every step and almost never fail.
 */
export function safeNormalPath(value: string): string | undefined {
  if (!isSafePath(value)) return undefined;
  return isNormalPath(value) ? value : normalizePath(value);
}

/** `/`-separated segments without `.` or empty ones. */
function normalizePath(value: string): string {
  return value
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".")
    .join("/");
}

/** Whether `normalizePath` would return `value` unchanged (no empty or `.` segment). */
function isNormalPath(value: string): boolean {
  if (value === "") return true;
  return !(
    value.includes("//") ||
    value.startsWith("/") ||
    value.endsWith("/") ||
    value === "." ||
    value.startsWith("./") ||
    value.endsWith("/.") ||
    value.includes("/./")
  );
}

/**
 * Whether `value` passes every rule of `unsafePathProblem`, without building a message: a
 * prompt is resolved on every step, and its paths are almost always fine.
 */
function isSafePath(value: string): boolean {
  if (value.includes("\0") || value.includes("\\") || value.startsWith("/")) return false;
  // The drive-letter and `..` rules look at segments; a path without `:` or `..` has neither.
  if (!value.includes(":") && !value.includes("..")) return true;
  for (const segment of value.split("/")) {
    if (segment === ".." || DRIVE_LETTER.test(segment)) return false;
  }
  return true;
}

function unsafePathProblem(value: string, context: PathContext): Problem | undefined {
  if (isSafePath(value)) return undefined;
  const where = { file: context.file, path: context.path };
  const shown = JSON.stringify(value);
  // NUL first: C APIs truncate at it, so `a.md\0../../x` means something else to the OS.
  if (value.includes("\0")) {
    return problem(PROMPT_CODES.nulByte, `The ${context.what} ${shown} contains a NUL byte.`, {
      ...where,
      hint: "Remove the NUL character; prompt paths are plain text.",
    });
  }
  // A drive letter on any segment, not only the first: `./C:..` normalizes to `C:..`, which
  // Windows reads as relative to drive C's current folder, outside the prompt folder.
  if (
    value.startsWith("/") ||
    value.startsWith("\\\\") ||
    value.split("/").some((segment) => DRIVE_LETTER.test(segment))
  ) {
    return problem(
      PROMPT_CODES.absolute,
      `The ${context.what} ${shown} is absolute; prompt paths must stay inside the prompt folder.`,
      {
        ...where,
        hint: "Write the path relative to the prompt folder, e.g. steps/initial/issue/f_default.md.",
      },
    );
  }
  // A backslash is a separator on Windows and an ordinary character on POSIX, so the same
  // registry would read different files on different machines; `..\..\x` hides a traversal.
  if (value.includes("\\")) {
    return problem(
      PROMPT_CODES.backslash,
      `The ${context.what} ${shown} contains a backslash; use "/" as the only separator.`,
      { ...where, hint: "Replace every \\ with /." },
    );
  }
  if (value.split("/").includes("..")) {
    return problem(
      PROMPT_CODES.traversal,
      `The ${context.what} ${shown} has a ".." segment and could leave the prompt folder.`,
      { ...where, hint: "Remove the .. segment; every prompt lives under the prompt folder." },
    );
  }
  return undefined;
}

/** Whether `checkPathSegment` passes `value` (checked without building its message). */
export function isPathSegment(value: string): boolean {
  return value !== "" && value !== "." && !value.includes("/") && isSafePath(value);
}

/**
 * A C3L value (`c1`, `c2`, `c3`, `edition`, `adaptation`) must be exactly one plain path segment:
 * the template decides the folder layout, a value never adds folders of its own.
 */
export function checkPathSegment(value: string, context: PathContext): Problem | undefined {
  const unsafe = unsafePathProblem(value, context);
  if (unsafe) return unsafe;
  if (value === "" || value === "." || value.includes("/")) {
    return problem(
      PROMPT_CODES.badComponent,
      `The ${context.what} ${JSON.stringify(value)} is not a single path segment.`,
      {
        file: context.file,
        path: context.path,
        hint: 'Use a non-empty name without "/", e.g. "issue".',
      },
    );
  }
  return undefined;
}
