/**
 * Loader problems with a size a terminal can show. A definition may hold a 5 MB `$ref` or a key
 * of any length, and messages quote what they found: every quoted value is cut short where it is
 * quoted (`cutShort`), and as a last guard every problem's message, hint and JSON path is bounded
 * here, so no value, however large, is echoed whole.
 */
import * as path from "node:path";
import type { Problem } from "@climpt/model";

/** The most of a quoted value a message shows. */
export const MAX_QUOTED_CHARS = 120;
/** The most of a message, hint or JSON path a problem carries. */
export const MAX_PROBLEM_TEXT_CHARS = 2_000;

/** `text`, or its first `max` characters and how many more there were. */
export function cutShort(text: string, max: number = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The problem with its message, hint and path bounded (the code, file and severity unchanged). */
export function boundProblem(problem: Problem): Problem {
  const long = (text: string | undefined) =>
    text !== undefined && text.length > MAX_PROBLEM_TEXT_CHARS;
  if (!long(problem.message) && !long(problem.hint) && !long(problem.path)) return problem;
  return {
    ...problem,
    message: cutShort(problem.message, MAX_PROBLEM_TEXT_CHARS),
    ...(problem.hint === undefined ? {} : { hint: cutShort(problem.hint, MAX_PROBLEM_TEXT_CHARS) }),
    ...(problem.path === undefined ? {} : { path: cutShort(problem.path, MAX_PROBLEM_TEXT_CHARS) }),
  };
}

/** Whether `error` is V8's stack overflow, which a value nested deeply enough causes in any walk. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack size/i.test(error.message);
}

/** SR-LOAD-013: some value of the agent folder is nested too deeply to be read at all. */
export function tooDeepProblem(dir: string): Problem {
  return {
    code: "SR-LOAD-013",
    severity: "error",
    message: `A value in the agent folder ${path.resolve(dir)} (agent.json, the registry or a schema) is nested too deeply to be read.`,
    file: path.join(path.resolve(dir), "agent.json"),
    path: "$",
    hint: "Nest objects and arrays at most a few hundred levels deep; share schema parts through $ref instead of nesting them.",
  };
}
