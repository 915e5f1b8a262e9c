import type { Problem } from "@climpt/model";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { EXIT } from "../exit-codes.ts";
import { fleetPackagesProblem } from "../optional-packages.ts";
import { orchestratorModule } from "../orchestrator-module.ts";
import type { Command } from "./command.ts";
import { numberValue, parseCommandLine, reportUsageProblems, stringValue } from "./command-line.ts";
import { HELP_FLAG } from "./common-flags.ts";
import { QUEUE_FLAG, QUEUE_NAME_FLAG, queueUrlOf, usageProblem } from "./orchestrate-flags.ts";

export const workerCommand: Command = {
  name: "worker",
  summary: "Take issue jobs from the fleet's queue and run them, until stopped.",
  usage: [
    "climpt worker --queue redis://HOST:PORT [--concurrency K] [--name NAME] [--checkout OWNER/NAME=DIR]...",
  ],
  flags: [
    QUEUE_FLAG,
    QUEUE_NAME_FLAG,
    {
      name: "concurrency",
      kind: "integer",
      key: "concurrency",
      valueName: "K",
      min: 1,
      description: "Jobs at once in this worker (default: one per core).",
    },
    {
      name: "name",
      kind: "string",
      key: "name",
      valueName: "NAME",
      description:
        "The worker's name in job records and `climpt fleet status` (default: host-pid).",
    },
    {
      name: "checkout",
      kind: "string",
      key: "checkout",
      repeatable: true,
      valueName: "OWNER/NAME=DIR",
      description:
        "Where this machine's checkout of a repository is, when it is not the enqueuer's path.",
    },
    {
      name: "repo-concurrency",
      kind: "integer",
      key: "repoConcurrency",
      valueName: "N",
      min: 0,
      description: "Cap per repository across the fleet when the enqueuer set none (0: no cap).",
    },
    {
      name: "model-concurrency",
      kind: "integer",
      key: "modelConcurrency",
      valueName: "N",
      min: 1,
      description: "Model requests at once across the fleet, before any throttling (default: 8).",
    },
    {
      name: "lock-duration",
      kind: "duration",
      key: "lockDuration",
      valueName: "DURATION",
      description:
        "BullMQ job lock, renewed every quarter of it; a killed worker's job moves on after it (default: 60s).",
    },
    {
      name: "stalled-interval",
      kind: "duration",
      key: "stalledInterval",
      valueName: "DURATION",
      description: "How often stalled jobs are looked for (default: 30s).",
    },
    {
      name: "lease",
      kind: "duration",
      key: "lease",
      valueName: "DURATION",
      description:
        "Lease of an issue lock and a repository slot, renewed every quarter of it; a worker that loses one stops that issue's run (default: 60s).",
    },
    {
      name: "remote",
      kind: "string",
      key: "remote",
      valueName: "NAME",
      description:
        "Git remote of the checkout the fleet shares issue branches through (workers on several machines): pushed at every step end, worktrees rebuilt from it.",
    },
    {
      name: "worktree-root",
      kind: "string",
      key: "worktreeRoot",
      valueName: "DIR",
      description: "Where issue worktrees go (default: next to the checkout).",
    },
    HELP_FLAG,
  ],
  details: [
    "Each job is one issue (`climpt orchestrate --queue` makes them); the worker moves it through its phases like `climpt orchestrate` does, with the issue's state in Redis. A worker that dies loses its jobs when their lock runs out; another worker takes them and resumes their runs from the journals.",
    "Every worker shares one limiter of model requests through Redis: a burst of 429s pauses and narrows the whole fleet. Model access: ANTHROPIC_API_KEY.",
    "Ctrl-C (or SIGTERM) stops taking jobs and stops the runs in flight; their jobs go back to the queue and resume elsewhere.",
  ],
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const outcome = parseCommandLine(this, argv, io, { names: [] });
    if (!outcome.ok) return outcome.exitCode;
    const { values } = outcome.parsed;
    const queue = await queueUrlOf(this, values, io, false);
    if (!queue.ok) return queue.exitCode;
    const problems: Problem[] = [];
    if (queue.url === undefined) {
      problems.push(
        usageProblem(
          CLI_CODES.missingValue,
          "climpt worker needs --queue redis://HOST:PORT.",
          "Give the Redis the fleet's queue is in.",
        ),
      );
    }
    const checkouts: Record<string, string> = {};
    for (const entry of (values.get("checkout") ?? []) as readonly string[]) {
      const [repo, dir] = entry.split("=", 2);
      if (repo === undefined || dir === undefined || repo === "" || dir === "") {
        problems.push(
          usageProblem(CLI_CODES.badValue, `--checkout expects OWNER/NAME=DIR, got "${entry}".`),
        );
      } else checkouts[repo] = dir;
    }
    if (!io.env.ANTHROPIC_API_KEY && !io.env.ANTHROPIC_AUTH_TOKEN) {
      problems.push(
        usageProblem(
          CLI_CODES.noCredentials,
          "ANTHROPIC_API_KEY is not set, so the agents cannot reach the model.",
          "export ANTHROPIC_API_KEY=…",
        ),
      );
    }
    const missing = await fleetPackagesProblem("climpt worker", io.cwd, io.env);
    if (missing !== null) problems.push(missing);
    if (problems.length > 0 || queue.url === undefined)
      return reportUsageProblems(io, this, problems, false);
    const { startFleetWorker } = await orchestratorModule();
    const concurrency = numberValue(values, "concurrency");
    const lockDurationMs = numberValue(values, "lockDuration");
    const stalledIntervalMs = numberValue(values, "stalledInterval");
    const leaseMs = numberValue(values, "lease");
    const repoConcurrency = numberValue(values, "repoConcurrency");
    const modelConcurrency = numberValue(values, "modelConcurrency");
    const name = stringValue(values, "name");
    const queueName = stringValue(values, "queueName");
    const worktreeRoot = stringValue(values, "worktreeRoot");
    const remote = stringValue(values, "remote");
    const worker = await startFleetWorker({
      queueUrl: queue.url,
      checkouts,
      env: io.env,
      log: (line) => io.stderr.write(`${line}\n`),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(lockDurationMs === undefined ? {} : { lockDurationMs }),
      ...(stalledIntervalMs === undefined ? {} : { stalledIntervalMs }),
      ...(leaseMs === undefined ? {} : { leaseMs }),
      ...(repoConcurrency === undefined ? {} : { repoConcurrency }),
      ...(modelConcurrency === undefined ? {} : { limiter: { maxConcurrent: modelConcurrency } }),
      ...(name === undefined ? {} : { name }),
      ...(queueName === undefined ? {} : { queueName }),
      ...(worktreeRoot === undefined ? {} : { worktreeRoot }),
      ...(remote === undefined ? {} : { remote }),
    });
    io.stderr.write(`worker ${worker.name}: taking jobs from ${queue.url.host} (Ctrl-C stops)\n`);
    await new Promise<void>((resolve) => {
      let stops = 0;
      const unhook = io.onStopSignal?.(() => {
        stops++;
        if (stops === 1) {
          io.stderr.write(
            `worker ${worker.name}: stopping; jobs in flight go back to the queue.\n`,
          );
          void worker.close().then(() => {
            unhook?.();
            resolve();
          });
          return;
        }
        io.exitNow?.(EXIT.interrupted);
      });
      if (unhook === undefined) resolve();
    });
    return EXIT.ok;
  },
};
