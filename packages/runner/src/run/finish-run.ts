import { planGithubActions, runBoundaryHook } from "@climpt/completion-chain";
import { ClimptError, formatCode, type JsonValue, problem } from "@climpt/model";
import { lastPassingAttempt } from "@climpt/protocol";
import { RUNNER_CODES } from "../codes.ts";
import { ledgerMarkdown, setVerifiedStatus } from "../evidence/ledger-evidence.ts";
import { hookLauncher } from "../phases/command-sandboxes.ts";
import type { PendingBoundary, RunEnding } from "../phases/step-outcome.ts";
import type { RunError, RunResult, WorktreeReport } from "../run-result.ts";
import { toJson } from "../to-json.ts";
import { discardRunWorktree } from "../worktree/worktree.ts";
import { finishWorktree } from "../worktree/worktree-finish.ts";
import type { RunContext } from "./run-context.ts";
import type { RunState } from "./run-state.ts";

/**
 * Whether the boundary hook has anything to do: a command hook, or a GitHub action planned from
 * the closure output and the run's boundary requests. Only then is `boundary_hook_start`
 * journaled: a run with nothing that could act twice, killed in this window, stays resumable.
 */
function boundaryCanAct(ctx: RunContext, boundary: PendingBoundary): boolean {
  if (ctx.agent.boundaryHook !== undefined) return true;
  const plan = planGithubActions({
    agent: ctx.agent,
    params: ctx.args,
    closureOutput: boundary.closureOutput,
    boundaryRequests: boundary.boundaryRequests,
  });
  return plan.actions.length > 0 || plan.merges.length > 0;
}

/**
 * After a validated completion: the boundary hook acts (issue close, merge, release), exactly
 * once per run. `boundary_hook_start` is made durable before it acts, so a crash while its
 * commands run leaves a journal that resume refuses instead of acting twice (journaled only when
 * the hook can act: `boundaryCanAct`). With a verdict that waits on the hook (poll:state), the
 * verdict is checked again afterwards. Returns the run's error when that check fails.
 */
export async function runBoundary(
  ctx: RunContext,
  boundary: PendingBoundary,
): Promise<RunError | undefined> {
  if (boundaryCanAct(ctx, boundary)) {
    ctx.events.emit({ type: "boundary_hook_start" });
    await ctx.events.flush();
  }
  const result = await runBoundaryHook({
    agent: ctx.agent,
    params: ctx.args,
    closureOutput: boundary.closureOutput,
    boundaryRequests: boundary.boundaryRequests,
    commandRunner: ctx.commandRunner,
    // The command hook runs in the OS sandbox unless the agent turned it off (command-sandboxes.ts).
    launchCommand: hookLauncher(ctx),
    cwd: ctx.cwd,
    // The run's repository, as for every gh call of the run; unknown: gh picks in ctx.cwd.
    repository: ctx.githubRepository?.known === true ? ctx.githubRepository.name : undefined,
    runId: ctx.runId,
    signal: ctx.signal,
    evidence: ledgerMarkdown(ctx.events.ledger, ctx.runId),
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
    RUNNER_CODES.verdictUnconfirmed,
    `The boundary hook ran, but the verdict is not met afterwards: ${confirmed.reason}`,
    { hint: "Read the boundary_hook event in the journal for the commands' output." },
  );
}

/**
 * What happens to the worktree when the run ends (docs/design.md#worktrees): after a success,
 * the finish (merge back, push, pull request, removal), whose failure fails the run with its
 * code and keeps worktree and branch; after a failure before anything ran in the worktree (no
 * model call, no program, no step recorded), its removal, and the branch's when the run made
 * it; after any other failure, nothing: `climpt resume` continues in it.
 */
async function endWorktree(
  ctx: RunContext,
  state: RunState,
  error: RunError | undefined,
): Promise<{ report?: WorktreeReport; error?: RunError }> {
  const worktree = ctx.worktree;
  if (worktree === null) return {};
  const kept: WorktreeReport = {
    path: worktree.path,
    branch: worktree.branch,
    baseBranch: worktree.baseBranch ?? null,
    merged: false,
    commits: 0,
    pushed: null,
    pr: null,
    removed: false,
  };
  if (error !== undefined) {
    // A resumed run's worktree held an earlier session's work: only a new run's can be empty.
    if (state.history.length > 0 || ctx.events.workStarted || ctx.resumed) {
      return { report: kept };
    }
    try {
      await discardRunWorktree({ repoDir: ctx.originCwd, worktree, runId: ctx.runId });
      return { report: { ...kept, removed: true } };
    } catch (cause) {
      ctx.events.emit({
        type: "notice",
        level: "warning",
        message: `The worktree was kept: ${(cause as Error).message}`,
      });
      return { report: kept };
    }
  }
  try {
    const finished = await finishWorktree({
      repoDir: ctx.originCwd,
      worktree,
      finish: ctx.worktreeFinish,
      commandRunner: ctx.commandRunner,
      ...(ctx.env === undefined ? {} : { env: ctx.env }),
      agentName: ctx.agent.name,
      runId: ctx.runId,
      signal: ctx.signal,
      editAgents: ctx.agent.editAgents === true,
      agentDir: ctx.loaded.dir,
      ...evidenceOf(ctx),
      ...(ctx.env === undefined ? {} : { env: ctx.env }),
    });
    return finished.problem === undefined
      ? { report: finished.report }
      : { report: finished.report, error: finished.problem };
  } catch (cause) {
    // A git command that failed outright (RUN-WORKTREE-001): reported, worktree kept.
    const failure =
      cause instanceof ClimptError
        ? problem(cause.code, cause.message, cause.hint === undefined ? {} : { hint: cause.hint })
        : problem(RUNNER_CODES.worktreeGitFailed, (cause as Error).message);
    return { report: kept, error: failure };
  }
}

function evidenceOf(ctx: RunContext): { evidence?: string } {
  const evidence = ledgerMarkdown(ctx.events.ledger, ctx.runId);
  return evidence === undefined ? {} : { evidence };
}

/**
 * After a completed run that put its work on GitHub (pushed its branch, opened a pull request,
 * or acted through the boundary hook), the `climpt/verified` status on the commit its last
 * passing validation ran on. A status that cannot be set is a warning, never a failed run: the
 * work is done, and the ledger stays in the journal and the pull request.
 */
async function markVerified(ctx: RunContext, worktree: WorktreeReport | undefined): Promise<void> {
  const attempt = lastPassingAttempt(ctx.events.ledger);
  const sha = attempt?.commit?.sha;
  if (attempt === undefined || sha === undefined) return;
  const onGithub =
    (worktree?.pushed ?? null) !== null || (ctx.events.boundaryReport?.actions.length ?? 0) > 0;
  if (!onGithub) return;
  const failed = await setVerifiedStatus({
    commandRunner: ctx.commandRunner,
    cwd: ctx.originCwd,
    repository: ctx.githubRepository?.known === true ? ctx.githubRepository.name : undefined,
    sha,
    state: "success",
    description: `${attempt.entries.length} validator${attempt.entries.length === 1 ? "" : "s"} passed (climpt verify ${ctx.runId})`,
    signal: ctx.signal,
  });
  ctx.events.emit({
    type: "notice",
    level: failed === undefined ? "info" : "warning",
    message:
      failed === undefined
        ? `Commit status climpt/verified: success on ${sha}.`
        : `The commit status climpt/verified could not be set on ${sha}: ${failed}`,
  });
}

/**
 * The run's result, and its `run_end` event. In worktree mode the worktree is finished or kept
 * first (`endWorktree`); a finish that fails turns the run into a failure that resume cannot
 * continue (the steps are done; the hint says how to finish by hand).
 */
export async function finishRun(
  ctx: RunContext,
  state: RunState,
  ending: RunEnding,
  startedAt: number,
): Promise<RunResult> {
  const worktreeEnd = await endWorktree(ctx, state, ending.error);
  const error = ending.error ?? worktreeEnd.error;
  const finishFailed = ending.error === undefined && worktreeEnd.error !== undefined;
  const success = error === undefined;
  if (success) await markVerified(ctx, worktreeEnd.report);
  const boundary = ctx.events.boundaryReport;
  const ledger = ctx.events.ledger;
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
    ...(state.lastOutput === undefined ? {} : { output: state.lastOutput }),
    ...(error === undefined ? {} : { error }),
    state: { history: state.history, handoff: state.handoff },
    usage: ctx.usage.totals,
    ...(ledger.length === 0 ? {} : { ledger: [...ledger] }),
    ...(boundary === undefined ? {} : { boundary }),
    ...(worktreeEnd.report === undefined ? {} : { worktree: worktreeEnd.report }),
    ...(ending.budget === undefined || success ? {} : { budget: ending.budget }),
    journalPath: ctx.journalPath,
    // Once the boundary hook has started, resume refuses (RUN-RESUME-003): never act twice. A
    // removed worktree, or a finish that failed after the steps completed, leaves nothing to resume.
    resumable:
      !success &&
      !finishFailed &&
      worktreeEnd.report?.removed !== true &&
      ctx.journalPath !== null &&
      !ctx.events.boundaryHookStarted,
    durationMs: Date.now() - startedAt,
  });
  ctx.events.emit({ type: "run_end", result });
  await ctx.events.flush();
  return result;
}
