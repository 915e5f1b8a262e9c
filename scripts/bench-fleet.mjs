// `pnpm bench:fleet`: throughput and CPU cost of the fleet. N issues, each one phase whose agent
// (the scenario's reviewer) makes one model call and approves; a private redis-server, the fake
// gh, the fake Messages API answering after a fixed latency; `climpt orchestrate --queue`
// enqueues, W `climpt worker` processes take the jobs. Every issue's path: labels read, one run
// (one model call, journal, worktree), comment check, one label edit, close — so this is the
// orchestration overhead per issue.
//
// The headline is CPU-seconds per issue: user + sys of the worker processes and of every process
// they started (git, gh, …), read from /proc/<pid>/stat (utime, stime, cutime, cstime) from when
// the workers idle on the empty queue (their start-up is left out and printed apart) to when all
// jobs are done. The fake gh is a Node process, far dearer than GitHub's gh: its share is printed
// apart (the workers' gh calls × one call's CPU, measured here). Redis's own CPU is beside it.
// Wall time and jobs/s depend on whatever else shares the machine.
//
// By default each worker is a machine of its own (its clone, its worktrees, the issue branch pushed
// to a shared bare remote, journals teed to Redis), as a fleet runs; --shared-disk runs the
// workers on one checkout instead. --trace wraps git and gh (PATH) with /usr/bin/time and prints,
// per command, how many ran and their CPU, for the 1-worker row (the profile in the README).
//   node scripts/bench-fleet.mjs [--issues 40] [--concurrency 2] [--workers 1,2,4]
//                                [--queued 1000] [--slow-issues 8] [--shared-disk] [--trace]
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  reply,
  startFakeAnthropic,
  startRedisServer,
  writeWorkflowScenario,
} from "@climpt/testing";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "apps", "cli", "dist", "bin.mjs");
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const issues = Number(option("issues", 40));
const concurrency = Number(option("concurrency", 2));
const workerCounts = String(option("workers", "1,2,4")).split(",").map(Number);
const queued = Number(option("queued", 1000));
const slowIssues = Number(option("slow-issues", 8));
const sharedDisk = process.argv.includes("--shared-disk");
const trace = process.argv.includes("--trace");
// --cpu-prof DIR: each worker of the 1-worker row writes a V8 CPU profile there (node --cpu-prof).
const cpuProfDir = option("cpu-prof", undefined);
const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** CPU-seconds of a live process: its own and its waited-for children's (user + sys). */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const own = Number(fields[11]) + Number(fields[12]);
    const children = Number(fields[13]) + Number(fields[14]);
    return { own: own / TICKS, children: children / TICKS };
  } catch {
    return { own: 0, children: 0 };
  }
}

/**
 * CPU-seconds of one call of the fake gh (a Node process) on this machine: five `gh issue view`
 * calls, timed by this process's waited-for children's CPU (the fake stands in for GitHub's gh).
 */
function fakeGhCallSeconds(scenario, env) {
  const before = cpuSeconds(process.pid).children;
  for (let index = 0; index < 5; index++)
    spawnSync(scenario.gh.ghPath, ["issue", "view", "1", "--json", "number,title,labels"], {
      env,
      stdio: "ignore",
    });
  return (cpuSeconds(process.pid).children - before) / 5;
}

/** Waits (at most 60 s) until no worker used CPU for half a second; returns their CPU then. */
async function idleCpu(workers) {
  const total = () =>
    workers.map((worker) => cpuSeconds(worker.pid)).map((one) => one.own + one.children);
  const deadline = Date.now() + 60_000;
  let last = total();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = total();
    const idle = now.every((value, index) => value > 0 && value === last[index]);
    last = now;
    if (idle) break;
  }
  return workers.map((worker) => cpuSeconds(worker.pid));
}

function rssKb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The pid of the redis-server listening on `url`'s port (it is a child of this process). */
function redisPid(url) {
  const port = new URL(url).port;
  const out = execFileSync("pgrep", ["-P", String(process.pid), "-f", `redis-server.*${port}`], {
    encoding: "utf8",
  }).trim();
  return Number(out.split("\n")[0]);
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

/** A folder of `git` and `gh` wrappers that log each command's CPU through /usr/bin/time. */
function traceWrappers(ghPath) {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-trace-"));
  const log = path.join(dir, "commands.log");
  const git = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const wrap = (name, real) => {
    const file = path.join(dir, name);
    writeFileSync(
      file,
      `#!/bin/sh\nexec /usr/bin/time -a -o ${log} -f "%U %S %e ${name} %C" ${real} "$@"\n`,
    );
    chmodSync(file, 0o755);
  };
  wrap("git", git);
  wrap("gh", ghPath);
  return { dir, log };
}

/** Commands of a --trace log, grouped by program and subcommand (per issue: divided by `count`). */
function traceTable(log, count) {
  const rows = new Map();
  for (const line of readFileSync(log, "utf8").split("\n")) {
    const match = /^([\d.]+) ([\d.]+) ([\d.]+) (git|gh) \S+ (.*)$/.exec(line);
    if (match === null) continue;
    const words = match[5].split(" ");
    // git's own options first (`-c name=value`), then the subcommand; gh: `issue view`.
    while (words[0] === "-c") words.splice(0, 2);
    const key = `${match[4]} ${match[4] === "gh" ? words.slice(0, 2).join(" ") : words[0]}`;
    const row = rows.get(key) ?? { runs: 0, cpu: 0, wall: 0 };
    row.runs += 1;
    row.cpu += Number(match[1]) + Number(match[2]);
    row.wall += Number(match[3]);
    rows.set(key, row);
  }
  const all = [...rows.values()].reduce(
    (sum, row) => ({
      runs: sum.runs + row.runs,
      cpu: sum.cpu + row.cpu,
      wall: sum.wall + row.wall,
    }),
    { runs: 0, cpu: 0, wall: 0 },
  );
  return [...rows.entries(), ["all", all]]
    .sort((a, b) => b[1].cpu - a[1].cpu)
    .map(
      ([key, row]) =>
        `| ${key} | ${(row.runs / count).toFixed(1)} | ${((row.cpu / count) * 1000).toFixed(0)} ms | ${((row.wall / count) * 1000).toFixed(0)} ms |`,
    )
    .join("\n");
}

const ONE_PHASE = {
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
};

/** A scenario with `count` open issues of the one-phase workflow, a Redis and a fake model. */
async function setUp(count, latencyMs) {
  const redis = await startRedisServer();
  const scenario = writeWorkflowScenario();
  writeFileSync(path.join(scenario.repoDir, ".agent", "workflow.json"), JSON.stringify(ONE_PHASE));
  // The machines clone the repository: they must see this workflow.
  execFileSync("git", ["commit", "-qam", "bench: one-phase workflow"], { cwd: scenario.repoDir });
  scenario.gh.update((state) => {
    const repo = state.repos[state.defaultRepo];
    repo.issues = Array.from({ length: count }, (_, index) => ({
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
    repo.nextNumber = count + 1;
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
  const tearDown = async () => {
    await fake.close();
    await redis.stop();
    scenario.remove();
  };
  return { redis, scenario, env, tearDown };
}

async function enqueue(redis, scenario, env, count) {
  const started = process.hrtime.bigint();
  const enqueued = await cli(
    ["orchestrate", "--queue", redis.url, "--limit", String(count)],
    scenario.repoDir,
    env,
  );
  if (enqueued.code !== 0) throw new Error(enqueued.stderr);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Issues closed or moved to the blocking phase so far (read from the fake gh's state). */
function settled(scenario) {
  const all = Object.values(scenario.gh.state().repos[scenario.repo].issues);
  return {
    closed: all.filter((issue) => issue.state === "CLOSED").length,
    blocked: all.filter((issue) => issue.labels.includes("need clearance")).length,
  };
}

async function measure({
  workers: workerCount,
  count,
  latencyMs,
  traced = false,
  profiled = false,
}) {
  const { redis, scenario, env, tearDown } = await setUp(count, latencyMs);
  const wrappers = traced ? traceWrappers(scenario.gh.ghPath) : null;
  const workerEnv =
    wrappers === null ? env : { ...env, PATH: `${wrappers.dir}${path.delimiter}${env.PATH}` };
  // The workers start on an empty queue: their start-up (module loading, connections) is left out
  // of the per-issue figures. CPU counts from when they idle, the clock from the enqueue (the
  // workers take the jobs as it adds them).
  const workers = Array.from({ length: workerCount }, (_, index) => {
    const name = `w${index + 1}`;
    const profile = profiled ? ["--cpu-prof", "--cpu-prof-dir", cpuProfDir] : [];
    const args = [...profile, CLI, "worker", "--queue", redis.url, "--name", name];
    args.push("--concurrency", String(concurrency));
    let cwd = scenario.repoDir;
    if (sharedDisk) args.push("--worktree-root", scenario.worktreeRoot);
    else {
      const machine = scenario.machine(name);
      cwd = machine.checkout;
      args.push("--checkout", `${scenario.repo}=${machine.checkout}`, "--remote", "origin");
      args.push("--worktree-root", machine.worktreeRoot);
    }
    return spawn(process.execPath, args, { cwd, env: workerEnv, stdio: "ignore" });
  });
  const startup = await idleCpu(workers);
  const redisProcess = redisPid(redis.url);
  const redisBefore = cpuSeconds(redisProcess);
  const callsBefore = scenario.gh.calls().length;
  const started = Date.now();
  await enqueue(redis, scenario, env, count);
  // The enqueuer's own gh calls (label sync, the listing) are not the workers'.
  const enqueuerCalls = scenario.gh.calls().length - callsBefore;
  const peak = workers.map(() => 0);
  let done = settled(scenario);
  let lastProgress = Date.now();
  while (done.closed + done.blocked < count) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    workers.forEach((worker, index) => {
      peak[index] = Math.max(peak[index], rssKb(worker.pid));
    });
    const now = settled(scenario);
    if (now.closed + now.blocked > done.closed + done.blocked) lastProgress = Date.now();
    done = now;
    if (Date.now() - lastProgress > 180_000) break;
  }
  const seconds = (Date.now() - started) / 1000;
  const cpu = workers.map((worker, index) => {
    const now = cpuSeconds(worker.pid);
    const before = startup[index] ?? { own: 0, children: 0 };
    return { own: now.own - before.own, children: now.children - before.children };
  });
  const redisCpu = cpuSeconds(redisProcess);
  const ghCalls = scenario.gh.calls().length - callsBefore - enqueuerCalls;
  for (const worker of workers) worker.kill("SIGTERM");
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.on("close", resolve))));
  const ghCall = fakeGhCallSeconds(scenario, env);
  const table = wrappers === null ? null : traceTable(wrappers.log, count);
  if (wrappers !== null) rmSync(wrappers.dir, { recursive: true, force: true });
  await tearDown();
  const own = cpu.reduce((sum, one) => sum + one.own, 0);
  const children = cpu.reduce((sum, one) => sum + one.children, 0);
  return {
    workers: workerCount,
    issues: count,
    latencyMs,
    closed: done.closed,
    seconds,
    jobsPerSecond: count / seconds,
    cpuPerIssue: (own + children) / count,
    nodePerIssue: own / count,
    childrenPerIssue: children / count,
    ghCallsPerIssue: ghCalls / count,
    fakeGhCallMs: ghCall * 1000,
    fakeGhPerIssue: (ghCalls * ghCall) / count,
    redisPerIssue: (redisCpu.own - redisBefore.own) / count,
    startupCpuPerWorker:
      startup.reduce((sum, one) => sum + one.own + one.children, 0) / workerCount,
    peakRssMb: peak.map((kb) => Math.round(kb / 1024)),
    ...(table === null ? {} : { trace: table }),
  };
}

/** Enqueue time and Redis memory for `count` queued issues (no workers). */
async function measureQueue(count) {
  const { redis, scenario, env, tearDown } = await setUp(count, 0);
  const memory = () =>
    Number(
      /used_memory:(\d+)/.exec(
        execFileSync("redis-cli", ["-u", redis.url, "INFO", "memory"], { encoding: "utf8" }),
      )?.[1] ?? 0,
    );
  const before = memory();
  const seconds = await enqueue(redis, scenario, env, count);
  const after = memory();
  await tearDown();
  return { queued: count, seconds, redisMb: (after - before) / 1024 / 1024 };
}

const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const rows = [];
for (const workers of workerCounts) {
  const loadBefore = load();
  const row = await measure({
    workers,
    count: issues,
    latencyMs: 0,
    traced: trace && workers === 1,
    profiled: cpuProfDir !== undefined && workers === 1,
  });
  rows.push({ ...row, load: loadBefore });
  process.stderr.write(`${JSON.stringify({ ...row, trace: undefined })}\n`);
}
const slow =
  slowIssues > 0 ? await measure({ workers: 2, count: slowIssues, latencyMs: 2000 }) : null;
const queue = queued > 0 ? await measureQueue(queued) : null;

const base = rows.find((row) => row.workers === 1);
const fmt = (row) =>
  `| ${row.workers} × ${concurrency} | ${row.issues} | ${row.latencyMs} ms | ${row.closed} | ${row.seconds.toFixed(1)} s | ${row.jobsPerSecond.toFixed(2)}${base === undefined || row.latencyMs !== 0 ? "" : ` (${(row.jobsPerSecond / base.jobsPerSecond).toFixed(2)}×)`} | ${row.cpuPerIssue.toFixed(3)} | ${row.ghCallsPerIssue.toFixed(1)} × fake gh = ${row.fakeGhPerIssue.toFixed(3)} | ${(row.cpuPerIssue - row.fakeGhPerIssue).toFixed(3)} | ${row.redisPerIssue.toFixed(3)} | ${row.peakRssMb.join(", ")} MB |`;
let text = `\n${sharedDisk ? "one shared checkout" : "a machine per worker (clone, worktrees, shared bare remote, Redis journal)"}; 2 cores shared by every worker, Redis, git, the fake gh and the fake API (and anything else running: load ${rows[0]?.load ?? load()} at the start), so each worker gets at most one core\n`;
text += `| workers × concurrency | issues | model latency | closed | wall | jobs/s | CPU-s per issue (workers and their children) | of it: gh calls per issue × the fake gh | the rest: worker + git | Redis CPU-s per issue | peak RSS per worker |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n`;
text += `${[...rows, ...(slow === null ? [] : [slow])].map(fmt).join("\n")}\n`;
text += `\nworker start-up (left out above): ${rows.map((row) => `${row.startupCpuPerWorker.toFixed(2)}`).join(", ")} CPU-s per worker; one fake gh call: ${rows.map((row) => `${row.fakeGhCallMs.toFixed(0)}`).join(", ")} ms of CPU\n`;
if (slow !== null) {
  const slots = Math.min(slow.workers * concurrency, slow.issues);
  const perIssueWall = (slow.seconds * slots) / slow.issues;
  text += `\n2 s model latency: ${perIssueWall.toFixed(2)} s of a slot's wall time per issue, orchestration ${(((perIssueWall - 2) / perIssueWall) * 100).toFixed(0)} % of it\n`;
}
if (queue !== null)
  text += `\n${queue.queued} queued issues: enqueued in ${queue.seconds.toFixed(1)} s (one \`climpt orchestrate --queue\`, its start-up included), Redis memory +${queue.redisMb.toFixed(1)} MB (INFO used_memory)\n`;
for (const row of rows) {
  if (row.trace !== undefined)
    text += `\nPer issue, ${row.workers} worker (--trace: each git / gh command through /usr/bin/time):\n| command | runs | CPU | wall |\n| --- | --- | --- | --- |\n${row.trace}\n`;
}
process.stderr.write(text);
process.stdout.write(`${JSON.stringify({ rows, slow, queue })}\n`);
const complete = [...rows, ...(slow === null ? [] : [slow])].every(
  (row) => row.closed === row.issues,
);
process.exit(complete ? 0 : 1);
