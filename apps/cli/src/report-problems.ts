import * as path from "node:path";
import { formatProblem, type Problem } from "@climpt/model";

/** A file name as the user would like to read it: relative to where they are, when inside. */
export function displayPath(file: string, cwd: string): string {
  if (!path.isAbsolute(file)) return file;
  const relative = path.relative(cwd, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)
    ? relative
    : file;
}

function severityWord(problem: Problem): string {
  return problem.severity === "warning" ? "warning" : "error";
}

/**
 * Every problem, one `formatProblem` line each, grouped under the file it is in (problems with no
 * file first), then a count. Order within a file is the order the packages reported them.
 */
export function formatProblemsByFile(problems: readonly Problem[], cwd: string): string {
  const groups = new Map<string, Problem[]>();
  for (const problem of problems) {
    const key = problem.file ?? "";
    const group = groups.get(key);
    if (group) group.push(problem);
    else groups.set(key, [problem]);
  }
  const keys = [...groups.keys()].sort((a, b) => (a === "" ? -1 : b === "" ? 1 : 0));
  const lines: string[] = [];
  for (const key of keys) {
    const indent = key === "" ? "" : "  ";
    if (key !== "") lines.push(displayPath(key, cwd));
    for (const problem of groups.get(key) ?? []) {
      const { file: _file, ...withoutFile } = problem;
      lines.push(`${indent}${severityWord(problem)} ${formatProblem(withoutFile)}`);
    }
  }
  lines.push(countLine(problems));
  return `${lines.join("\n")}\n`;
}

/** `2 errors, 1 warning`. */
export function countLine(problems: readonly Problem[]): string {
  const errors = problems.filter((problem) => problem.severity !== "warning").length;
  const warnings = problems.length - errors;
  const part = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${part(errors, "error")}, ${part(warnings, "warning")}`;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((problem) => problem.severity !== "warning");
}

/** A problem as plain JSON for `--json` output (no undefined keys). */
export function problemJson(problem: Problem): Problem {
  return JSON.parse(JSON.stringify(problem)) as Problem;
}
