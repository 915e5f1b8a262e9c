import type { Problem } from "@climpt/model";
import type { FlagSpec } from "../args/flag-spec.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
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
import { resumeCommandFor } from "./resume-hint.ts";
import { runOptionsFromFlags } from "./run-flag-options.ts";
import { RUN_FLAGS } from "./run-flags.ts";

/** What a resumed run can change: where to look, the budgets, the cassette, the output. */
const RESUME_KEYS = new Set([
  "agentDir",
  "cwd",
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
  "mock",
  // What a resumed worktree run does with its branch when it completes.
  "merge",
  "push",
  "pushRemote",
  "createPr",
  "prTarget",
  "help",
]);

export const AGENT_FLAG: FlagSpec = {
  name: "agent",
  kind: "string",
  key: "agent",
  valueName: "AGENT",
  description: "The run's agent, by name or path (default: found from the run id under .agent/).",
};

export const ACCEPT_CHANGED_DEFINITION_FLAG: FlagSpec = {
  name: "accept-changed-definition",
  kind: "boolean",
  key: "acceptChangedDefinition",
  description:
    "Continue although the agent definition changed since the run started (otherwise RUN-RESUME-006). For a change you made and reviewed.",
};

export const resumeCommand: Command = {
  name: "resume",
  summary: "Continue an interrupted or failed run from its journal.",
  usage: ["climpt resume <run-id> [--agent AGENT] [--replay CASSETTE | --mock SCRIPT] [flags]"],
  flags: [
    AGENT_FLAG,
    ACCEPT_CHANGED_DEFINITION_FLAG,
    ...RUN_FLAGS.filter((flag) => RESUME_KEYS.has(flag.key)),
  ],
  details: [
    "The run keeps the parameters it started with. Completed model calls are served from the journal, never repeated; the step that was running starts again.",
    "The agent is found from the run id among the agents under <cwd>/.agent/ (or --agent-dir); give --agent when it lives elsewhere. Run it from the folder the run was started in (or pass the same --cwd): the journal is there.",
    "The journal must describe a run of this agent started in this folder (RUN-RESUME-005), and the agent folder must hold what it held when the run started or was last resumed (RUN-RESUME-006): a changed definition could run other hooks and validators against a half-done run. Review the change, then start a new run or pass --accept-changed-definition.",
    "Exit codes: 0 completed, 1 the run failed or was interrupted again, 2 bad usage, no such run, or an agent definition that no longer validates.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: ["run-id"] });
    if (!outcome.ok) return outcome.exitCode;
    const { values, positionals } = outcome.parsed;
    const json = booleanValue(values, "json") === true;
    const runId = positionals[0] as string;
    const location = resolveLocation(values, io);
    const agentRef = stringValue(values, "agent");
    const problems: Problem[] = [];
    if (json && booleanValue(values, "jsonl") === true) {
      problems.push({
        code: CLI_CODES.conflict,
        severity: "error",
        message: "--json and --jsonl both print on stdout; choose one.",
        hint: "--jsonl streams the events (the last one, run_end, holds the result); --json prints only the result.",
      });
    }
    const shared = runOptionsFromFlags(values, io);
    problems.push(...shared.problems);
    if (problems.length > 0) return reportUsageProblems(io, this, problems, json);

    const found = await loadRunAgent(runId, agentRef, location, io.cwd);
    if (!found.ok) return reportUsageProblems(io, this, found.issues, json);
    const loaded = found.value;
    return executeRun(io, this, {
      loaded,
      runOptions: {
        cwd: location.cwd,
        resume: runId,
        ...(booleanValue(values, "acceptChangedDefinition") === true
          ? { acceptChangedDefinition: true }
          : {}),
        ...shared.options,
      },
      json,
      jsonl: booleanValue(values, "jsonl") === true,
      verbose: booleanValue(values, "verbose") === true,
      resumeCommand: (id) => resumeCommandFor(agentRef ?? loaded.agent.name, argv, id),
      resuming: runId,
      ...(shared.mockScript === undefined ? {} : { mockScript: shared.mockScript }),
    });
  },
};
