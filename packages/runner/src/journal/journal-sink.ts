import type { RunEvent } from "../run-event.ts";

/**
 * Where a run appends its events. `append` must not lose an event once the run moves on past a
 * durability point; `flush` is that point: the runner awaits it before the boundary hook acts
 * (a crash after it must leave `boundary_hook_start` behind, so resume refuses to act twice) and
 * before it returns the result. A writer that makes each line durable as it appends (the file
 * writer with fsync) has nothing left to do there; a batching writer commits its batch.
 */
export interface JournalSink {
  append(event: RunEvent): void;
  flush(): Promise<void>;
  close(): void;
}
