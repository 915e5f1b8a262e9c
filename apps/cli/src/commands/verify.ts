import type { Problem } from "@climpt/model";
import type { RunEvent, VerifyReport } from "@climpt/runner";
import type { FlagSpec } from "../args/flag-spec.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { problemsFromError } from "../locate-agent.ts";
import { formatDuration } from "../progress/format.ts";
import { runnerModule } from "../runner-module.ts";
import type { Command } from "./command.ts";
import {
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  writeJson,
} from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";
import { findRunJournal } from "./find-run.ts";
import { formatTable } from "./runs.ts";

const AT_FLAG: FlagSpec = {
  name: "at",
  kind: "string",
  key: "at",
  valueName: "SHA",
  description: "The commit to re-check (default: the one the ledger recorded).",
};

/** The report for people: one row per validator, then whether it holds, and why not. */
function reportLines(report: VerifyReport): string[] {
  const lines = [
    `Run ${report.runId}: ${report.attempt.stepId} attempt ${report.attempt.attempt} passed on ${report.recordedSha.slice(0, 12)} at ${report.attempt.time}.`,
    `Re-ran its validators on ${report.sha.slice(0, 12)} in a scratch worktree:`,
    formatTable(
      report.validators.map((item) => [
        `  ${item.holds ? "✓" : "✗"} ${item.validator}`,
        item.holds ? "holds" : "does not hold",
        item.now.timedOut ? "timed out" : `exit ${item.now.exitCode ?? "none"}`,
        formatDuration(item.now.durationMs),
        item.command,
      ]),
    ),
  ];
  for (const item of report.validators) {
    if (item.now.command !== undefined) {
      lines.push(
        `  ${item.validator}: the agent now runs \`${item.now.command}\`, not the recorded command.`,
      );
    }
    if (!item.holds && item.now.outputTail !== "") {
      lines.push(
        `  ${item.validator} output (last lines):`,
        ...item.now.outputTail.split("\n").map((line) => `    ${line}`),
      );
    }
  }
  if (report.stale) {
    const moved = report.branchHeads
      .filter((head) => head.sha !== report.sha)
      .map((head) => `${head.ref} is at ${head.sha.slice(0, 12)}`);
    lines.push(
      `stale: the run's branch ${report.branch} moved past ${report.sha.slice(0, 12)} (${moved.join(", ")}); the verdict does not speak for its head.`,
    );
  }
  for (const mark of report.marked) {
    lines.push(
      mark.error === undefined
        ? `  marked climpt/verified failure on ${mark.sha.slice(0, 12)}: ${mark.description}`
        : `  could not mark climpt/verified on ${mark.sha.slice(0, 12)}: ${mark.error}`,
    );
  }
  if (!report.holds && report.markSkipped !== undefined) {
    lines.push(`  No commit status was marked: ${report.markSkipped}`);
  }
  lines.push(report.holds ? "The ledger holds." : "The ledger does not hold.");
  return lines;
}

export const verifyCommand: Command = {
  name: "verify",
  summary: "Re-run a run's recorded validators on its commit and say whether they still hold.",
  usage: ["climpt verify <run-id> [--at SHA] [--agent-dir DIR] [--cwd DIR] [--json]"],
  flags: [AT_FLAG, JSON_FLAG, AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG],
  details: [
    "The run is found as `climpt runs` finds it. Its completion ledger names the last validation attempt that passed and the commit it ran on; verify checks that commit (or --at SHA) out in a scratch worktree of the run's repository, runs the same validators there in the OS sandbox the run's validators ran in, and prints per validator whether the result still holds. When the run's branch (local or remote-tracking) has moved past that commit, it says the ledger is stale.",
    "When it does not hold, verify marks the `climpt/verified` commit status failure through `gh api` (the run's GitHub repository: GH_REPO, or what gh reads from the remotes): on every head the branch moved to when stale, else on the verified commit.",
    'Exit 0 when every validator holds and the branch has not moved; 1 otherwise. --json prints {"report": …} (per validator: recorded, now, holds; stale, branchHeads) or {"problems": […]}.',
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["run-id"] });
    if (!outcome.ok) return outcome.exitCode;
    const json = outcome.parsed.values.get("json") === true;
    const at = outcome.parsed.values.get("at");
    const runId = outcome.parsed.positionals[0] as string;
    const location = resolveLocation(outcome.parsed.values, io);
    const found = await findRunJournal(runId, location);
    if (!found.ok) return reportUsageProblems(io, this, found.issues, json);
    const { inspectJournal, verifyRun } = await runnerModule();
    let report: VerifyReport;
    try {
      const { events }: { events: RunEvent[] } = inspectJournal(found.value.file);
      report = await verifyRun({ events, ...(typeof at === "string" ? { at } : {}) });
    } catch (error) {
      const problems: Problem[] = problemsFromError(error);
      if (json) {
        writeJson(io, { problems });
      } else {
        for (const found of problems) {
          io.stderr.write(
            `${found.code}: ${found.message}${found.hint === undefined ? "" : `\n  Fix: ${found.hint}`}\n`,
          );
        }
      }
      return EXIT.runFailed;
    }
    if (json) writeJson(io, { report });
    else io.stdout.write(`${reportLines(report).join("\n")}\n`);
    return report.holds ? EXIT.ok : EXIT.runFailed;
  },
};
