// `pnpm bench:fleet`: throughput of the fleet. N issues, each one phase whose agent (the
// scenario's reviewer) makes one model call and approves; a private redis-server, the fake gh,
// the fake Messages API answering after a fixed latency; `climpt orchestrate --queue` enqueues,
// two `climpt worker` processes take the jobs. Prints one row per case: issues, model latency,
// wall time from the workers' start to the last job finished, jobs per second, and the peak RSS of
// each worker. Every issue's path: labels read, one run (one model call, journal, worktree),
// comment check, one label edit, close — so this is the orchestration overhead per issue.
// By default each worker is a machine of its own (its clone, its worktrees, the issue branch pushed
// to a shared bare remote at every step end, journals teed to Redis), as a fleet runs;
// --shared-disk runs both workers on one checkout instead.
//   node scripts/bench-fleet.mjs [--issues 100] [--concurrency 2] [--shared-disk]
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  reply,
  startFakeAnthropic,
  startRedisServer,
  writeWorkflowScenario,
} from "@climpt/testing";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "apps", "cli", "dist", "bin.mjs");
const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const issues = argument("issues", 100);
const concurrency = argument("concurrency", 2);
const sharedDisk = process.argv.includes("--shared-disk");

function rssKb(pid) {
  try {
    return (
      Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) ||
      0
    );
  } catch {
    return 0;
  }
}

function cli(args, cwd, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function measure(latencyMs) {
  const redis = await startRedisServer();
  const scenario = writeWorkflowScenario();
  // One phase: the reviewer approves, the issue is done and closed.
  writeFileSync(
    path.join(scenario.repoDir, ".agent", "workflow.json"),
    JSON.stringify({
      version: "1.0.0",
      phases: {
        reviewing: { type: "actionable", priority: 1, agent: "reviewer" },
        done: { type: "terminal" },
        blocked: { type: "blocking" },
      },
      labelMapping: { "kind:review": "reviewing", done: "done", "need clearance": "blocked" },
      agents: {
        reviewer: {
          role: "validator",
          outputPhases: { approved: "done", "changes-requested": "blocked" },
          fallbackPhase: "blocked",
          closeOnComplete: true,
        },
      },
      rules: { maxCycles: 3, cycleDelayMs: 0 },
    }),
  );
  // The machines clone the repository: they must see this workflow.
  execFileSync("git", ["commit", "-qam", "bench: one-phase workflow"], { cwd: scenario.repoDir });
  scenario.gh.update((state) => {
    const repo = state.repos[state.defaultRepo];
    repo.issues = Array.from({ length: issues }, (_, index) => ({
      number: index + 1,
      title: `Bench issue ${index + 1}`,
      body: "",
      state: "OPEN",
      stateReason: null,
      labels: ["kind:review"],
      comments: [],
      author: state.user,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      closedAt: null,
    }));
    repo.nextNumber = issues + 1;
  });
  const fake = await startFakeAnthropic();
  fake.setHandler(() =>
    reply.json(
      {
        stepId: "closure.review",
        summary: "Fine.",
        verdict: "approved",
        next_action: { action: "closing" },
      },
      { delayMs: latencyMs },
    ),
  );
  const env = {
    ...process.env,
    ...scenario.gh.env,
    ANTHROPIC_API_KEY: "sk-bench",
    ANTHROPIC_BASE_URL: fake.url,
  };
  const enqueued = await cli(
    ["orchestrate", "--queue", redis.url, "--limit", String(issues)],
    scenario.repoDir,
    env,
  );
  if (enqueued.code !== 0) throw new Error(enqueued.stderr);
  const started = Date.now();
  const workers = [1, 2].map((index) => {
    const args = [CLI, "worker", "--queue", redis.url, "--name", `w${index}`];
    args.push("--concurrency", String(concurrency));
    let cwd = scenario.repoDir;
    if (sharedDisk) args.push("--worktree-root", scenario.worktreeRoot);
    else {
      const machine = scenario.machine(`w${index}`);
      cwd = machine.checkout;
      args.push("--checkout", `${scenario.repo}=${machine.checkout}`, "--remote", "origin");
      args.push("--worktree-root", machine.worktreeRoot);
    }
    return spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "ignore", "ignore"] });
  });
  const peak = workers.map(() => 0);
  let finished = 0;
  while (finished < issues) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    workers.forEach((worker, index) => {
      peak[index] = Math.max(peak[index], rssKb(worker.pid));
    });
    const status = await cli(
      ["fleet", "status", "--queue", redis.url, "--json"],
      scenario.repoDir,
      env,
    );
    if (status.code === 0) {
      const counts = JSON.parse(status.stdout).counts;
      finished = (counts.completed ?? 0) + (counts.failed ?? 0);
    }
  }
  const seconds = (Date.now() - started) / 1000;
  for (const worker of workers) worker.kill("SIGTERM");
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.on("close", resolve))));
  const closed = Object.keys(scenario.gh.state().repos[scenario.repo].issues).filter(
    (index) => scenario.gh.state().repos[scenario.repo].issues[index].state === "CLOSED",
  ).length;
  await fake.close();
  await redis.stop();
  scenario.remove();
  return {
    issues,
    latencyMs,
    closed,
    seconds,
    jobsPerSecond: issues / seconds,
    peakRssMb: peak.map((kb) => Math.round(kb / 1024)),
  };
}

const rows = [await measure(0), await measure(20)];
process.stderr.write(
  `\n${sharedDisk ? "one shared checkout" : "a machine per worker (clone, worktrees, branch pushed per step end, Redis journal)"}\n| issues | model latency | workers × concurrency | closed | wall time | jobs/s | peak RSS per worker |\n| --- | --- | --- | --- | --- | --- | --- |\n${rows
    .map(
      (row) =>
        `| ${row.issues} | ${row.latencyMs} ms | 2 × ${concurrency} | ${row.closed} | ${row.seconds.toFixed(1)} s | ${row.jobsPerSecond.toFixed(2)} | ${row.peakRssMb.map((mb) => `${mb} MB`).join(", ")} |`,
    )
    .join("\n")}\n`,
);
process.stdout.write(`${JSON.stringify(rows)}\n`);
process.exit(rows.every((row) => row.closed === row.issues) ? 0 : 1);
