import { ClimptError, formatCode, type JsonValue } from "@climpt/model";
import { followChecks } from "../checks/follow-checks.ts";
import { landFix } from "../checks/land-fix.ts";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { DispatchOutcome } from "../dispatch/dispatcher.ts";
import { payloadProblem } from "../handoff/issue-payload.ts";
import { cycleRuleViolation, effectiveHistory } from "../phase-machine/cycle-rules.ts";
import { resolvePhase } from "../phase-machine/resolve-phase.ts";
import type { PendingTransition } from "../state/issue-record.ts";
import { emptyRecord, type InFlightDispatch, type IssueKey } from "../state/issue-record.ts";
import { isLockLost, lockLostProblem } from "../state/lock-lost.ts";
import { phaseById, type WorkflowPhase } from "../workflow-model.ts";
import { IssueRun, sleep } from "./issue-run.ts";
import {
  DEFAULT_MAX_INTERRUPTIONS,
  type IssueResult,
  type OrchestratorContext,
} from "./issue-types.ts";
import { stuckTransition } from "./plan-transition.ts";
import { settleRun } from "./settle-run.ts";

export {
  DEFAULT_MAX_INTERRUPTIONS,
  type IssueResult,
  type IssueStatus,
  type OrchestratorContext,
  type ProgressEvent,
} from "./issue-types.ts";

export interface IssuePassOptions {
  /** Plan only: read GitHub and the record, change nothing, run nothing. */
  readonly dryRun?: boolean;
  /**
   * The issue's payload, given by hand (`climpt orchestrate --issue N --payload …`): checked
   * against the workflow's payloadSchema and kept with the issue, as a handoff would keep it.
   */
  readonly payload?: Readonly<Record<string, JsonValue>>;
}

/**
 * Moves one issue through its phases until it reaches a terminal or blocking phase, a cycle rule
 * stops it, or something fails: read its labels, resolve the phase, dispatch the phase's agent,
 * decide the next phase from the run's outcome, apply the transition (comment, one label edit,
 * close), record it, repeat. A pass that crashed is recovered from the issue's record: a decided
 * transition is finished, an unfinished run is resumed from its journal — nothing is dispatched
 * twice. `dryRun` reads and plans, and changes nothing.
 */
export async function orchestrateIssue(
  context: OrchestratorContext,
  issue: number,
  options: IssuePassOptions = {},
): Promise<IssueResult> {
  const { workflow, store } = context;
  const key: IssueKey = { repo: context.repo, issue, workflowId: workflow.id };
  const lock = options.dryRun ? null : await store.lock(key);
  const signal =
    lock === null
      ? context.signal
      : context.signal === undefined
        ? lock.lost
        : AbortSignal.any([context.signal, lock.lost]);
  const run = new IssueRun(context, issue, emptyRecord(key), lock, signal);
  if (!options.dryRun && lock === null) {
    return run.result("locked", null, {
      code: C.stateLocked,
      message: `Issue #${issue} is being worked on by another orchestrator.`,
      hint: "Wait for it, or remove its .lock file if that orchestrator is gone.",
    });
  }
  try {
    return await orchestrateHeldIssue(run, key, options);
  } catch (error) {
    if (isLockLost(error) && lock !== null)
      return run.result("interrupted", run.phase, lockLostProblem(issue, String(lock.lost.reason)));
    throw error;
  } finally {
    await lock?.release();
  }
}

/** `orchestrateIssue` once the issue is locked (or for a dry run). */
async function orchestrateHeldIssue(
  run: IssueRun,
  key: IssueKey,
  options: IssuePassOptions,
): Promise<IssueResult> {
  const { context, issue } = run;
  const { workflow, store, gh } = context;
  try {
    run.record = (await store.read(key)) ?? emptyRecord(key);
  } catch (error) {
    return run.result(
      "error",
      null,
      ClimptError.isInstance(error)
        ? {
            code: error.code,
            ...(error.family === undefined ? {} : { family: error.family }),
            message: error.message,
            ...(error.hint === undefined ? {} : { hint: error.hint }),
          }
        : { code: C.stateUnreadable, message: String(error) },
    );
  }
  if (options.payload !== undefined) {
    const refused = payloadProblem(workflow, options.payload);
    if (refused !== null) return run.result("error", null, refused);
    if (!options.dryRun) await run.save({ ...run.record, payload: options.payload });
    else run.record = { ...run.record, payload: options.payload };
  }
  for (let cycle = 0; ; cycle++) {
    // The pause between two cycles of the issue comes first, so the labels are read after it.
    if (cycle > 0 && workflow.rules.cycleDelayMs > 0) {
      await sleep(workflow.rules.cycleDelayMs, run.signal);
      run.known = null;
    }
    run.checkHeld();
    if (context.signal?.aborted)
      return run.result("interrupted", null, {
        code: C.dispatchInterrupted,
        message: "Stopped before the next cycle.",
      });
    const pending = run.record.inFlight?.transition ?? null;
    if (pending !== null && !options.dryRun) {
      const failed = await run.finish(pending);
      if (failed !== null) return run.result("error", pending.from, failed);
      continue;
    }
    const known = run.known;
    run.known = null;
    const view = known === null ? await gh.viewIssue(issue) : { ok: true as const, value: known };
    if (!view.ok) return run.result("error", null, view.error);
    const resolution = resolvePhase(workflow, view.value.labels);
    if (resolution.kind === "none") return run.result("no_phase", null);
    if (resolution.kind !== "actionable") {
      return run.result(
        resolution.kind === "terminal" ? "completed" : "blocked",
        resolution.phase.id,
      );
    }
    const { phase, agent } = resolution;
    run.agent = agent.id;
    run.phase = phase.id;
    const halted = run.record.halted ?? null;
    if (halted !== null) {
      // Held until a person moves the issue to another phase (the relabel is the go-ahead).
      if (halted.phase === phase.id) return run.result("error", phase.id, halted.error);
      if (!options.dryRun) await run.save({ ...run.record, halted: null });
    }
    const history = effectiveHistory(run.record.history, phase.id);
    if (history !== run.record.history && !options.dryRun)
      await run.save({ ...run.record, history });
    const violation = cycleRuleViolation(workflow.rules, history);
    if (violation !== null) {
      const status =
        violation.code === C.consecutiveLimit ? "phase_repetition_exceeded" : "cycle_exceeded";
      if (options.dryRun) return run.result("dry-run", phase.id, violation);
      const stuck = stuckTransition(workflow, {
        issue,
        phase,
        agent,
        labels: view.value.labels,
        history,
        violation,
      });
      if (stuck === null) return run.result(status, phase.id, violation);
      await run.save({
        ...run.record,
        inFlight: {
          phase: phase.id,
          agent: agent.id,
          startedAt: new Date().toISOString(),
          runId: null,
          journalPath: null,
          worktree: null,
          transition: stuck,
        },
      });
      const failed = await run.finish(stuck);
      return run.result(status, failed === null ? stuck.to : phase.id, failed ?? violation);
    }
    if (options.dryRun) return run.result("dry-run", phase.id);
    let fix: Readonly<Record<string, string>> | null = null;
    if (phase.checks !== null) {
      const place = { issue, phase, checks: phase.checks, agent, labels: view.value.labels };
      const step = await followChecks(run, place);
      if (step.kind === "error") return run.result("error", phase.id, step.error);
      if (step.kind === "wait")
        return run.result("waiting", phase.id, step.error, step.retryAfterMs);
      if (step.kind === "halt") return halt(run, phase, step);
      if (step.kind === "transition") {
        const done = await finishChecks(run, phase, agent.id, step.transition, step.reason);
        if (done !== null) return done;
        run.phase = step.transition.to;
        continue;
      }
      fix = step.args;
    }
    const cap = context.maxInterruptions ?? DEFAULT_MAX_INTERRUPTIONS;
    const previous = run.record.inFlight;
    const interruptedBefore =
      previous !== null &&
      previous.phase === phase.id &&
      previous.agent === agent.id &&
      previous.transition === null
        ? (previous.attempts ?? 1)
        : 0;
    let outcome =
      interruptedBefore >= cap && previous !== null
        ? tooOftenInterrupted(agent.id, previous, cap)
        : await run.dispatch(phase, agent, view.value.title, fix);
    if (outcome.interrupted) {
      return run.result(
        "interrupted",
        phase.id,
        outcome.error ?? {
          code: C.dispatchInterrupted,
          message: "The run stopped before it reached an outcome.",
        },
      );
    }
    if (fix !== null && outcome.success) {
      // The fix's commits go to the pull request (pushed by the host); then the wait starts again.
      const pushed = await landFix(context, { number: issue, title: view.value.title }, outcome, {
        holds: run.holds,
        ...(run.signal === undefined ? {} : { signal: run.signal }),
      });
      if (pushed.ok) {
        if (pushed.value !== null) run.landed.push(pushed.value);
        const wait = run.record.checksWait;
        await run.save({
          ...run.record,
          inFlight: null,
          ...(wait === undefined || wait === null ? {} : { checksWait: { ...wait, fix: null } }),
        });
        continue;
      }
      outcome = { ...outcome, success: false, error: pushed.error };
    }
    const attempt = run.record.inFlight?.startedAt;
    const place = {
      issue,
      title: view.value.title,
      phase,
      agent,
      labels: view.value.labels,
      ...(attempt === undefined ? {} : { attempt: String(Date.parse(attempt)) }),
    };
    const settled = await settleRun(context, place, outcome, {
      holds: run.holds,
      ...(run.signal === undefined ? {} : { signal: run.signal }),
    });
    if (settled.kind === "halt") return halt(run, phase, settled);
    const { transition } = settled;
    const inFlight = run.record.inFlight;
    if (inFlight !== null) await run.save({ ...run.record, inFlight: { ...inFlight, transition } });
    const failed = await run.finish(transition);
    if (failed !== null) return run.result("error", phase.id, failed);
    const target = phaseById(workflow, transition.to);
    if (target?.type === "terminal") return run.result("completed", transition.to);
    if (target?.type === "blocking")
      return run.result("blocked", transition.to, settled.reason ?? undefined);
    run.phase = transition.to;
  }
}

/** The outcome of a run interrupted `cap` times in a row: a failure, which takes the fallback. */
function tooOftenInterrupted(
  agentId: string,
  inFlight: InFlightDispatch,
  cap: number,
): DispatchOutcome {
  const last = inFlight.lastInterruption;
  return {
    success: false,
    verdict: null,
    error: {
      code: C.dispatchInterruptedTooOften,
      message: `The ${agentId} run${inFlight.runId === null ? "" : ` ${inFlight.runId}`} was interrupted ${cap} time(s) in a row without reaching an outcome${last === undefined ? "" : `; the last time: ${formatCode(last)}: ${last.message}`}. It is not resumed again.`,
      hint: "Fix what keeps stopping it (the model API, the machine), then relabel the issue to run it afresh.",
    },
    runId: inFlight.runId,
    journalPath: inFlight.journalPath,
    interrupted: false,
    values: {},
    branch: null,
    output: null,
  };
}

/**
 * Applies a transition a `checks` phase decided without a run (checks passed, or the wait ended):
 * kept in the record first, like a run's, so a crash in between finishes it on the next pass.
 * Null when the issue goes on (an actionable phase); else the pass's result.
 */
async function finishChecks(
  run: IssueRun,
  phase: WorkflowPhase,
  agentId: string,
  transition: PendingTransition,
  reason: OrchestratorError | null,
): Promise<IssueResult | null> {
  await run.save({
    ...run.record,
    inFlight: {
      phase: phase.id,
      agent: agentId,
      startedAt: new Date().toISOString(),
      runId: null,
      journalPath: null,
      worktree: null,
      transition,
    },
  });
  const failed = await run.finish(transition);
  if (failed !== null) return run.result("error", phase.id, failed);
  const target = phaseById(run.context.workflow, transition.to);
  if (target?.type === "terminal") return run.result("completed", transition.to);
  if (target?.type === "blocking") return run.result("blocked", transition.to, reason ?? undefined);
  return null;
}

/** Holds the issue in its phase with a comment (once), for an outcome that has no phase. */
async function halt(
  run: IssueRun,
  phase: WorkflowPhase,
  settled: { readonly error: OrchestratorError; readonly comment: string },
): Promise<IssueResult> {
  run.checkHeld();
  if (await run.holds()) {
    const marker = settled.comment.slice(
      settled.comment.lastIndexOf("climpt-orchestrator:"),
      -"</sub>".length,
    );
    const view = await run.context.gh.viewIssue(run.issue);
    if (view.ok && !view.value.comments.some((comment) => comment.body.includes(marker)))
      await run.context.gh.comment(run.issue, settled.comment);
  }
  await run.save({
    ...run.record,
    inFlight: null,
    halted: { phase: phase.id, error: settled.error, at: new Date().toISOString() },
  });
  return run.result("error", phase.id, settled.error);
}
