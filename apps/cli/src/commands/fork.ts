import type { Problem, Result } from "@climpt/model";
import type { JournalStoreFactory } from "@climpt/runner";
import { collectAgentArgs } from "../args/agent-flags.ts";
import type { FlagSpec } from "../args/flag-spec.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { problemsFromError } from "../locate-agent.ts";
import { fleetPackagesProblem } from "../optional-packages.ts";
import { orchestratorModule } from "../orchestrator-module.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  stringValue,
} from "./command-line.ts";
import { executeRun } from "./execute-run.ts";
import { loadRunAgent } from "./find-run.ts";
import { AGENT_FLAG } from "./resume.ts";
import { resumeCommandFor } from "./resume-hint.ts";
import { runOptionsFromFlags } from "./run-flag-options.ts";
import { RUN_FLAGS } from "./run-flags.ts";

/** What a fork can set for itself: where to look, parameters, model, budgets, output, finish. */
const FORK_KEYS = new Set([
  "agentDir",
  "cwd",
  "param",
  "model",
  "maxIterations",
  "maxTokens",
  "maxCost",
  "maxTime",
  "connectTimeout",
  "streamIdleTimeout",
  "json",
  "jsonl",
  "verbose",
  "replay",
  "record",
  // What a completed fork does with its branch (default: kept apart, not merged).
  "merge",
  "push",
  "pushRemote",
  "createPr",
  "prTarget",
  "help",
]);

const QUEUE_FLAG: FlagSpec = {
  name: "queue",
  kind: "string",
  key: "queue",
  valueName: "redis://HOST:PORT",
  description:
    "Fork a fleet's run: its journal is read from this Redis (the fleet's --queue), its snapshots fetched from --remote. Needs --agent.",
};

const REMOTE_FLAG: FlagSpec = {
  name: "remote",
  kind: "string",
  key: "remote",
  valueName: "NAME",
  description:
    "With --queue: the git remote the fleet pushes issue branches and snapshots to (its workers' --remote; default origin).",
};

const AT_FLAG: FlagSpec = {
  name: "at",
  kind: "string",
  key: "at",
  valueName: "STEP|N",
  description:
    "Where the fork starts: a step id (its first execution in the run) or an iteration number, as `climpt show <run-id>` lists them.",
};

export const forkCommand: Command = {
  name: "fork",
  summary: "Start a new run from a step of an earlier one, without paying for the steps before.",
  usage: [
    "climpt fork <run-id> --at <step-id|iteration> [--param NAME=VALUE]... [--model M] [flags]",
  ],
  flags: [
    AT_FLAG,
    AGENT_FLAG,
    QUEUE_FLAG,
    REMOTE_FLAG,
    ...RUN_FLAGS.filter((flag) => FORK_KEYS.has(flag.key)).map((flag) =>
      flag.key === "merge"
        ? {
            ...flag,
            description:
              "After the fork completes, merge its branch into the base branch (default for a fork: kept apart, to compare).",
          }
        : flag,
    ),
  ],
  details: [
    "The fork is a new run with its own run id, journal and branch. Its iterations before --at are the source run's: their step ends are copied from its journal into the fork's, and no model call is made and no tool runs for them. Its working tree is a new git worktree on the branch climpt/<agent>/<new run id>, made from the snapshot the source recorded at that point (committed, staged, modified and untracked files as they were).",
    "From --at on it runs live with the source's parameters, each --param over them, the --model given (else the source's), and the agent definition as it is now: a fork is how a changed prompt, model or parameter is tried from step N. Budgets count what the source spent before the fork point.",
    "The source run is never changed: its journal, branch, worktree and snapshots stay as they are. A completed fork keeps its branch for comparison; --merge merges it.",
    "A fleet's run (climpt worker) is forked from any clone of its repository: --queue names the fleet's Redis, where its journal is read (only read: the stream is not changed), and --remote the git remote its workers push to, where its snapshots are (the fleet pushes refs/climpt/<run-id>/* with the issue's branch at every step end); only the snapshots up to --at are fetched. The fork itself runs here, its journal a file as for any run.",
    "Refused before anything is made: RUN-FORK-001 (no such run here), RUN-FORK-002 (--at names a point the run never reached), RUN-FORK-003 (no snapshot there: a run from before snapshots, outside a repository, or a fleet's run whose snapshots the remote lacks), RUN-FORK-004 (a journal climpt did not write), ORC-JOURNAL-002 (no such run in the fleet's Redis), RUN-ARGS-001 (a parameter the agent does not declare).",
    "Exit codes: 0 the fork completed, 1 it failed or was interrupted, 2 bad usage or a refusal above.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["run-id"] });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = booleanValue(values, "json") === true;
    const runId = positionals[0] as string;
    const location = resolveLocation(values, io);
    const agentRef = stringValue(values, "agent");
    const at = stringValue(values, "at");
    const problems: Problem[] = [];
    if (at === undefined || at.trim() === "") {
      problems.push({
        code: CLI_CODES.badArgument,
        severity: "error",
        message: "climpt fork needs --at: the step id or iteration number to start from.",
        hint: "`climpt show <run-id>` lists the run's iterations and steps; pass one, e.g. --at continuation.implement or --at 2.",
      });
    }
    if (json && booleanValue(values, "jsonl") === true) {
      problems.push({
        code: CLI_CODES.conflict,
        severity: "error",
        message: "--json and --jsonl both print on stdout; choose one.",
        hint: "--jsonl streams the events (the last one, run_end, holds the result); --json prints only the result.",
      });
    }
    const queue = stringValue(values, "queue");
    const remote = stringValue(values, "remote");
    if (queue !== undefined && agentRef === undefined) {
      problems.push({
        code: CLI_CODES.badArgument,
        severity: "error",
        message:
          "--queue needs --agent: a fleet's run has no journal in this folder to find its agent by.",
        hint: "Pass the agent the fleet ran, e.g. --agent .agent/implementer.",
      });
    }
    if (remote !== undefined && queue === undefined) {
      problems.push({
        code: CLI_CODES.badArgument,
        severity: "error",
        message: "--remote is for a fleet's run: it goes with --queue.",
        hint: "A run of this folder forks from its own snapshots; leave --remote out, or add the fleet's --queue.",
      });
    }
    const shared = runOptionsFromFlags(values, io);
    problems.push(...shared.problems);
    if (problems.length > 0) return reportUsageProblems(io, this, problems, json);

    const found = await loadRunAgent(runId, agentRef, location, io.cwd);
    if (!found.ok) return reportUsageProblems(io, this, found.issues, json);
    const loaded = found.value;
    // `--param NAME=VALUE` by the agent's declarations; the runner checks them over the source's
    // arguments (an undeclared one is RUN-ARGS-001, exit 2, before anything is made).
    const paramEntries = (values.get("param") ?? []) as readonly string[];
    const collected = collectAgentArgs(new Map(), paramEntries, loaded.agent.parameters);
    if (collected.problems.length > 0)
      return reportUsageProblems(io, this, collected.problems, json);
    const fleet = queue === undefined ? undefined : await openFleetSource(io, queue, runId);
    if (fleet !== undefined && !fleet.ok) return reportUsageProblems(io, this, fleet.issues, json);
    try {
      return await executeRun(io, this, {
        loaded,
        runOptions: {
          cwd: location.cwd,
          fork: {
            runId,
            at: (at as string).trim(),
            ...(fleet === undefined ? {} : { remote: remote ?? "origin" }),
          },
          args: collected.args,
          ...shared.options,
        },
        json,
        jsonl: booleanValue(values, "jsonl") === true,
        verbose: booleanValue(values, "verbose") === true,
        resumeCommand: (id) => resumeCommandFor(agentRef ?? loaded.agent.name, argv, id),
        ...(fleet === undefined ? {} : { journalStore: fleet.value.journalStore }),
      });
    } finally {
      if (fleet?.ok === true) fleet.value.close();
    }
  },
};

/**
 * The fleet's Redis for `--queue`: the source run's journal is read there. CLI-DEP-001 when the
 * fleet's packages are not installed; the orchestrator's coded error when the URL is not one or
 * Redis does not answer.
 */
async function openFleetSource(
  io: CliIo,
  queue: string,
  runId: string,
): Promise<Result<{ readonly journalStore: JournalStoreFactory; readonly close: () => void }>> {
  const missing = await fleetPackagesProblem("climpt fork --queue", io.cwd, io.env);
  if (missing !== null) return { ok: false, issues: [missing] };
  const { openRedisForkSource, parseQueueUrl } = await orchestratorModule();
  try {
    return { ok: true, value: await openRedisForkSource(parseQueueUrl(queue), runId) };
  } catch (error) {
    return { ok: false, issues: problemsFromError(error) };
  }
}
