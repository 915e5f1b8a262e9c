import type { Problem } from "@climpt/model";
import type { FlagSpec } from "../args/flag-spec.ts";
import type { ParsedFlags } from "../args/parse-flags.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { orchestratorModule } from "../orchestrator-module.ts";
import type { Command } from "./command.ts";
import { reportUsageProblems, stringValue } from "./command-line.ts";

export const WORKFLOW_FLAG: FlagSpec = {
  name: "workflow",
  kind: "string",
  key: "workflow",
  valueName: "PATH",
  description: "The workflow file, relative to --cwd (default: .agent/workflow.json).",
};

export const REPO_FLAG: FlagSpec = {
  name: "repo",
  kind: "string",
  key: "repo",
  valueName: "OWNER/NAME",
  description: "The GitHub repository (default: the one gh reads from the checkout's remote).",
};

export const QUEUE_FLAG: FlagSpec = {
  name: "queue",
  kind: "string",
  key: "queue",
  valueName: "redis://HOST:PORT",
  description: "The Redis of the BullMQ queue the fleet shares.",
};

export const QUEUE_NAME_FLAG: FlagSpec = {
  name: "queue-name",
  kind: "string",
  key: "queueName",
  valueName: "NAME",
  description: "The BullMQ queue (default: climpt-issues).",
};

export const DRY_RUN_FLAG: FlagSpec = {
  name: "dry-run",
  kind: "boolean",
  key: "dryRun",
  description: "Print the plan and change nothing.",
};

export const ISSUE_FLAG: FlagSpec = {
  name: "issue",
  kind: "integer",
  key: "issue",
  valueName: "N",
  min: 1,
  description: "Run one issue only (its labels still give its phase); no listing, no prioritizer.",
};

export const PAYLOAD_FLAG: FlagSpec = {
  name: "payload",
  kind: "string",
  key: "payload",
  valueName: "JSON|@FILE",
  description:
    "With --issue: the issue's payload (a JSON object, or @file), checked against the workflow's payloadSchema; its keys are the next agents' parameters.",
};

export const LAND_FLAG: FlagSpec = {
  name: "land",
  kind: "choice",
  key: "land",
  choices: ["merge", "pull-request", "push"],
  description:
    "Where a successful run's work goes before the issue moves on (default: the workflow's land, else merge into the branch you started from).",
};

export const MAX_INTERRUPTIONS_FLAG: FlagSpec = {
  name: "max-interruptions",
  kind: "integer",
  key: "maxInterruptions",
  valueName: "N",
  min: 1,
  description:
    "How many passes in a row an issue's run may be interrupted and resumed before it fails (default: 5).",
};

export const VERBOSE_FLAG: FlagSpec = {
  name: "verbose",
  kind: "boolean",
  key: "verbose",
  short: "v",
  description: "Show each run's steps, outcomes, landings and handoffs as they happen.",
};

/** A problem for a value the orchestrator refused (a bad queue URL), as a usage error. */
export function usageProblem(code: string, message: string, hint?: string): Problem {
  return { code, severity: "error", message, ...(hint === undefined ? {} : { hint }) };
}

/** The `--queue` URL, checked; reports a usage problem (exit 2) when it is not a Redis URL. */
export async function queueUrlOf(
  command: Command,
  values: ParsedFlags["values"],
  io: CliIo,
  json: boolean,
): Promise<{ ok: true; url: URL | undefined } | { ok: false; exitCode: number }> {
  const text = stringValue(values, "queue");
  if (text === undefined) return { ok: true, url: undefined };
  const { parseQueueUrl } = await orchestratorModule();
  try {
    return { ok: true, url: parseQueueUrl(text) };
  } catch (error) {
    const coded = error as { code?: string; message: string; hint?: string };
    return {
      ok: false,
      exitCode: reportUsageProblems(
        io,
        command,
        [usageProblem(coded.code ?? CLI_CODES.badValue, coded.message, coded.hint)],
        json,
      ),
    };
  }
}
