import type { LedgerAttempt, LedgerEntry } from "@climpt/protocol";
import { formatDuration, oneLine } from "../progress/format.ts";
import { formatTable } from "./runs.ts";

/** `changedFiles: src/a.js, src/b.js`: the findings of one validator worth a glance. */
function findings(entry: LedgerEntry): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(entry.extracted)) {
    if (Array.isArray(value) && value.length > 0) {
      parts.push(
        `${name}: ${value.map((item) => oneLine(String(typeof item === "object" ? JSON.stringify(item) : item), 60)).join(", ")}`,
      );
    }
  }
  if (entry.baseline?.status === "compared") {
    parts.push(
      `baseline: ${entry.baseline.introduced.length} introduced, ${entry.baseline.preExisting.length} pre-existing`,
    );
  }
  return oneLine(parts.join("; "), 140);
}

/** `at 1a2b3c4 on main (clean)`, or why no commit was read. */
export function commitLabel(attempt: LedgerAttempt): string {
  const commit = attempt.commit;
  if (commit === null) return `no commit (${attempt.commitError ?? "not a git repository"})`;
  const branch = commit.branch === null ? "detached HEAD" : commit.branch;
  return `at ${commit.sha.slice(0, 12)} on ${branch} (${commit.clean ? "clean" : "uncommitted changes"})`;
}

/**
 * The completion ledger as `climpt show` prints it: one block per validation attempt, one row
 * per validator (result, exit, duration, command, what its extractors found), then the command
 * that re-checks the last passing attempt.
 */
export function ledgerLines(ledger: readonly LedgerAttempt[], runId: string): string[] {
  if (ledger.length === 0) return [];
  const lines = ["", "Completion ledger:"];
  for (const attempt of ledger) {
    lines.push(
      `  ${attempt.stepId} attempt ${attempt.attempt} ${commitLabel(attempt)}: ${attempt.passed ? "passed" : "refused"}`,
    );
    const rows = attempt.entries.map((entry) => [
      `    ${entry.passed ? "✓" : "✗"} ${entry.validator}`,
      entry.timedOut ? "timed out" : `exit ${entry.exitCode ?? "none"}`,
      formatDuration(entry.durationMs),
      oneLine(entry.command, 60),
      findings(entry),
    ]);
    lines.push(formatTable(rows));
  }
  if (ledger.some((attempt) => attempt.passed && attempt.commit !== null)) {
    lines.push(`  Re-check it: climpt verify ${runId}`);
  }
  return lines;
}
