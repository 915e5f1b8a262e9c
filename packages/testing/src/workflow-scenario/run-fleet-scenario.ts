import { type ChildProcess, spawn } from "node:child_process";
import { type FakeAnthropic, startFakeAnthropic } from "@climpt/mock";
import { type RedisServer, startRedisServer } from "../redis-server.ts";
import { waitFor } from "../wait-for.ts";
import {
  type ScenarioMachine,
  type WorkflowScenario,
  writeWorkflowScenario,
} from "./write-scenario.ts";

export interface FleetScenarioOptions {
  /** The built `climpt` executable (apps/cli/dist/bin.mjs). */
  readonly cliPath: string;
  /** Worker processes. Default 2. */
  readonly workers?: number;
  /** Jobs at once per worker. Default 2. */
  readonly concurrency?: number;
  /** SIGKILL the worker running issue #3's implementer while it waits for a model reply. Default true. */
  readonly kill?: boolean;
  /** The whole scenario must end within this. Default 4 minutes. */
  readonly timeoutMs?: number;
  /**
   * Give each worker a machine of its own (`scenario.machine`): its own clone and worktrees, the
   * branches shared through a bare remote (`--remote origin`), journals through Redis. Default
   * true; false runs every worker on the enqueuer's checkout (one machine, shared disk).
   */
  readonly separateMachines?: boolean;
  /** Each worker's stderr line, as it comes. */
  readonly log?: (worker: string, line: string) => void;
}

/** The one-line summary `pnpm demo:fleet` prints. */
export interface FleetScenarioSummary {
  readonly issues: number;
  /** Issues that reached a terminal phase. */
  readonly terminal: number;
  /** Issues that ended in the blocking phase. */
  readonly blocked: number;
  readonly workers: number;
  readonly killed: number;
  /** Runs a worker resumed from a journal instead of starting them. */
  readonly resumedRuns: number;
  /** Model calls asked again although they had completed (resume must make this 0). */
  readonly repeatedModelCalls: number;
  readonly seconds: number;
}

export interface FleetScenarioRun {
  readonly summary: FleetScenarioSummary;
  readonly scenario: WorkflowScenario;
  readonly fake: FakeAnthropic;
  readonly redis: RedisServer;
  /** Worker name → its stderr lines. */
  readonly logs: Readonly<Record<string, readonly string[]>>;
  /** Worker name → its machine (with `separateMachines`). */
  readonly machines: Readonly<Record<string, ScenarioMachine>>;
  readonly killedWorker: string | null;
  /** `climpt fleet status --json` at the end. */
  readonly status: {
    counts: Record<string, number>;
    jobs: {
      id: string;
      state: string;
      worker: string | null;
      stalled: number;
      status: string | null;
    }[];
  };
  /** Stops the fake API and Redis and deletes the scenario's folders. */
  cleanUp(): Promise<void>;
}

interface Spawned {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function spawnCli(
  cliPath: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  onLine?: (line: string) => void,
): Spawned {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let partial = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    partial += chunk;
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) onLine?.(line);
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  return { child, exited };
}

/** Waits for `condition` until the scenario's `deadline` (an absolute time). */
function waitUntilDeadline(
  what: string,
  deadline: number,
  condition: () => boolean | Promise<boolean>,
): Promise<void> {
  return waitFor(condition, {
    what: `fleet scenario: ${what}`,
    limitMs: Math.max(0, deadline - Date.now()),
    intervalMs: 100,
  });
}

/**
 * The workflow scenario on a fleet: a private redis-server, the six issues enqueued with
 * `climpt orchestrate --queue … --prioritize`, `workers` processes of `climpt worker` taking
 * them, and (with `kill`) the worker running issue #3's implementer SIGKILLed while that run
 * waits for a model reply. Ends when every job has finished; returns the summary and what a
 * test needs to check it. Call `cleanUp` afterwards.
 */
export async function runFleetScenario(options: FleetScenarioOptions): Promise<FleetScenarioRun> {
  const started = Date.now();
  const deadline = started + (options.timeoutMs ?? 240_000);
  const kill = options.kill ?? true;
  const redis = await startRedisServer();
  const scenario = writeWorkflowScenario({
    slow: kill ? [{ key: "implementer#3", index: 1, delayMs: 30_000 }] : [],
  });
  const fake = await startFakeAnthropic();
  fake.setHandler(scenario.model.handler);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith("ANTHROPIC_")) env[key] = value;
  Object.assign(env, scenario.gh.env, {
    ANTHROPIC_API_KEY: "sk-test-key",
    ANTHROPIC_BASE_URL: fake.url,
  });
  const workers: { name: string; process: Spawned }[] = [];
  const logs: Record<string, string[]> = {};
  const machines: Record<string, ScenarioMachine> = {};
  const separate = options.separateMachines ?? true;
  const cleanUp = async (): Promise<void> => {
    for (const worker of workers) worker.process.child.kill("SIGKILL");
    await fake.close();
    await redis.stop();
    scenario.remove();
  };
  try {
    const enqueued = await spawnCli(
      options.cliPath,
      ["orchestrate", "--queue", redis.url, "--prioritize"],
      scenario.repoDir,
      env,
    ).exited;
    if (enqueued.code !== 0)
      throw new Error(`climpt orchestrate --queue exited ${enqueued.code}:\n${enqueued.stderr}`);
    for (let index = 1; index <= (options.workers ?? 2); index++) {
      const name = `w${index}`;
      logs[name] = [];
      const args = [
        "worker",
        "--queue",
        redis.url,
        "--name",
        name,
        "--concurrency",
        String(options.concurrency ?? 2),
        // Short enough that a kill is noticed in seconds, long enough that a worker whose event
        // loop a loaded machine stalls for a few seconds keeps its jobs: a job that stalls
        // while its worker lives runs twice (the issue lock's lease runs out as well).
        "--lock-duration",
        "6s",
        "--stalled-interval",
        "1s",
        "--lease",
        "6s",
      ];
      let cwd = scenario.repoDir;
      if (separate) {
        const machine = scenario.machine(name);
        machines[name] = machine;
        cwd = machine.checkout;
        args.push(
          "--checkout",
          `${scenario.repo}=${machine.checkout}`,
          "--remote",
          "origin",
          "--worktree-root",
          machine.worktreeRoot,
        );
      } else args.push("--worktree-root", scenario.worktreeRoot);
      workers.push({
        name,
        process: spawnCli(options.cliPath, args, cwd, env, (line) => {
          logs[name]?.push(line);
          options.log?.(name, line);
        }),
      });
    }
    let killedWorker: string | null = null;
    if (kill) {
      await waitUntilDeadline("issue #3's implementer call", deadline, () =>
        scenario.model.served.some((call) => call.key === "implementer#3" && call.index === 1),
      );
      const runner = workers.find((worker) =>
        (logs[worker.name] ?? []).some((line) => line.includes("#3 runs implementer")),
      );
      if (runner === undefined)
        throw new Error("fleet scenario: no worker says it runs issue #3's implementer");
      runner.process.child.kill("SIGKILL");
      await runner.process.exited;
      killedWorker = runner.name;
    }
    let status: FleetScenarioRun["status"] = { counts: {}, jobs: [] };
    await waitUntilDeadline("every job to finish", deadline, async () => {
      const out = await spawnCli(
        options.cliPath,
        ["fleet", "status", "--queue", redis.url, "--json"],
        scenario.repoDir,
        env,
      ).exited;
      if (out.code !== 0) return false;
      status = JSON.parse(out.stdout) as FleetScenarioRun["status"];
      const finished = (status.counts.completed ?? 0) + (status.counts.failed ?? 0);
      return finished === Object.keys(scenario.expected).length;
    });
    for (const worker of workers) {
      if (worker.name === killedWorker) continue;
      worker.process.child.kill("SIGTERM");
      await worker.process.exited;
    }
    const finalLabels = Object.keys(scenario.expected).map(
      (number) => scenario.gh.issue(Number(number))?.labels ?? [],
    );
    const summary: FleetScenarioSummary = {
      issues: finalLabels.length,
      terminal: finalLabels.filter(
        (labels) => labels.includes("done") || labels.includes("wontfix"),
      ).length,
      blocked: finalLabels.filter((labels) => labels.includes("need clearance")).length,
      workers: workers.length,
      killed: killedWorker === null ? 0 : 1,
      resumedRuns: Object.values(logs)
        .flat()
        .filter((line) => / resumes [a-z-]+ \(/.test(line)).length,
      repeatedModelCalls: scenario.model.repeatedCompletedCalls(fake.requests),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
    return { summary, scenario, fake, redis, logs, machines, killedWorker, status, cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
