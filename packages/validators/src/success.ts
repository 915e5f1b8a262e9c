import { type Problem, problem, type SuccessCondition } from "@climpt/model";
import { runPatternJob } from "@climpt/pattern-worker";
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
 *   The original runtime names only the empty output; the exit code is our addition, because a
 *   command that failed prints nothing on stdout too (`git status --porcelain` outside a repository
 *   exits 128), and a validator exists to stop false completions. stderr is not consulted (warnings
 *   pass). For a search that must find nothing, write `! grep -rn TODO src` (or `grep … || true`).
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

/** How long `matches:RE` may spend on a command's output by default. */
export const DEFAULT_PATTERN_TIMEOUT_MS = 10_000;

/**
 * `evaluateSuccess` for output the caller does not control: a `matches:` pattern runs in a worker
 * thread with a deadline, so a pattern that backtracks catastrophically (`^(a+)+$` on a line of
 * `a`s) ends with `SR-VALID-110` instead of holding the event loop. The other conditions are
 * evaluated as `evaluateSuccess` does.
 */
export async function evaluateSuccessBounded(
  condition: SuccessCondition,
  outcome: CommandOutcome,
  options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } = {},
): Promise<SuccessVerdict> {
  if (condition.kind !== "matches") return evaluateSuccess(condition, outcome);
  const notRunnable = outcome.exitCode === 126 || outcome.exitCode === 127;
  if (outcome.timedOut || outcome.exitCode === null || notRunnable) {
    return { ok: true, passed: false };
  }
  try {
    new RegExp(condition.pattern, "m");
  } catch {
    return evaluateSuccess(condition, outcome); // the coded "invalid pattern" verdict
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_PATTERN_TIMEOUT_MS;
  const matched = await runPatternJob(
    { kind: "filter", source: condition.pattern, flags: "m", items: [combinedOutput(outcome)] },
    { timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) },
  );
  if (matched.ok) return { ok: true, passed: matched.value.length === 1 };
  if (matched.reason === "aborted") return { ok: true, passed: false };
  return {
    ok: false,
    error: problem(
      VALIDATOR_CODES.patternTimeout,
      `successWhen "matches:${condition.pattern}" ${matched.reason === "timeout" ? `took longer than ${timeoutMs} ms on the command's output and was stopped` : `could not be evaluated (${matched.message})`}.`,
      {
        hint: "Nested repetition such as (a+)+ backtracks for a very long time on some output; simplify the pattern.",
      },
    ),
  };
}
