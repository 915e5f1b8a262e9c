import { availableParallelism } from "node:os";
import * as path from "node:path";
import type {
  LandingMode,
  OrchestratorContext,
  ProgressEvent,
  Workflow,
} from "@climpt/orchestrator";
import type { RunEvent } from "@climpt/runner";
import type { ParsedFlags } from "../args/parse-flags.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { orchestratorModule } from "../orchestrator-module.ts";
import type { Command } from "./command.ts";
import { numberValue, reportUsageProblems, stringValue, writeJson } from "./command-line.ts";
import { modelWaitsFromEnv } from "./model-waits.ts";

/** One line for a run event worth seeing as it happens (`--verbose`), or null. */
function describeRunEvent(event: RunEvent): string | null {
  switch (event.type) {
    case "step_start":
      return `  step ${event.stepId} (iteration ${event.iteration}${event.retry ? ", retry" : ""})`;
    case "step_end":
      return `  step ${event.stepId} ended${event.final === true ? " (final)" : ""}`;
    case "program":
      return `  program ${event.command.join(" ")} exited ${event.exitCode}`;
    case "run_end":
      return `  run ${event.result.runId} ${event.result.success ? "completed" : "failed"}${event.result.error === undefined ? "" : ` — ${event.result.error.code}: ${event.result.error.message}`}`;
    default:
      return null;
  }
}

export type LoadedContext =
  | { readonly ok: true; readonly context: OrchestratorContext; readonly workflow: Workflow }
  | { readonly ok: false; readonly exitCode: number };

/**
 * The workflow (its problems are usage errors, exit 2, listed with file and JSON path; its
 * warnings go to stderr), the repository's name, and everything an orchestrator pass needs on
 * this machine: gh, the runner dispatcher behind one model-request limiter, the file state store.
 */
export async function loadWorkflowContext(
  command: Command,
  values: ParsedFlags["values"],
  io: CliIo,
  options: {
    readonly cwd: string;
    readonly json: boolean;
    /** Each run's step starts and ends on stderr, as they happen. */
    readonly verbose?: boolean;
    readonly signal?: AbortSignal;
    readonly onProgress?: (event: ProgressEvent) => void;
  },
): Promise<LoadedContext> {
  const waits = modelWaitsFromEnv(io.env);
  if (waits.problems.length > 0) {
    return { ok: false, exitCode: reportUsageProblems(io, command, waits.problems, options.json) };
  }
  const orchestrator = await orchestratorModule();
  const workflowPath = stringValue(values, "workflow");
  const loaded = await orchestrator.loadWorkflow(
    options.cwd,
    workflowPath === undefined ? {} : { path: workflowPath },
  );
  if (!loaded.ok) {
    io.stderr.write("The workflow does not load.\n");
    return { ok: false, exitCode: reportUsageProblems(io, command, loaded.issues, options.json) };
  }
  for (const warning of loaded.value.warnings) {
    io.stderr.write(`warning ${warning.code} ${warning.path ?? ""}: ${warning.message}\n`);
  }
  const workflow = loaded.value.workflow;
  const gh = new orchestrator.GhClient({
    cwd: options.cwd,
    env: io.env,
    repo: stringValue(values, "repo") ?? null,
  });
  const repo = await gh.repoName();
  if (!repo.ok) {
    io.stderr.write(
      `${repo.error.code}: ${repo.error.message}${repo.error.hint === undefined ? "" : ` Fix: ${repo.error.hint}`}\n`,
    );
    io.stderr.write(
      "Pass --repo OWNER/NAME when gh cannot tell the repository from the checkout.\n",
    );
    if (options.json) writeJson(io, { ok: false, error: repo.error });
    return { ok: false, exitCode: EXIT.runFailed };
  }
  const concurrency = numberValue(values, "concurrency") ?? availableParallelism();
  const landMode = stringValue(values, "land") as LandingMode | undefined;
  const maxInterruptions = numberValue(values, "maxInterruptions");
  const context: OrchestratorContext = {
    workflow,
    gh,
    dispatcher: new orchestrator.RunnerDispatcher({
      repoDir: options.cwd,
      limiter: new orchestrator.LocalModelLimiter({ maxConcurrent: Math.max(4, concurrency * 2) }),
      // The bounds of model calls the environment sets (a bad value was refused above).
      runner: { env: io.env, ...waits.waits },
      gh,
      ...(options.verbose === true
        ? {
            onEvent: (issue: number, event: RunEvent) => {
              const line = describeRunEvent(event);
              if (line !== null) io.stderr.write(`#${issue} ${line}\n`);
            },
          }
        : {}),
    }),
    ...(landMode === undefined
      ? {}
      : {
          landing: {
            mode: landMode,
            remote: workflow.landing?.remote ?? "origin",
            base: workflow.landing?.base ?? null,
          },
        }),
    ...(maxInterruptions === undefined ? {} : { maxInterruptions }),
    store: new orchestrator.FileIssueStateStore(
      path.join(options.cwd, orchestrator.DEFAULT_STATE_DIR),
    ),
    repo: repo.value,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  };
  return { ok: true, context, workflow };
}
