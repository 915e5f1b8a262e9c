import type { Problem } from "@climpt/model";
import { ledgerOf, summarizeRun } from "@climpt/protocol";
import type { RunEvent } from "@climpt/runner";
import type { FlagSpec } from "../args/flag-spec.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { problemsFromError } from "../locate-agent.ts";
import { formatDuration, formatInteger, formatUsd, oneLine } from "../progress/format.ts";
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
import { findRunJournal } from "./find-run.ts";
import { ledgerLines } from "./ledger-lines.ts";
import { resumeCommandFor } from "./resume-hint.ts";
import { forkOrigin, formatStart, formatTable, statusLabel } from "./runs.ts";

const LEDGER_FLAG: FlagSpec = {
  name: "ledger",
  kind: "boolean",
  key: "ledger",
  description: "Print only the completion ledger.",
};

/**
 * One line per journaled event worth reading afterwards. The completion chain runs inside the
 * closure step, before its `step_end` is written, so its validator and verdict lines are held
 * until that step's line and printed under it. A step that started and has no end (the run was
 * killed, or is still going) gets a line of its own at the end.
 */
function historyLines(events: readonly RunEvent[]): string[] {
  const lines: string[] = [];
  // Validator and verdict lines of the completion chain, waiting for the closure step's line.
  let chain: string[] = [];
  let inFlight: { readonly iteration: number; readonly stepId: string } | undefined;
  let ended = false;
  const flushChain = () => {
    lines.push(...chain);
    chain = [];
  };
  for (const event of events) {
    switch (event.type) {
      case "run_resume":
        flushChain();
        inFlight = undefined;
        lines.push(`resumed at ${event.stepId} (iteration ${event.iteration})`);
        break;
      case "step_start":
        inFlight = { iteration: event.iteration, stepId: event.stepId };
        break;
      case "step_end": {
        const { history } = event;
        inFlight = undefined;
        const intent = history.intent === null ? "" : `${history.intent} `;
        // "closing" ends the flow: where it goes is the completion chain, not a step.
        const to = history.transition === "closing" ? "completion chain" : history.transition;
        const check =
          history.checkResult === null
            ? ""
            : ` (check ${history.checkResult.passed ? "passed" : "failed"})`;
        const inherited =
          event.inheritedFrom === undefined ? "" : ` (run ${event.inheritedFrom}, not run here)`;
        lines.push(
          `[${history.iteration}] ${history.stepId}: ${intent}→ ${to}${check}${inherited}`,
        );
        flushChain();
        break;
      }
      case "step_failed":
        lines.push(`    ✗ ${event.error.code}: ${oneLine(event.error.message, 160)}`);
        break;
      case "validator":
        chain.push(
          `    ${event.passed ? "✓" : "✗"} validator ${event.validator} (${event.command})`,
        );
        break;
      case "verdict":
        chain.push(
          `    verdict: ${event.outcome}${event.reason ? ` (${oneLine(event.reason, 120)})` : ""}`,
        );
        break;
      case "boundary_hook":
        flushChain();
        lines.push(`    boundary hook ${event.ok ? "ran" : "failed"}`);
        break;
      case "run_end":
        flushChain();
        ended = true;
        lines.push(
          event.result.success
            ? `completed: ${event.result.completionReason}`
            : `ended: ${event.result.error?.code ?? "failed"}: ${oneLine(event.result.error?.message ?? event.result.completionReason, 200)}`,
        );
        break;
      default:
        break;
    }
  }
  if (!ended && inFlight !== undefined) {
    lines.push(
      `[${inFlight.iteration}] ${inFlight.stepId}: in flight when the journal ends (the run was killed or is still running)`,
    );
  }
  flushChain();
  return lines;
}

export const showCommand: Command = {
  name: "show",
  summary: "Print one run's history from its journal.",
  usage: ["climpt show <run-id> [--ledger] [--agent-dir DIR] [--cwd DIR] [--json]"],
  flags: [LEDGER_FLAG, JSON_FLAG, AGENT_DIR_FLAG, CWD_FLAG, HELP_FLAG],
  details: [
    "The run is found as `climpt runs` finds it. Prints the summary line, then each step execution (intent and where the flow went), validators, the verdict and how the run ended, then the completion ledger: every validation attempt with the commit it ran on, each validator's result, duration, command and findings, and the `climpt verify` command that re-checks it.",
    "--ledger prints only the completion ledger.",
    '--json prints {"run": <the summary of climpt runs --json>, "events": [every journaled event], "problems": [a warning per journal line that is not an event (RUN-JOURNAL-002) or is too long or too deep to read (RUN-JOURNAL-004); the other lines are shown]}.',
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["run-id"] });
    if (!outcome.ok) return outcome.exitCode;
    const json = outcome.parsed.values.get("json") === true;
    const runId = outcome.parsed.positionals[0] as string;
    const location = resolveLocation(outcome.parsed.values, io);
    const found = await findRunJournal(runId, location);
    if (!found.ok) return reportUsageProblems(io, this, found.issues, json);
    const { inspectJournal } = await runnerModule();
    let events: RunEvent[];
    let unread: readonly Problem[];
    try {
      // Lines that are not events (edited, too deep to print) are left out and reported; the
      // rest of the run is still shown.
      ({ events, problems: unread } = inspectJournal(found.value.file));
    } catch (error) {
      return reportUsageProblems(io, this, problemsFromError(error), json);
    }
    const warnings = unread.map((problem): Problem => ({ ...problem, severity: "warning" }));
    const run = summarizeRun(events, found.value.file);
    if (run === undefined) {
      return reportUsageProblems(
        io,
        this,
        [
          {
            code: "RUN-RESUME-001",
            severity: "error",
            message: `The journal ${found.value.file} has no run_start event.`,
            file: found.value.file,
          },
        ],
        json,
      );
    }
    if (json) {
      writeJson(io, { run, events, problems: warnings.map(problemJson) });
      return EXIT.ok;
    }
    if (warnings.length > 0) io.stderr.write(formatProblemsByFile(warnings, location.cwd));
    const header = formatTable([
      ["run", run.runId],
      ["agent", run.agent],
      ["status", statusLabel(run)],
      ["started (UTC)", formatStart(run.startedAt)],
      ["duration", formatDuration(run.durationMs)],
      ["steps", String(run.steps)],
      ["tokens", formatInteger(run.tokens)],
      ["cost", formatUsd(run.costUsd)],
      ["journal", run.journalPath],
      ...(run.forkedFrom === null ? [] : [["forked from", forkOrigin(run)]]),
    ]);
    const ledger = ledgerLines(ledgerOf(events), run.runId);
    if (outcome.parsed.values.get("ledger") === true) {
      io.stdout.write(
        ledger.length === 0
          ? "No validation ran in this run.\n"
          : `${ledger.slice(1).join("\n")}\n`,
      );
      return EXIT.ok;
    }
    const lines = [header, "", ...historyLines(events), ...ledger];
    if (run.status !== "completed" && run.resumable) {
      const argvForHint = location.agentDir === undefined ? [] : ["--agent-dir", location.agentDir];
      lines.push(`Resume: ${resumeCommandFor(run.agent, argvForHint, run.runId)}`);
    }
    io.stdout.write(`${lines.join("\n")}\n`);
    return EXIT.ok;
  },
};
