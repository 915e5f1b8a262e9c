import * as path from "node:path";
import type { Problem } from "@climpt/model";
import type {
  BatchResult,
  EnqueueResult,
  OrchestratorContext,
  ProgressEvent,
} from "@climpt/orchestrator";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { fleetPackagesProblem } from "../optional-packages.ts";
import { orchestratorModule } from "../orchestrator-module.ts";
import type { Command } from "./command.ts";
import {
  booleanValue,
  numberValue,
  parseCommandLine,
  reportUsageProblems,
  resolveLocation,
  stringValue,
  writeJson,
} from "./command-line.ts";
import { CWD_FLAG, HELP_FLAG, JSON_FLAG } from "./common-flags.ts";
import {
  DRY_RUN_FLAG,
  ISSUE_FLAG,
  LAND_FLAG,
  MAX_INTERRUPTIONS_FLAG,
  PAYLOAD_FLAG,
  QUEUE_FLAG,
  QUEUE_NAME_FLAG,
  queueUrlOf,
  REPO_FLAG,
  usageProblem,
  VERBOSE_FLAG,
  WORKFLOW_FLAG,
} from "./orchestrate-flags.ts";
import { payloadOf, runOneIssue } from "./orchestrate-one.ts";
import {
  describeProgress,
  formatBatch,
  formatEnqueue,
  shownWithoutVerbose,
} from "./orchestrate-report.ts";
import { loadWorkflowContext } from "./workflow-context.ts";

export const orchestrateCommand: Command = {
  name: "orchestrate",
  summary: "Move GitHub issues through the phases of .agent/workflow.json, here or on a fleet.",
  usage: [
    "climpt orchestrate [--label L]... [--state open|closed|all] [--limit N] [--prioritize] [--dry-run] [--concurrency K]",
    "climpt orchestrate --issue N [--payload JSON|@FILE] [--dry-run] [--verbose]",
    "climpt orchestrate --queue redis://HOST:PORT [--label L]... [--prioritize] [--repo-concurrency N]",
  ],
  flags: [
    {
      name: "label",
      kind: "string",
      key: "label",
      repeatable: true,
      valueName: "L",
      description: "Only issues with this label (repeatable: all must be on the issue).",
    },
    {
      name: "state",
      kind: "choice",
      key: "state",
      choices: ["open", "closed", "all"],
      description: "Issues in this state (default: open).",
    },
    {
      name: "limit",
      kind: "integer",
      key: "limit",
      valueName: "N",
      min: 1,
      description: "At most N issues (default: 30).",
    },
    {
      name: "prioritize",
      kind: "boolean",
      key: "prioritize",
      description: "Run the workflow's prioritizer first and work in its order.",
    },
    DRY_RUN_FLAG,
    {
      name: "concurrency",
      kind: "integer",
      key: "concurrency",
      valueName: "K",
      min: 1,
      description: "Issues worked on at once on this machine (default: one per core).",
    },
    ISSUE_FLAG,
    PAYLOAD_FLAG,
    LAND_FLAG,
    MAX_INTERRUPTIONS_FLAG,
    VERBOSE_FLAG,
    QUEUE_FLAG,
    QUEUE_NAME_FLAG,
    {
      name: "repo-concurrency",
      kind: "integer",
      key: "repoConcurrency",
      valueName: "N",
      min: 0,
      description:
        "With --queue: at most N issues of this repository at once across the fleet (0: no cap).",
    },
    WORKFLOW_FLAG,
    REPO_FLAG,
    CWD_FLAG,
    JSON_FLAG,
    HELP_FLAG,
  ],
  details: [
    "Each issue's labels give its phase; the phase's agent runs as a climpt run in the issue's own worktree and branch (../climpt-worktrees/<repository>/issue-<n>); its outcome picks the next phase, the labels change in one gh issue edit, the handoff comment is posted, and so on until a terminal or blocking phase, bounded by the workflow's cycle rules.",
    "With --queue, one BullMQ job per issue (job id <owner/name>#<issue>) goes to Redis instead; `climpt worker --queue …` processes run them and `climpt fleet status --queue …` shows them.",
    'A run that succeeds lands its work before the issue moves on: merged into the branch you started from (the default), pushed (`--land push`), or pushed with a pull request that closes the issue (`--land pull-request`, or the workflow\'s "land"). A conflict or a failed push sends the issue to its fallback phase with a comment; the work stays on its branch.',
    "A failed run (a refused model request, a validation abort, the iteration cap, a failed program step) takes the agent's fallback phase. An interrupted one (a stop, the model API out of reach) keeps its phase and is resumed on the next pass, up to --max-interruptions times in a row.",
    "GitHub is reached through gh (gh auth login first). Model access: ANTHROPIC_API_KEY. State lives in .climpt/orchestrator (embedded) or Redis (fleet); a stopped pass resumes its runs on the next one.",
    "Exit codes: 0 every issue ended without an error, 1 some did not (or the batch could not start), 2 bad usage or an invalid workflow.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: [] });
    if (!outcome.ok) return outcome.exitCode;
    const { values } = outcome.parsed;
    const json = booleanValue(values, "json") === true;
    const dryRun = booleanValue(values, "dryRun") === true;
    const queue = await queueUrlOf(this, values, io, json);
    if (!queue.ok) return queue.exitCode;
    const problems: Problem[] = [];
    const single = numberValue(values, "issue");
    const payload = await payloadOf(
      stringValue(values, "payload"),
      resolveLocation(values, io).cwd,
    );
    if (!payload.ok) problems.push(payload.problem);
    if (payload.ok && payload.value !== undefined && single === undefined) {
      problems.push(
        usageProblem(
          CLI_CODES.conflict,
          "--payload sets one issue's payload; it needs --issue N.",
          "Add --issue N.",
        ),
      );
    }
    if (single !== undefined) {
      for (const [key, flag] of [
        ["queue", "--queue"],
        ["prioritize", "--prioritize"],
        ["label", "--label"],
      ] as const) {
        const given = values.get(key);
        if (given !== undefined && given !== false && !(Array.isArray(given) && given.length === 0))
          problems.push(
            usageProblem(
              CLI_CODES.conflict,
              `--issue runs one issue; ${flag} chooses issues for a batch.`,
              `Drop ${flag}, or drop --issue.`,
            ),
          );
      }
    }
    if (queue.url !== undefined) {
      for (const [key, flag] of [
        ["land", "--land"],
        ["maxInterruptions", "--max-interruptions"],
      ] as const) {
        if (values.get(key) !== undefined)
          problems.push(
            usageProblem(
              CLI_CODES.conflict,
              `${flag} applies to the runs on this machine; with --queue the workers run them.`,
              flag === "--land"
                ? 'Drop --land and write "land": "<mode>" in the workflow, which every worker reads.'
                : "Drop --max-interruptions (the workers use the default).",
            ),
          );
      }
    }
    if (queue.url !== undefined && numberValue(values, "concurrency") !== undefined) {
      problems.push(
        usageProblem(
          CLI_CODES.conflict,
          "--concurrency is a worker's setting; with --queue the workers decide how many issues run at once.",
          "Drop --concurrency, and give it to `climpt worker --queue … --concurrency K`.",
        ),
      );
    }
    if (queue.url === undefined && numberValue(values, "repoConcurrency") !== undefined) {
      problems.push(
        usageProblem(
          CLI_CODES.conflict,
          "--repo-concurrency caps a repository across a fleet; it needs --queue.",
          "Use --concurrency K on one machine.",
        ),
      );
    }
    if (
      !dryRun &&
      queue.url === undefined &&
      !io.env.ANTHROPIC_API_KEY &&
      !io.env.ANTHROPIC_AUTH_TOKEN
    ) {
      problems.push(
        usageProblem(
          CLI_CODES.noCredentials,
          "ANTHROPIC_API_KEY is not set, so the agents cannot reach the model.",
          "export ANTHROPIC_API_KEY=…, or add --dry-run to see the plan.",
        ),
      );
    }
    if (queue.url !== undefined) {
      const missing = await fleetPackagesProblem("climpt orchestrate --queue", io.cwd, io.env);
      if (missing !== null) problems.push(missing);
    }
    if (problems.length > 0) return reportUsageProblems(io, this, problems, json);

    const location = resolveLocation(values, io);
    const controller = new AbortController();
    let stops = 0;
    const unhook = io.onStopSignal?.((signal) => {
      stops++;
      if (stops === 1) {
        io.stderr.write(
          `${signal === "SIGINT" ? "Ctrl-C" : signal}: stopping; runs in flight keep their journals and resume on the next pass. Press Ctrl-C again to exit at once.\n`,
        );
        controller.abort();
        return;
      }
      io.exitNow?.(EXIT.interrupted);
    });
    try {
      const verbose = booleanValue(values, "verbose") === true;
      const loaded = await loadWorkflowContext(this, values, io, {
        cwd: location.cwd,
        json,
        verbose,
        signal: controller.signal,
        onProgress: (event: ProgressEvent) => {
          if (verbose || shownWithoutVerbose(event))
            io.stderr.write(`${describeProgress(event)}\n`);
        },
      });
      if (!loaded.ok) return loaded.exitCode;
      const prioritize = booleanValue(values, "prioritize") === true;
      const unusable = prioritize
        ? (await orchestratorModule()).prioritizerProblem(loaded.workflow)
        : null;
      if (unusable !== null) {
        return reportUsageProblems(
          io,
          this,
          [
            {
              ...usageProblem(unusable.code, unusable.message, unusable.hint),
              file: loaded.workflow.file,
              path: "$.prioritizer",
            },
          ],
          json,
        );
      }
      if (single !== undefined) {
        return runOneIssue(io, loaded.context, single, {
          dryRun,
          json,
          ...(payload.ok && payload.value !== undefined ? { payload: payload.value } : {}),
        });
      }
      const labels = (values.get("label") ?? []) as readonly string[];
      const state = stringValue(values, "state") as "open" | "closed" | "all" | undefined;
      const limit = numberValue(values, "limit");
      const common = {
        ...(labels.length === 0 ? {} : { labels }),
        ...(state === undefined ? {} : { state }),
        ...(limit === undefined ? {} : { limit }),
        prioritize,
        dryRun,
      };
      if (queue.url !== undefined) {
        const { enqueueIssues } = await orchestratorModule();
        const repoConcurrency = numberValue(values, "repoConcurrency");
        const queueName = stringValue(values, "queueName");
        const result: EnqueueResult = await enqueueIssues(loaded.context, {
          ...common,
          queueUrl: queue.url,
          checkout: location.cwd,
          workflowPath: path.relative(location.cwd, loaded.context.workflow.file),
          ...(repoConcurrency === undefined ? {} : { repoConcurrency }),
          ...(queueName === undefined ? {} : { queueName }),
        });
        if (json) writeJson(io, result);
        else io.stderr.write(formatEnqueue(result, dryRun));
        return result.status === "completed" ? EXIT.ok : EXIT.runFailed;
      }
      const { orchestrateBatch } = await orchestratorModule();
      const concurrency = numberValue(values, "concurrency");
      const context: OrchestratorContext = loaded.context;
      const result: BatchResult = await orchestrateBatch(context, {
        ...common,
        ...(concurrency === undefined ? {} : { concurrency }),
      });
      if (json) writeJson(io, result);
      else if (dryRun) io.stdout.write(formatBatch(result, true));
      else io.stderr.write(formatBatch(result, false));
      return result.status === "completed" ? EXIT.ok : EXIT.runFailed;
    } finally {
      unhook?.();
    }
  },
};
