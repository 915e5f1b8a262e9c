import { ClimptError } from "@climpt/model";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type {
  Dispatcher,
  DispatchOutcome,
  DispatchRequest,
  StartedRun,
} from "../dispatch/dispatcher.ts";
import type { GhClient, GhIssue } from "../github/gh-client.ts";
import {
  cycleRuleViolation,
  effectiveHistory,
  type TransitionRecord,
} from "../phase-machine/cycle-rules.ts";
import { decideTransition } from "../phase-machine/decide-transition.ts";
import { resolvePhase } from "../phase-machine/resolve-phase.ts";
import {
  emptyRecord,
  type InFlightDispatch,
  type IssueKey,
  type IssueLock,
  type IssueRecord,
  type IssueStateStore,
  type PendingTransition,
} from "../state/issue-record.ts";
import { isLockLost, lockLostError, lockLostProblem } from "../state/lock-lost.ts";
import type { Workflow, WorkflowAgent, WorkflowPhase } from "../workflow-model.ts";
import { applyTransition } from "./apply-transition.ts";
import { handoffTransition, stuckTransition } from "./plan-transition.ts";

export type IssueStatus =
  /** A terminal phase. */
  | "completed"
  /** A blocking phase: a person must act. */
  | "blocked"
  /** Stopped by rules.maxCycles (and moved to the blocking phase). */
  | "cycle_exceeded"
  /** Stopped by rules.maxConsecutivePhases (and moved to the blocking phase). */
  | "phase_repetition_exceeded"
  /** None of its labels is a phase label of the workflow. */
  | "no_phase"
  /** A run that did not reach an outcome (stopped, the model API failing): resumed next pass. */
  | "interrupted"
  /** Another orchestrator holds the issue. */
  | "locked"
  /** gh or the state store failed; the issue keeps its phase. */
  | "error"
  /** `--dry-run`: what would run. */
  | "dry-run";

export interface IssueResult {
  readonly issue: number;
  readonly status: IssueStatus;
  /** The phase the issue is in at the end (null: none). */
  readonly phase: string | null;
  /** The agent that would run (`dry-run`), or that ran last. */
  readonly agent: string | null;
  readonly closed: boolean;
  /** Transitions made in this pass. */
  readonly transitions: readonly TransitionRecord[];
  /** Runs dispatched or resumed in this pass. */
  readonly runs: readonly string[];
  /** Runs this pass resumed from a journal instead of starting. */
  readonly resumed: readonly string[];
  readonly error?: OrchestratorError;
}

export type ProgressEvent =
  | {
      readonly kind: "dispatch";
      readonly issue: number;
      readonly phase: string;
      readonly agent: string;
      readonly resume: boolean;
    }
  | { readonly kind: "run-started"; readonly issue: number; readonly runId: string }
  | {
      readonly kind: "transition";
      readonly issue: number;
      readonly record: TransitionRecord;
      readonly closed: boolean;
    }
  | {
      readonly kind: "stop";
      readonly issue: number;
      readonly status: IssueStatus;
      readonly phase: string | null;
      readonly error?: OrchestratorError;
    };

export interface OrchestratorContext {
  readonly workflow: Workflow;
  readonly gh: GhClient;
  readonly dispatcher: Dispatcher;
  readonly store: IssueStateStore;
  /** Names the repository in issue records and job ids (`owner/name`, or the checkout path). */
  readonly repo: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

class IssueRun {
  record: IssueRecord;
  readonly transitions: TransitionRecord[] = [];
  readonly runs: string[] = [];
  readonly resumed: string[] = [];
  closed = false;
  agent: string | null = null;
  /**
   * The issue as the transition just applied left it, read by the next cycle instead of asking
   * gh again (it was read a moment ago, right before the change).
   */
  known: GhIssue | null = null;
  #writes: Promise<void> = Promise.resolve();

  /** The phase the issue is in, as far as this pass knows. */
  phase: string | null = null;

  constructor(
    readonly context: OrchestratorContext,
    readonly issue: number,
    record: IssueRecord,
    /** The issue's lock (null: a dry run). Every write below is made only while it is held. */
    readonly lock: IssueLock | null,
    /** The context's signal and the lock's `lost`: either stops the pass and its run. */
    readonly signal: AbortSignal | undefined,
  ) {
    this.record = record;
  }

  /** Throws `ORC-STATE-003` once the lock is known lost: nothing more is done for the issue. */
  checkHeld(): void {
    if (this.lock?.lost.aborted) throw lockLostError(this.issue, String(this.lock.lost.reason));
  }

  /**
   * Writes the record, fenced by the lock (a store with leases refuses the write of a holder
   * that lost it); writes are kept in order (one from a run-start callback may be pending).
   */
  save(record: IssueRecord): Promise<void> {
    this.record = record;
    const write = this.#writes.then(() => this.context.store.write(record, this.lock ?? undefined));
    this.#writes = write.catch(() => undefined);
    return write;
  }

  /** Whether the lock is still held, checked with the store right before a write elsewhere. */
  readonly holds = async (): Promise<boolean> => this.lock === null || this.lock.confirm();

  result(status: IssueStatus, phase: string | null, error?: OrchestratorError): IssueResult {
    this.context.onProgress?.({
      kind: "stop",
      issue: this.issue,
      status,
      phase,
      ...(error === undefined ? {} : { error }),
    });
    return {
      issue: this.issue,
      status,
      phase,
      agent: this.agent,
      closed: this.closed,
      transitions: this.transitions,
      runs: this.runs,
      resumed: this.resumed,
      ...(error === undefined ? {} : { error }),
    };
  }

  /** Applies a pending transition and records it; an error leaves it pending for the next pass. */
  async finish(transition: PendingTransition): Promise<OrchestratorError | null> {
    this.checkHeld();
    const applied = await applyTransition(this.context.gh, this.issue, transition, this.holds);
    if (!applied.ok) {
      if (applied.error.code === C.stateLockLost)
        throw lockLostError(this.issue, "before a change on GitHub");
      return applied.error;
    }
    const record: TransitionRecord = {
      from: transition.from,
      to: transition.to,
      agent: transition.agent,
      outcome: transition.outcome,
      runId: transition.runId,
      at: new Date().toISOString(),
    };
    this.closed ||= applied.value.closed;
    this.known = applied.value.issue;
    this.transitions.push(record);
    await this.save({ ...this.record, history: [...this.record.history, record], inFlight: null });
    this.context.onProgress?.({
      kind: "transition",
      issue: this.issue,
      record,
      closed: applied.value.closed,
    });
    return null;
  }

  async dispatch(
    phase: WorkflowPhase,
    agent: WorkflowAgent,
    title: string,
  ): Promise<DispatchOutcome> {
    const previous = this.record.inFlight;
    const resume = previous !== null && previous.phase === phase.id && previous.agent === agent.id;
    let inFlight: InFlightDispatch = resume
      ? previous
      : {
          phase: phase.id,
          agent: agent.id,
          startedAt: new Date().toISOString(),
          runId: null,
          journalPath: null,
          worktree: null,
          transition: null,
        };
    await this.save({ ...this.record, inFlight });
    this.context.onProgress?.({
      kind: "dispatch",
      issue: this.issue,
      phase: phase.id,
      agent: agent.id,
      resume,
    });
    const outcome = await this.#dispatchSafely({
      issue: { repo: this.context.repo, number: this.issue, title },
      phase: phase.id,
      agent,
      ...(resume ? { resume: { runId: inFlight.runId, startedAt: inFlight.startedAt } } : {}),
      onRunStarted: (run: StartedRun) => {
        inFlight = {
          ...inFlight,
          runId: run.runId,
          journalPath: run.journalPath,
          worktree: run.worktree,
        };
        void this.save({ ...this.record, inFlight }).catch(() => undefined);
        this.context.onProgress?.({ kind: "run-started", issue: this.issue, runId: run.runId });
      },
      holds: this.holds,
      ...(this.signal === undefined ? {} : { signal: this.signal }),
    });
    if (outcome.runId !== null) {
      this.runs.push(outcome.runId);
      if (resume && (inFlight.runId === null || inFlight.runId === outcome.runId))
        this.resumed.push(outcome.runId);
    }
    // A run stopped because the lock was lost: its journal is left as it is (resumable by the
    // new holder), and not even the run id goes into the record.
    this.checkHeld();
    if (outcome.runId !== null && inFlight.runId !== outcome.runId) {
      inFlight = { ...inFlight, runId: outcome.runId, journalPath: outcome.journalPath };
      await this.save({ ...this.record, inFlight });
    }
    return outcome;
  }

  /**
   * A dispatcher that throws (a bug, an I/O error) must not take the batch down: the issue keeps
   * its phase and its in-flight record, and the next pass resumes the run from its journal.
   */
  async #dispatchSafely(request: DispatchRequest): Promise<DispatchOutcome> {
    try {
      return await this.context.dispatcher.dispatch(request);
    } catch (error) {
      return {
        success: false,
        verdict: null,
        error: {
          code: C.dispatchRefused,
          message: `Dispatching ${request.agent.id} for issue #${this.issue} failed: ${error instanceof Error ? error.message : String(error)}`,
          hint: "The issue keeps its phase; the next pass resumes the run if it started.",
        },
        runId: null,
        journalPath: null,
        interrupted: true,
        values: {},
        branch: null,
      };
    }
  }
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
  options: { readonly dryRun?: boolean } = {},
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
  options: { readonly dryRun?: boolean },
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
    const outcome = await run.dispatch(phase, agent, view.value.title);
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
    const decision = decideTransition(workflow, agent, outcome);
    if (decision.target === null) {
      return run.result("error", phase.id, {
        code: C.refNoFallback,
        message: `Agent "${agent.id}" ended with outcome "${decision.outcome}" and the workflow has no phase for it.`,
        hint: "Give the agent a fallbackPhase, or add a blocking phase.",
      });
    }
    const transition = handoffTransition(workflow, {
      issue,
      phase,
      agent,
      labels: view.value.labels,
      outcome,
      decision,
    });
    const inFlight = run.record.inFlight;
    if (inFlight !== null) await run.save({ ...run.record, inFlight: { ...inFlight, transition } });
    const failed = await run.finish(transition);
    if (failed !== null) return run.result("error", phase.id, failed);
    const target = decision.target;
    if (target.type === "terminal") return run.result("completed", target.id);
    if (target.type === "blocking")
      return run.result("blocked", target.id, decision.reason ?? undefined);
    run.phase = target.id;
  }
}
