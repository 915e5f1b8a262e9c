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
