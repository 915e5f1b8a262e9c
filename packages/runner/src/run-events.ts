import { NO_SECRETS, type SecretScrubber } from "@climpt/model";
import { type LedgerAttempt, ledgerOf } from "@climpt/protocol";
import type { JournalSink } from "./journal/journal-sink.ts";
import type { RunTelemetry } from "./run/telemetry.ts";
import type { RunEvent, RunEventInput } from "./run-event.ts";
import type { BoundaryReport } from "./run-result.ts";

/**
 * The events resume reads back (docs/design.md#the-journal-and-resume): the run's start, the
 * step ends it folds, the replies and tool results it serves again, the phase they belong to,
 * the boundary hook it must never repeat, and the run's end. The others (a request about to be
 * sent, the prompt text, the gate's reading, a route) are written in order too but never wait
 * for the disk: losing them loses nothing resume needs.
 */
const RESUME_READS: ReadonlySet<RunEvent["type"]> = new Set<RunEvent["type"]>([
  "run_start",
  "run_resume",
  "step_start",
  "model_response",
  "tool_result",
  "step_end",
  "boundary_hook_start",
  "boundary_hook",
  "run_end",
]);

/** Events the run's result is built from: recorded even when nothing reads the events. */
const IN_RESULT: ReadonlySet<RunEvent["type"]> = new Set<RunEvent["type"]>([
  "boundary_hook",
  "ledger",
]);

/**
 * The run's one event stream: stamps each event with the run id, the time and its position,
 * appends it to the journal, feeds telemetry and the listeners. It also remembers what the run
 * has recorded of its boundary hook, which decides `resumable` and `boundary` in the result the
 * same way resume reads them from the journal.
 */
export class RunEventStream {
  private seq: number;
  private hookStarted = false;
  private worked = false;
  private hookReport: BoundaryReport | undefined;
  private readonly attempts: LedgerAttempt[] = [];
  /** The `seq` of the last event resume reads, and the `seq` through which all is on disk. */
  private lastNeeded = 0;
  private durableThrough: number;

  constructor(
    private readonly runId: string,
    private readonly journal: JournalSink | null,
    private readonly telemetry: RunTelemetry,
    private readonly listeners: ReadonlySet<(event: RunEvent) => void>,
    /** The last `seq` the journal holds (a resumed run continues the numbering). */
    lastSeq = 0,
    /**
     * Secrets replaced in every event before it is written or shown: the one place the journal,
     * the listeners (`--jsonl`, the display) and telemetry are protected.
     */
    readonly scrubber: SecretScrubber = NO_SECRETS,
  ) {
    this.seq = lastSeq;
    this.durableThrough = lastSeq;
  }

  /**
   * Whether anything reads the events: the journal, a listener (one may be added while the run
   * goes on) or telemetry with an SDK registered.
   */
  get observed(): boolean {
    return this.journal !== null || this.listeners.size > 0 || this.telemetry.active;
  }

  emit(input: RunEventInput): void {
    this.seq += 1;
    // Nobody reads the event: stamping (the clock, the copy) and scrubbing it would build an
    // object no one sees. The run's own bookkeeping below still sees every event; the boundary
    // hook's report and the ledger go into the result, so they take the full path (scrubbed).
    if (!IN_RESULT.has(input.type) && !this.observed) {
      this.note(input.type);
      return;
    }
    const event: RunEvent = this.scrubber.scrubJson({
      ...input,
      runId: this.runId,
      time: new Date().toISOString(),
      seq: this.seq,
    } as RunEvent);
    this.note(event.type);
    if (event.type === "boundary_hook") {
      this.hookReport = { ok: event.ok, actions: event.actions, problems: event.problems ?? [] };
    }
    if (event.type === "ledger") this.attempts.push(...ledgerOf([event]));
    this.journal?.append(event);
    if (event.type === "step_end" && this.journal !== null) {
      // Start the step end's flush now, so it overlaps the next step's preparation (prompt,
      // toolbox); `durable()` before the model call then waits for what is left of it. A failed
      // flush is reported by that `durable()`, which flushes again.
      this.journal.flush().catch(() => undefined);
    }
    this.telemetry.handle(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (a display) must not break the run or its journal.
      }
    }
  }

  /**
   * `emit(build())`, where the event is built only for a reader: for an event whose record
   * costs work of its own (a step end's journal form). Nobody reading, it is numbered and noted
   * like any other.
   */
  emitBuilt<T extends RunEventInput["type"]>(
    type: T,
    build: () => Extract<RunEventInput, { type: T }>,
  ): void {
    if (IN_RESULT.has(type) || this.observed) {
      this.emit(build());
      return;
    }
    this.seq += 1;
    this.note(type);
  }

  /** What the stream remembers of an event of `type` (`seq` is already its number). */
  private note(type: RunEvent["type"]): void {
    if (type === "boundary_hook_start") this.hookStarted = true;
    if (type === "model_request" || type === "program") this.worked = true;
    if (RESUME_READS.has(type)) this.lastNeeded = this.seq;
  }

  /**
   * The group-commit point: resolves once every event resume reads, of those emitted so far,
   * is on disk (one flush of the journal covers all of them). The run awaits it before it acts
   * on what it journaled: before a model call (the step end and the replies before it), before
   * a tool runs (the reply that asked for it), before the completion chain's commands. When
   * nothing resume reads was emitted since the last flush it resolves without touching the
   * disk, so a step costs one flush, not one per event.
   */
  async durable(): Promise<void> {
    if (this.journal === null || this.durableThrough >= this.lastNeeded) return;
    const through = this.seq;
    await this.journal.flush();
    this.durableThrough = Math.max(this.durableThrough, through);
  }

  /** Every event so far is durable in the journal: before the boundary hook acts, at the end. */
  async flush(): Promise<void> {
    if (this.journal === null) return;
    const through = this.seq;
    await this.journal.flush();
    this.durableThrough = Math.max(this.durableThrough, through);
  }

  close(): void {
    this.journal?.close();
  }

  /** The run journaled `boundary_hook_start`: resume would refuse it from now on. */
  get boundaryHookStarted(): boolean {
    return this.hookStarted;
  }

  /**
   * The run asked the model or ran a program (in this session): something may have changed in
   * its working directory, so a failed worktree run keeps its worktree.
   */
  get workStarted(): boolean {
    return this.worked;
  }

  /** The completion ledger: the attempts a resumed run's journal held, then this session's. */
  get ledger(): readonly LedgerAttempt[] {
    return this.attempts;
  }

  /** A resumed run's ledger so far, read from its journal before this session adds to it. */
  restoreLedger(attempts: readonly LedgerAttempt[]): void {
    this.attempts.unshift(...attempts);
  }

  /** What the boundary hook did, once it reported. */
  get boundaryReport(): BoundaryReport | undefined {
    return this.hookReport;
  }
}
