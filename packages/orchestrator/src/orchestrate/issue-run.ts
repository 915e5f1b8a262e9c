import type { JsonValue } from "@climpt/model";
import type { OrchestratorError } from "../codes.ts";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import type {
  DispatchOutcome,
  DispatchRequest,
  IssueArtifact,
  Landed,
  StartedRun,
} from "../dispatch/dispatcher.ts";
import type { GhIssue } from "../github/gh-client.ts";
import type { TransitionRecord } from "../phase-machine/cycle-rules.ts";
import type {
  InFlightDispatch,
  IssueLock,
  IssueRecord,
  PendingTransition,
} from "../state/issue-record.ts";
import { lockLostError } from "../state/lock-lost.ts";
import type { WorkflowAgent, WorkflowPhase } from "../workflow-model.ts";
import { applyTransition } from "./apply-transition.ts";
import type { IssueResult, IssueStatus, OrchestratorContext } from "./issue-types.ts";

/** The artifacts after an emission: a new one replaces an older one at the same path. */
function mergeArtifacts(
  kept: readonly IssueArtifact[],
  added: readonly IssueArtifact[],
): IssueArtifact[] {
  const paths = new Set(added.map((artifact) => artifact.path));
  return [...kept.filter((artifact) => !paths.has(artifact.path)), ...added];
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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

/** One pass over one issue: its record, what the pass did, and the writes it makes (all fenced by the lock). */
export class IssueRun {
  record: IssueRecord;
  readonly transitions: TransitionRecord[] = [];
  readonly runs: string[] = [];
  readonly resumed: string[] = [];
  readonly landed: Landed[] = [];
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

  result(
    status: IssueStatus,
    phase: string | null,
    error?: OrchestratorError,
    retryAfterMs?: number,
  ): IssueResult {
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
      ...(this.record.payload === undefined || this.record.payload === null
        ? {}
        : { payload: this.record.payload }),
      ...(this.landed.length === 0 ? {} : { landed: this.landed }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
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
    if (transition.landed !== undefined) this.landed.push(transition.landed);
    await this.save({
      ...this.record,
      history: [...this.record.history, record],
      inFlight: null,
      halted: null,
      // The issue left the phase: a wait on its checks there is over.
      checksWait: null,
      ...(transition.payload === undefined ? {} : { payload: transition.payload }),
      ...(transition.artifacts === undefined
        ? {}
        : { artifacts: mergeArtifacts(this.record.artifacts ?? [], transition.artifacts) }),
    });
    this.context.onProgress?.({
      kind: "transition",
      issue: this.issue,
      record,
      closed: applied.value.closed,
    });
    return null;
  }

  /**
   * Runs (or resumes) the phase's agent. `extra`: arguments beside the issue's payload (a checks
   * phase's fix agent gets `failedChecks`, `checkLogs`, `pullRequest`), passed like payload keys:
   * only those the agent declares.
   */
  async dispatch(
    phase: WorkflowPhase,
    agent: WorkflowAgent,
    title: string,
    extra: Readonly<Record<string, JsonValue>> | null = null,
  ): Promise<DispatchOutcome> {
    const previous = this.record.inFlight;
    const resume = previous !== null && previous.phase === phase.id && previous.agent === agent.id;
    let inFlight: InFlightDispatch = resume
      ? { ...previous, attempts: (previous.attempts ?? 1) + 1 }
      : {
          phase: phase.id,
          agent: agent.id,
          startedAt: new Date().toISOString(),
          runId: null,
          journalPath: null,
          worktree: null,
          transition: null,
          attempts: 1,
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
      payload:
        extra === null
          ? (this.record.payload ?? null)
          : { ...(this.record.payload ?? {}), ...extra },
      artifacts: this.record.artifacts ?? [],
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
    if (outcome.interrupted && outcome.error !== null) {
      inFlight = { ...inFlight, lastInterruption: outcome.error };
      await this.save({ ...this.record, inFlight });
    }
    this.context.onProgress?.({
      kind: "run-ended",
      issue: this.issue,
      agent: agent.id,
      runId: outcome.runId,
      success: outcome.success,
      interrupted: outcome.interrupted,
      verdict: outcome.verdict,
      ...(outcome.error === null ? {} : { error: outcome.error }),
    });
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
        output: null,
      };
    }
  }
}
