import type { JournalSink } from "./journal-store.ts";
import type { RunEvent, RunEventInput } from "./run-event.ts";
import type { BoundaryReport } from "./run-result.ts";
import type { RunTelemetry } from "./telemetry.ts";

/**
 * The run's one event stream: stamps each event with the run id, the time and its position,
 * appends it to the journal, feeds telemetry and the listeners. It also remembers what the run
 * has recorded of its boundary hook, which decides `resumable` and `boundary` in the result the
 * same way resume reads them from the journal.
 */
export class RunEventStream {
  private seq: number;
  private hookStarted = false;
  private hookReport: BoundaryReport | undefined;

  constructor(
    private readonly runId: string,
    private readonly journal: JournalSink | null,
    private readonly telemetry: RunTelemetry,
    private readonly listeners: ReadonlySet<(event: RunEvent) => void>,
    /** The last `seq` the journal holds (a resumed run continues the numbering). */
    lastSeq = 0,
  ) {
    this.seq = lastSeq;
  }

  emit(input: RunEventInput): void {
    this.seq += 1;
    const event: RunEvent = {
      ...input,
      runId: this.runId,
      time: new Date().toISOString(),
      seq: this.seq,
    };
    if (event.type === "boundary_hook_start") this.hookStarted = true;
    if (event.type === "boundary_hook") {
      this.hookReport = { ok: event.ok, actions: event.actions, problems: event.problems ?? [] };
    }
    this.journal?.append(event);
    this.telemetry.handle(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (a display) must not break the run or its journal.
      }
    }
  }

  /** Every event so far is durable in the journal. */
  async flush(): Promise<void> {
    await this.journal?.flush();
  }

  close(): void {
    this.journal?.close();
  }

  /** The run journaled `boundary_hook_start`: resume would refuse it from now on. */
  get boundaryHookStarted(): boolean {
    return this.hookStarted;
  }

  /** What the boundary hook did, once it reported. */
  get boundaryReport(): BoundaryReport | undefined {
    return this.hookReport;
  }
}
