import type { Problem } from "@climpt/model";
import { type RunSummary, summarizeRun } from "@climpt/protocol";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { problemsFromError } from "../locate-agent.ts";
import { formatDuration, formatInteger, formatUsd } from "../progress/format.ts";
import { formatProblemsByFile, problemJson } from "../report-problems.ts";
import { runnerModule } from "../runner-module.ts";
import type { Command } from "./command.ts";
import {
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  writeJson,
} from "./command-line.ts";
import { AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";
import { journaledAgents, journalFiles } from "./find-run.ts";

/** A table with left-aligned columns and a header row. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, index) => cell.padEnd(widths[index] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** `2026-11-24 08:30:12` from an ISO time, in UTC so the listing reads the same everywhere. */
export function formatStart(iso: string): string {
  return iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
}

export function statusLabel(run: RunSummary): string {
  return run.error === null || run.status === "completed"
    ? run.status
    : `${run.status} (${run.error})`;
}

/** Where a fork started: `<run id> [<iteration>] <step>`; empty for a run that is no fork. */
export function forkOrigin(run: RunSummary): string {
  const origin = run.forkedFrom;
  return origin === null ? "" : `${origin.runId} [${origin.iteration}] ${origin.stepId}`;
}

export const runsCommand: Command = {
  name: "runs",
  summary: "List the runs started here: id, agent, status, steps, tokens, cost, start, duration.",
  usage: ["climpt runs [--agent-dir DIR] [--cwd DIR] [--json]"],
  flags: [JSON_FLAG, AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG],
  details: [
    "Reads the journals of the agents under <cwd>/.agent/ (their logging.directory, relative to --cwd), newest run last. STATUS is completed, failed, interrupted (stopped by a signal or the wall-clock budget) or unfinished (no end in the journal: still running, or killed). `climpt show RUN_ID` prints one run's history; `climpt resume RUN_ID` continues one that did not complete. A FORKED FROM column appears when a run is a fork (`climpt fork`): the run, iteration and step it started from.",
    '--json prints {"runs": [{runId, agent, status, error, errorFamily, steps, tokens, costUsd, startedAt, durationMs, resumable, resumes, forkedFrom, journalPath}], "problems": [a warning per journal line left out (RUN-JOURNAL-002, RUN-JOURNAL-004)]}.',
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: [] });
    if (!outcome.ok) return outcome.exitCode;
    const json = outcome.parsed.values.get("json") === true;
    const location = resolveLocation(outcome.parsed.values, io);
    const { inspectJournal } = await runnerModule();
    const runs: RunSummary[] = [];
    const warnings: Problem[] = [];
    try {
      for (const agent of await journaledAgents(location)) {
        for (const file of journalFiles(agent.dir)) {
          // A line that is not an event is left out of the summary and reported beside it.
          const { events, problems } = inspectJournal(file);
          for (const problem of problems) warnings.push({ ...problem, severity: "warning" });
          const summary = summarizeRun(events, file);
          if (summary !== undefined) runs.push(summary);
        }
      }
    } catch (error) {
      return reportUsageProblems(io, this, problemsFromError(error), json);
    }
    if (warnings.length > 0 && !json) {
      io.stderr.write(formatProblemsByFile(warnings, location.cwd));
    }
    runs.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.runId.localeCompare(b.runId));
    if (json) {
      writeJson(io, { runs, problems: warnings.map(problemJson) });
      return EXIT.ok;
    }
    if (runs.length === 0) {
      io.stderr.write(
        `No runs started in ${location.cwd}. Start one with \`climpt run <agent>\`.\n`,
      );
      return EXIT.ok;
    }
    // A column for forks only when there is one: where each fork started (`climpt fork`).
    const forks = runs.some((run) => run.forkedFrom !== null);
    const rows = [
      [
        "RUN",
        "AGENT",
        "STATUS",
        "STEPS",
        "TOKENS",
        "COST",
        "STARTED (UTC)",
        "DURATION",
        ...(forks ? ["FORKED FROM"] : []),
      ],
      ...runs.map((run) => [
        run.runId,
        run.agent,
        statusLabel(run),
        String(run.steps),
        formatInteger(run.tokens),
        formatUsd(run.costUsd),
        formatStart(run.startedAt),
        formatDuration(run.durationMs),
        ...(forks ? [forkOrigin(run)] : []),
      ]),
    ];
    io.stdout.write(`${formatTable(rows)}\n`);
    return EXIT.ok;
  },
};
