import { type Problem, problem, type SuccessCondition } from "@climpt/model";
import { stripAnsi } from "./ansi.ts";
import { VALIDATOR_CODES } from "./codes.ts";

/** What a finished command left behind, as `successWhen` sees it. */
export interface CommandOutcome {
  readonly stdout: string;
  readonly stderr: string;
  /** `null` when the process was killed by a signal. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
}

export type SuccessVerdict =
  | { readonly ok: true; readonly passed: boolean }
  | { readonly ok: false; readonly error: Problem };

/**
 * Decides pass or fail. A command that timed out or was killed by a signal never passes: its
 * output is partial, so "empty" or "contains" would be judging half a result. Exit 126 and 127
 * (the shell could not execute or find the command) fail every condition except an explicit
 * `exitCode:126` / `exitCode:127`: "contains:" must not pass on the shell's own error text.
 *
 * - `empty`: stdout, without terminal escapes, is empty after trimming, and the command exited 0.
 *   Seed 003 names only the empty output; the exit code is our addition, because a command that
 *   failed prints nothing on stdout too (`git status --porcelain` outside a repository exits 128),
 *   and a validator exists to stop false completions. stderr is not consulted (warnings pass).
 *   For a search that must find nothing, write `! grep -rn TODO src` (or `grep … || true`).
 * - `exitCode:N`: the exit code is N.
 * - `contains:S` and `matches:RE`: look at stdout and stderr together (stdout, a newline, stderr),
 *   without terminal escapes, because many tools (jest, deno, biome) print results on stderr.
 *   `matches` compiles RE with the `m` flag, so `^` and `$` match at line boundaries.
 */
export function evaluateSuccess(
  condition: SuccessCondition,
  outcome: CommandOutcome,
): SuccessVerdict {
  if (outcome.timedOut || outcome.exitCode === null) return { ok: true, passed: false };
  const notRunnable = outcome.exitCode === 126 || outcome.exitCode === 127;
  if (notRunnable && condition.kind !== "exitCode") return { ok: true, passed: false };
  switch (condition.kind) {
    case "empty":
      return {
        ok: true,
        passed: outcome.exitCode === 0 && stripAnsi(outcome.stdout).trim() === "",
      };
    case "exitCode":
      return { ok: true, passed: outcome.exitCode === condition.code };
    case "contains":
      return { ok: true, passed: combinedOutput(outcome).includes(condition.text) };
    case "matches": {
      let pattern: RegExp;
      try {
        pattern = new RegExp(condition.pattern, "m");
      } catch (error) {
        return {
          ok: false,
          error: problem(
            VALIDATOR_CODES.invalidPattern,
            `successWhen "matches:${condition.pattern}" is not a valid regular expression: ${(error as Error).message}.`,
            {
              hint: 'Write a JavaScript regular expression after "matches:", e.g. "matches:^ok$".',
            },
          ),
        };
      }
      return { ok: true, passed: pattern.test(combinedOutput(outcome)) };
    }
  }
}

/** stdout, a newline, stderr; without terminal escapes. What `contains` and `matches` search. */
export function combinedOutput(outcome: {
  readonly stdout: string;
  readonly stderr: string;
}): string {
  const stdout = stripAnsi(outcome.stdout);
  const stderr = stripAnsi(outcome.stderr);
  if (stderr === "") return stdout;
  if (stdout === "") return stderr;
  return stdout.endsWith("\n") ? stdout + stderr : `${stdout}\n${stderr}`;
}
