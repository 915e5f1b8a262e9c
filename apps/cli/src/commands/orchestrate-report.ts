import { formatCode } from "@climpt/model";
import type {
  BatchResult,
  EnqueueResult,
  FleetStatus,
  LabelSyncEntry,
  Landed,
  OrchestratorError,
  ProgressEvent,
} from "@climpt/orchestrator";

function coded(error: OrchestratorError | undefined): string {
  return error === undefined ? "" : ` — ${formatCode(error)}: ${error.message}`;
}

/** One line per thing that happened to an issue, for stderr. */
export function describeProgress(event: ProgressEvent): string {
  switch (event.kind) {
    case "dispatch":
      return `#${event.issue} ${event.phase}: ${event.resume ? "resuming" : "running"} ${event.agent}`;
    case "run-started":
      return `#${event.issue} run ${event.runId}`;
    case "transition":
      return `#${event.issue} ${event.record.from} → ${event.record.to} (${event.record.agent}: ${event.record.outcome})${event.closed ? ", closed" : ""}`;
    case "stop":
      return `#${event.issue} ${event.status}${event.phase === null ? "" : ` at ${event.phase}`}${coded(event.error)}`;
    case "run-ended":
      return `#${event.issue} ${event.agent} run ${event.runId ?? "-"}: ${event.interrupted ? "interrupted" : event.success ? "completed" : "failed"}${event.verdict === null ? "" : ` (verdict ${event.verdict})`}${coded(event.error)}`;
    case "landed":
      return `#${event.issue} work ${landedWords(event.landed)}`;
    case "handoff":
      return `#${event.issue} handoff ${event.handoff} → ${event.path}`;
  }
}

function landedWords(landed: Landed): string {
  if (landed.pullRequest !== null) return `proposed in ${landed.pullRequest}`;
  if (landed.pushed !== null) return `pushed to ${landed.pushed}`;
  return landed.commits === 0
    ? `already on ${landed.base ?? "the base"}`
    : `merged into ${landed.base ?? "the base"} (${landed.commits} commit(s))`;
}

/** Progress events shown without --verbose: what happens to each issue, not each run's details. */
export function shownWithoutVerbose(event: ProgressEvent): boolean {
  return event.kind !== "run-ended";
}

function table(rows: readonly (readonly string[])[]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export function formatLabelSync(entries: readonly LabelSyncEntry[]): string {
  const changed = entries.filter((entry) => entry.action !== "unchanged");
  const lines = changed.map(
    (entry) => `  ${entry.action.padEnd(9)} ${entry.name}${coded(entry.error)}`,
  );
  return `labels: ${entries.length} (${changed.length} changed)${lines.length === 0 ? "" : `\n${lines.join("\n")}`}\n`;
}

/** The batch summary (stderr), or the plan (stdout) for --dry-run. */
export function formatBatch(result: BatchResult, dryRun: boolean): string {
  if (result.status === "failed") return `The batch could not start${coded(result.error)}\n`;
  const warnings = result.warnings
    .map((warning) => `warning ${warning.code}: ${warning.message}\n`)
    .join("");
  if (dryRun) {
    if (result.plan.length === 0) return `${warnings}No issues match.\n`;
    const rows = [
      ["ISSUE", "PHASE", "AGENT", "NOTE"],
      ...result.plan.map((entry) => [
        `#${entry.issue}`,
        entry.phase ?? "-",
        entry.agent ?? "-",
        [
          entry.note,
          entry.payload === undefined ? null : `payload ${JSON.stringify(entry.payload)}`,
        ]
          .filter((part) => part !== null && part !== "")
          .join("; "),
      ]),
    ];
    return `${warnings}${table(rows)}\n`;
  }
  const rows = [
    ["ISSUE", "STATUS", "PHASE", "TRANSITIONS", "CLOSED"],
    ...result.issues.map((issue) => [
      `#${issue.issue}`,
      issue.status,
      issue.phase ?? "-",
      String(issue.transitions.length),
      issue.closed ? "yes" : "",
    ]),
  ];
  const errors = result.issues
    .filter(
      (issue) =>
        issue.error !== undefined &&
        ["error", "interrupted", "locked", "waiting"].includes(issue.status),
    )
    .map(
      (issue) =>
        `#${issue.issue}${coded(issue.error)}${issue.error?.hint === undefined ? "" : ` Fix: ${issue.error.hint}`}\n`,
    )
    .join("");
  return `${warnings}${table(rows)}\n${errors}${result.status === "completed" ? "" : "Some issues did not finish cleanly; run again to resume them.\n"}`;
}

export function formatEnqueue(result: EnqueueResult, dryRun: boolean): string {
  if (result.status === "failed") return `Nothing was enqueued${coded(result.error)}\n`;
  const rows = [
    ["JOB", "PHASE", dryRun ? "WOULD BE" : "ACTION"],
    ...result.jobs.map((job) => [job.id, job.phase ?? "-", job.action]),
  ];
  const added = result.jobs.filter(
    (job) => job.action === "added" || job.action === "re-added",
  ).length;
  return `${table(rows)}\n${dryRun ? "Dry run: nothing was enqueued." : `${added} job(s) enqueued; start workers with climpt worker --queue …`}\n`;
}

export function formatFleet(status: FleetStatus): string {
  const counts = Object.entries(status.counts)
    .map(([state, count]) => `${state} ${count}`)
    .join(", ");
  const rows = [
    ["JOB", "STATE", "PHASE", "WORKER", "RESULT"],
    ...status.jobs.map((job) => [
      job.id,
      job.state,
      job.phase ?? "-",
      job.worker ?? "-",
      job.status ?? job.failedReason ?? "",
    ]),
  ];
  const limiter = `model requests: ${status.limiter.active} in flight, limit ${status.limiter.limit}, throttled ${status.limiter.throttled} time(s), paused ${status.limiter.pausedMs} ms`;
  return `${counts}\n${status.jobs.length === 0 ? "No jobs." : table(rows)}\n${limiter}\n`;
}
