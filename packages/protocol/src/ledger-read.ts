import type { LedgerAttempt } from "./ledger.ts";
import type { RunEvent } from "./run-event.ts";

/** The ledger of a journal: its `ledger` events in order (empty for journals from before it). */
export function ledgerOf(events: readonly RunEvent[]): LedgerAttempt[] {
  const attempts: LedgerAttempt[] = [];
  for (const event of events) {
    if (event.type !== "ledger") continue;
    const { type: _type, runId: _runId, seq: _seq, ...attempt } = event;
    attempts.push(attempt);
  }
  return attempts;
}

/** The last attempt whose validators all passed: what a completed run's verdict rests on. */
export function lastPassingAttempt(ledger: readonly LedgerAttempt[]): LedgerAttempt | undefined {
  return ledger.findLast((attempt) => attempt.passed);
}
