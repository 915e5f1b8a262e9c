import * as path from "node:path";
import type { JsonValue, Problem } from "@climpt/model";
import type { BatchResult, IssueResult, OrchestratorContext } from "@climpt/orchestrator";
import { readRegularFileSync } from "@climpt/registry-schema";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { orchestratorModule } from "../orchestrator-module.ts";
import { writeJson } from "./command-line.ts";
import { usageProblem } from "./orchestrate-flags.ts";
import { formatBatch } from "./orchestrate-report.ts";

/** The largest `--payload @file` read: a payload is an issue's handoff, a page of JSON. */
const MAX_PAYLOAD_FILE_BYTES = 16 * 1024 * 1024;

/** `--payload`: a JSON object, inline or `@file` (relative to --cwd); undefined when not given. */
export async function payloadOf(
  text: string | undefined,
  cwd: string,
): Promise<
  | { ok: true; value: Readonly<Record<string, JsonValue>> | undefined }
  | { ok: false; problem: Problem }
> {
  if (text === undefined) return { ok: true, value: undefined };
  let source = text;
  if (text.startsWith("@")) {
    const file = path.resolve(cwd, text.slice(1));
    // Without blocking and only a regular file: a FIFO named here would hold the command.
    const read = readRegularFileSync(file, { maxBytes: MAX_PAYLOAD_FILE_BYTES });
    if (!read.ok) {
      return {
        ok: false,
        problem: usageProblem(
          CLI_CODES.badValue,
          `--payload ${text}: ${file} ${read.detail}.`,
          "Name a regular JSON file, or give the JSON inline.",
        ),
      };
    }
    source = read.bytes.toString("utf8");
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    return {
      ok: false,
      problem: usageProblem(
        CLI_CODES.badValue,
        `--payload is not JSON: ${(error as Error).message}.`,
        `Give a JSON object, e.g. --payload '{"prNumber": 12}'.`,
      ),
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      problem: usageProblem(
        CLI_CODES.badValue,
        "--payload must be a JSON object (its keys become the next agents' parameters).",
        `Give e.g. --payload '{"prNumber": 12}'.`,
      ),
    };
  }
  return { ok: true, value: value as Record<string, JsonValue> };
}

const UNCLEAN: readonly string[] = ["error", "interrupted", "locked", "waiting"];

/**
 * `climpt orchestrate --issue N`: the workflow's labels synced first (gh refuses a label the
 * repository lacks), then that one issue moved through its phases. The report is a batch of one,
 * so `--json` and the text have the batch's shape.
 */
export async function runOneIssue(
  io: CliIo,
  context: OrchestratorContext,
  issue: number,
  options: {
    readonly dryRun: boolean;
    readonly json: boolean;
    readonly payload?: Readonly<Record<string, JsonValue>>;
  },
): Promise<number> {
  const { orchestrateIssue, syncLabels, resolvePhase } = await orchestratorModule();
  const synced = await syncLabels(context.gh, context.workflow, { dryRun: options.dryRun });
  if (!synced.ok) {
    io.stderr.write(`${synced.error.code}: ${synced.error.message}\n`);
    if (options.json) writeJson(io, { status: "failed", error: synced.error });
    return EXIT.runFailed;
  }
  let result: IssueResult = await orchestrateIssue(context, issue, {
    dryRun: options.dryRun,
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
  // A checks phase waiting on CI: look again after its poll interval (each wait is bounded by the
  // phase's timeout); a stop leaves the wait in the issue's record for the next run.
  while (result.status === "waiting" && !context.signal?.aborted) {
    await pause(result.retryAfterMs ?? 1_000, context.signal);
    if (context.signal?.aborted) break;
    result = await orchestrateIssue(context, issue);
  }
  const view = options.dryRun ? await context.gh.viewIssue(issue) : null;
  const resolved = view?.ok === true ? resolvePhase(context.workflow, view.value.labels) : null;
  const batch: BatchResult = {
    status: UNCLEAN.includes(result.status) ? "partial" : "completed",
    issues: [result],
    order: [issue],
    plan:
      view?.ok === true
        ? [
            {
              issue,
              title: view.value.title,
              phase: resolved === null || resolved.kind === "none" ? null : resolved.phase.id,
              agent: resolved?.kind === "actionable" ? resolved.agent.id : null,
              note:
                result.error !== undefined
                  ? `${result.error.code}: would be blocked (${result.error.message})`
                  : resolved === null || resolved.kind === "actionable"
                    ? null
                    : resolved.kind === "none"
                      ? "no workflow label"
                      : resolved.kind,
              ...(result.payload === undefined ? {} : { payload: result.payload }),
            },
          ]
        : [],
    labelSync: synced.value,
    warnings: synced.value.flatMap((entry) => (entry.error === undefined ? [] : [entry.error])),
  };
  if (options.json) writeJson(io, batch);
  else if (options.dryRun) io.stdout.write(formatBatch(batch, true));
  else io.stderr.write(formatBatch(batch, false));
  return batch.status === "completed" ? EXIT.ok : EXIT.runFailed;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
