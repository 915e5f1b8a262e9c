import { runBoundaryHook } from "@climpt/completion-chain";
import { formatCode, type JsonValue, problem } from "@climpt/model";
import type { RunContext } from "./run-context.ts";
import { toJson } from "./run-errors.ts";
import type { RunError, RunResult } from "./run-result.ts";
import type { RunState } from "./run-state.ts";
import type { PendingBoundary, RunEnding } from "./step-outcome.ts";
import { removeRunWorktree } from "./worktree.ts";

/**
 * After a validated completion: the boundary hook acts (issue close, merge, release), exactly
 * once per run. `boundary_hook_start` is made durable before it acts, so a crash while its
 * commands run leaves a journal that resume refuses instead of acting twice. With a verdict
 * that waits on the hook (poll:state), the verdict is checked again afterwards. Returns the
 * run's error when that check fails.
 */
export async function runBoundary(
  ctx: RunContext,
  boundary: PendingBoundary,
): Promise<RunError | undefined> {
  ctx.events.emit({ type: "boundary_hook_start" });
  await ctx.events.flush();
  const result = await runBoundaryHook({
    agent: ctx.agent,
    params: ctx.args,
    closureOutput: boundary.closureOutput,
    boundaryRequests: boundary.boundaryRequests,
    commandRunner: ctx.commandRunner,
    cwd: ctx.cwd,
    runId: ctx.runId,
    signal: ctx.signal,
  });
  if (result.actions.length > 0 || result.problems.length > 0) {
    ctx.events.emit({
      type: "boundary_hook",
      ok: result.ok,
      actions: toJson(result.actions) as JsonValue[],
      problems: result.problems,
    });
  }
  if (!boundary.awaitsBoundary || ctx.verdict.confirmAfterBoundary === undefined) return undefined;
  // poll:state: the hook's close is what puts the issue into its target state; check it did.
  const confirmed = await ctx.verdict.confirmAfterBoundary({ signal: ctx.signal });
  if (confirmed.done) return undefined;
  return problem(
    "AGENT_VERDICT_UNCONFIRMED",
    `The boundary hook ran, but the verdict is not met afterwards: ${confirmed.reason}`,
    { hint: "Read the boundary_hook event in the journal for the commands' output." },
  );
}

/**
 * The run's result, and its `run_end` event. A successful run in worktree mode removes its
 * worktree (the branch keeps the work); a failed one keeps it for `--resume`.
 */
export async function finishRun(
  ctx: RunContext,
  state: RunState,
  ending: RunEnding,
  startedAt: number,
): Promise<RunResult> {
  const { error } = ending;
  const success = error === undefined;
  if (success && ctx.worktree !== null) {
    try {
      await removeRunWorktree({ repoDir: ctx.originCwd, worktree: ctx.worktree });
    } catch (cause) {
      ctx.events.emit({
        type: "notice",
        level: "warning",
        message: `The worktree was kept: ${(cause as Error).message}`,
      });
    }
  }
  const boundary = ctx.events.boundaryReport;
  // Scrubbed here too, not only in run_end: the caller gets this object itself.
  const result: RunResult = ctx.events.scrubber.scrubJson<RunResult>({
    runId: ctx.runId,
    success,
    finalStepId: ending.finalStepId ?? state.routerState.stepId,
    completionReason: success
      ? (ending.completionReason ?? "completed")
      : `${formatCode(error)}: ${error.message}`,
    iterations:
      state.history.length === 0 ? 0 : Math.max(...state.history.map((entry) => entry.iteration)),
    ...(ending.verdict === undefined ? {} : { verdict: ending.verdict }),
    ...(error === undefined ? {} : { error }),
    state: { history: state.history, handoff: state.handoff },
    usage: ctx.usage.totals,
    ...(boundary === undefined ? {} : { boundary }),
    journalPath: ctx.journalPath,
    // Once the boundary hook has started, resume refuses (RUN-RESUME-003): never act twice.
    resumable: !success && ctx.journalPath !== null && !ctx.events.boundaryHookStarted,
    durationMs: Date.now() - startedAt,
  });
  ctx.events.emit({ type: "run_end", result });
  await ctx.events.flush();
  return result;
}
