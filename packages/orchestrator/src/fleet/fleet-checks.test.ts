import { execFileSync } from "node:child_process";
import {
  type ChecksScenario,
  type FakeAnthropic,
  type RedisServer,
  reviewReply,
  startFakeAnthropic,
  startRedisServer,
  waitFor,
  writeChecksScenario,
} from "@climpt/testing";
import { Queue } from "bullmq";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Dispatcher } from "../dispatch/dispatcher.ts";
import { GhClient } from "../github/gh-client.ts";
import { loadWorkflow } from "../load-workflow.ts";
import { enqueueIssues } from "./enqueue.ts";
import { type FleetWorker, startFleetWorker } from "./fleet-worker.ts";
import { bullConnection, connectRedis, parseQueueUrl } from "./redis-connection.ts";
import { RedisIssueStateStore } from "./redis-state-store.ts";

// A worker, Redis, real git and ~30 gh processes: the limit detects a hang.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const cleanups: (() => Promise<void> | void)[] = [];
const savedEnv = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const [name, value] of [
    ["ANTHROPIC_API_KEY", savedEnv.key],
    ["ANTHROPIC_BASE_URL", savedEnv.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

/** Issue 1 already in `ci`: its branch pushed to origin, its pull request open. */
function scenarioInCi(): ChecksScenario {
  const scenario = writeChecksScenario({
    issues: [1],
    checks: { timeoutMinutes: 5, pollSeconds: 1, maxFixAttempts: 1 },
    script: { "reviewer#1": [reviewReply("approved")] },
  });
  cleanups.push(() => scenario.remove());
  git(scenario.repoDir, "checkout", "-q", "-b", "climpt/issue-1");
  git(scenario.repoDir, "commit", "-q", "--allow-empty", "-m", "widgets: issue #1");
  git(scenario.repoDir, "push", "-q", "origin", "climpt/issue-1");
  git(scenario.repoDir, "checkout", "-q", "main");
  execFileSync(
    scenario.gh.ghPath,
    ["pr", "create", "--head", "climpt/issue-1", "--title", "Issue 1", "--body", "Closes #1"],
    { cwd: scenario.repoDir, env: { ...process.env, ...scenario.gh.env }, stdio: "ignore" },
  );
  scenario.gh.update((state) => {
    const issue = state.repos["acme/widgets"]?.issues.find((candidate) => candidate.number === 1);
    if (issue !== undefined) issue.labels = ["kind:ci"];
  });
  return scenario;
}

describe("the fleet follows a pull request's CI with delayed jobs", () => {
  it("puts an issue whose checks are pending back as a delayed job, holding no worker, and moves it on once they pass", async () => {
    const redis: RedisServer = await startRedisServer();
    cleanups.push(() => redis.stop());
    const url = parseQueueUrl(redis.url);
    const fake: FakeAnthropic = await startFakeAnthropic();
    cleanups.push(() => fake.close());
    const scenario = scenarioInCi();
    fake.setHandler(scenario.model.handler);
    process.env.ANTHROPIC_API_KEY = "sk-test-key";
    process.env.ANTHROPIC_BASE_URL = fake.url;
    scenario.gh.scriptChecks("climpt/issue-1", [[{ name: "test", conclusion: "pending" }]]);
    const env = { ...process.env, ...scenario.gh.env };
    const loaded = await loadWorkflow(scenario.repoDir);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    const redisClient = await connectRedis(url);
    cleanups.push(() => redisClient.disconnect());
    const store = new RedisIssueStateStore(redisClient);
    const unused: Dispatcher = {
      dispatch: () => Promise.reject(new Error("the enqueuer dispatches nothing")),
    };
    const enqueued = await enqueueIssues(
      {
        workflow: loaded.value.workflow,
        gh: new GhClient({ cwd: scenario.repoDir, env }),
        dispatcher: unused,
        store,
        repo: "acme/widgets",
      },
      { queueUrl: url, checkout: scenario.repoDir, workflowPath: ".agent/workflow.json" },
    );
    expect(enqueued.jobs.map((job) => `${job.id} ${job.action} ${job.phase}`)).toEqual([
      "acme/widgets#1 added ci",
    ]);
    const lines: string[] = [];
    const worker: FleetWorker = await startFleetWorker({
      queueUrl: url,
      concurrency: 1,
      checkouts: { "acme/widgets": scenario.repoDir },
      env,
      ghCommand: scenario.gh.ghPath,
      worktreeRoot: scenario.worktreeRoot,
      lockDurationMs: 6_000,
      leaseMs: 6_000,
      stalledIntervalMs: 3_000,
      log: (line) => lines.push(line),
    });
    cleanups.push(() => worker.close());
    const queue = new Queue("climpt-issues", { connection: bullConnection(url) });
    cleanups.push(() => queue.close());
    const reads = () =>
      scenario.gh.calls().filter((call) => call.argv[0] === "pr" && call.argv[1] === "checks")
        .length;
    const key = { repo: "acme/widgets", issue: 1, workflowId: "default" };

    // Two reads of the checks, each by a job run that ended as a delayed job.
    await waitFor(
      async () => reads() >= 2 && (await queue.getJobState("acme/widgets#1")) === "delayed",
      {
        what: "the job delayed after its second read of the checks",
        limitMs: 120_000,
      },
    );
    const job = await queue.getJob("acme/widgets#1");
    expect(job?.delay).toBeGreaterThan(0);
    expect(job?.delay).toBeLessThanOrEqual(1_000);
    expect(await queue.getActiveCount()).toBe(0);
    const record = await store.read(key);
    expect(record?.checksWait).toMatchObject({ phase: "ci", number: 2, attempts: 0 });
    const since = record?.checksWait?.since;
    expect(lines.some((line) => line.includes("waiting for the pull request's checks"))).toBe(true);
    expect(fake.messageRequests()).toHaveLength(0);

    // CI passes: the job comes back, the issue goes to review, the reviewer approves and closes.
    scenario.gh.update((state) => {
      for (const run of state.repos["acme/widgets"]?.checkRuns ?? []) {
        run.plan = "success";
        run.pollsUntilDone = 0;
      }
    });
    await waitFor(() => scenario.gh.issue(1)?.state === "CLOSED", {
      what: "issue 1 reviewed and closed",
      limitMs: 120_000,
    });
    expect(scenario.gh.issue(1)?.labels).toContain("done");
    expect(fake.messageRequests()).toHaveLength(1);
    expect(since).toBeDefined();
    expect((await store.read(key))?.checksWait ?? null).toBeNull();
  });
});
