import { type FakeGh, installFakeGh, type RedisServer, startRedisServer } from "@climpt/testing";
import { Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GhClient } from "../github/gh-client.ts";
import type { ModelRequestLimiter } from "../limiter/model-limiter.ts";
import { ScriptedDispatcher } from "../orchestrate/dispatcher.test-helper.ts";
import type { IssueLock } from "../state/issue-record.ts";
import { pipeline } from "../workflows.test-helper.ts";
import { enqueueIssues } from "./enqueue.ts";
import { fleetStatus } from "./fleet-status.ts";
import { bullConnection, connectRedis, parseQueueUrl } from "./redis-connection.ts";
import { RedisModelLimiter } from "./redis-limiter.ts";
import { issueLockKey, issueStateKey, RedisIssueStateStore } from "./redis-state-store.ts";
import { RepoSlots, repoCapKey } from "./repo-slots.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 11 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let redis: RedisServer;
let url: URL;
const clients: Redis[] = [];
const fakes: FakeGh[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  url = parseQueueUrl(redis.url);
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  const client = await connectRedis(url);
  await client.flushall();
  client.disconnect();
  for (const open of clients.splice(0)) open.disconnect();
  for (const fake of fakes.splice(0)) fake.remove();
});

async function client(): Promise<Redis> {
  const connected = await connectRedis(url);
  clients.push(connected);
  return connected;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function peak(
  limiters: readonly ModelRequestLimiter[],
  each: number,
  holdMs: number,
): Promise<number> {
  let active = 0;
  let most = 0;
  await Promise.all(
    limiters.flatMap((limiter) =>
      Array.from({ length: each }, async () => {
        const permit = await limiter.acquire();
        active++;
        most = Math.max(most, active);
        await sleep(holdMs);
        active--;
        await permit.done({ kind: "ok" });
      }),
    ),
  );
  return most;
}

describe("the model-request limiter shared through Redis", () => {
  it("holds two workers to one limit", async () => {
    const a = new RedisModelLimiter(await client(), { maxConcurrent: 2 });
    const b = new RedisModelLimiter(await client(), { maxConcurrent: 2 });
    expect(await peak([a, b], 4, 40)).toBe(2);
    expect(await a.stats()).toMatchObject({ active: 0, limit: 2 });
  });

  it("pauses every worker when one is throttled, and narrows the limit for all", async () => {
    const a = new RedisModelLimiter(await client(), { maxConcurrent: 4 });
    const b = new RedisModelLimiter(await client(), { maxConcurrent: 4 });
    await (await a.acquire()).done({ kind: "throttled", retryAfterMs: 400 });
    const started = Date.now();
    const permit = await b.acquire();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await permit.done({ kind: "ok" });
    expect(await b.stats()).toMatchObject({ limit: 2, throttled: 1 });
  });

  it("frees the slot of a worker that died holding it once its lease ends", async () => {
    const dying = await client();
    await new RedisModelLimiter(dying, { maxConcurrent: 1, leaseMs: 300 }).acquire();
    dying.disconnect();
    const survivor = new RedisModelLimiter(await client(), { maxConcurrent: 1 });
    const permit = await survivor.acquire();
    await permit.done({ kind: "ok" });
  });
});

describe("per-repository slots and issue locks in Redis", () => {
  it("caps a repository across workers at the cap the enqueuer stored, and frees a dead worker's slot after its lease", async () => {
    const setup = await client();
    await setup.set(repoCapKey("acme/widgets"), "1");
    const dying = await client();
    const first = await new RepoSlots(dying, 0, 300).acquire("acme/widgets", "acme/widgets#1");
    expect(first).not.toBeNull();
    const other = new RepoSlots(await client(), 0, 300);
    expect(await other.acquire("acme/widgets", "acme/widgets#2")).toBeNull();
    expect(await other.acquire("acme/other", "acme/other#2")).not.toBeNull();
    dying.disconnect();
    await sleep(450);
    const second = await other.acquire("acme/widgets", "acme/widgets#2");
    expect(second).not.toBeNull();
    expect(await other.inUse("acme/widgets")).toBe(1);
    await second?.release();
    expect(await other.inUse("acme/widgets")).toBe(0);
  });

  it("keeps issue records every worker reads, and one lock per issue that a dead holder loses after its lease", async () => {
    const key = { repo: "acme/widgets", issue: 3, workflowId: "default" };
    const dying = await client();
    const a = new RedisIssueStateStore(dying, 300);
    const b = new RedisIssueStateStore(await client(), 300);
    await a.write({ ...key, history: [], inFlight: null });
    expect(await b.read(key)).toEqual({ ...key, history: [], inFlight: null });
    expect(await a.lock(key)).not.toBeNull();
    expect(await b.lock(key)).toBeNull();
    dying.disconnect();
    await sleep(450);
    const lock = await b.lock(key);
    expect(lock).not.toBeNull();
    await lock?.release();
    const raw = await client();
    await raw.set("climpt:issue:default:acme/widgets#4", "{not json");
    await expect(b.read({ ...key, issue: 4 })).rejects.toMatchObject({ code: "ORC-STATE-001" });
  });

  it("tells a live holder at once when its lock lapses or is taken, and refuses its record writes from then on", async () => {
    const raw = await client();
    // A lease a loaded machine does not lose by itself between two lines; renewed every 2.5 s.
    const store = new RedisIssueStateStore(await client(), 10_000);
    const lost = (lock: IssueLock): Promise<unknown> =>
      new Promise((resolve) =>
        lock.lost.aborted
          ? resolve(lock.lost.reason)
          : lock.lost.addEventListener("abort", () => resolve(lock.lost.reason)),
      );
    const taken = { repo: "acme/widgets", issue: 5, workflowId: "default" };
    const held = await store.lock(taken);
    if (held === null) throw new Error("the lock was not taken");
    // While held: confirmed, and a fenced write lands.
    expect(await held.confirm()).toBe(true);
    await store.write({ ...taken, history: [], inFlight: null }, held);
    expect(held.lost.aborted).toBe(false);
    // Another worker takes the issue: the renewal finds its token, and the holder is told.
    await raw.set(issueLockKey(taken), "another-worker", "PX", 600_000);
    expect(String(await lost(held))).toContain("another worker took the issue");
    expect(await held.confirm()).toBe(false);
    const record = { ...taken, history: [], inFlight: null, note: "late" };
    await expect(store.write(record, held)).rejects.toMatchObject({ code: "ORC-STATE-003" });
    expect(JSON.parse((await raw.get(issueStateKey(taken))) ?? "null")).not.toHaveProperty("note");
    await held.release();
    expect(await raw.get(issueLockKey(taken))).toBe("another-worker");

    // The lease runs out without anyone taking it (the key is gone): lost as well, and a write
    // fenced by it is refused even before the renewal noticed.
    const lapsed = { ...taken, issue: 6 };
    const second = await store.lock(lapsed);
    if (second === null) throw new Error("the lock was not taken");
    await raw.del(issueLockKey(lapsed));
    await expect(
      store.write({ ...lapsed, history: [], inFlight: null }, second),
    ).rejects.toMatchObject({
      code: "ORC-STATE-003",
    });
    expect(second.lost.aborted).toBe(true);
    expect(await raw.get(issueStateKey(lapsed))).toBeNull();
    const third = await store.lock({ ...lapsed, issue: 7 });
    if (third === null) throw new Error("the lock was not taken");
    await raw.del(issueLockKey({ ...lapsed, issue: 7 }));
    expect(String(await lost(third))).toContain("lease ran out");
  });

  it("reports a Redis that cannot be reached, and a URL that is not Redis, with codes", async () => {
    await expect(connectRedis(new URL("redis://127.0.0.1:1"), 1_000)).rejects.toMatchObject({
      code: "ORC-QUEUE-001",
    });
    expect(() => parseQueueUrl("http://example.com")).toThrow(
      expect.objectContaining({ code: "ORC-QUEUE-002" }),
    );
  });
});

describe("enqueueing issues", () => {
  function context(labels: Record<number, string[]>) {
    const fake = installFakeGh({
      repo: "acme/widgets",
      issues: Object.entries(labels).map(([number, issueLabels]) => ({
        number: Number(number),
        title: `issue ${number}`,
        labels: issueLabels,
      })),
    });
    fakes.push(fake);
    const dispatcher = new ScriptedDispatcher({});
    return {
      fake,
      dispatcher,
      context: {
        workflow: pipeline(),
        gh: new GhClient({ cwd: fake.dir, env: { ...process.env, ...fake.env } }),
        dispatcher,
        store: new RedisIssueStateStore(clients[0] as Redis),
        repo: "acme/widgets",
      },
    };
  }

  it("adds one job per issue with an actionable phase, id <repo>#<issue>, in the prioritizer's order, never twice while one waits", async () => {
    await client();
    const { context: ctx, dispatcher } = context({
      1: ["kind:impl"],
      2: ["kind:review"],
      3: ["done"],
      4: ["needs-triage"],
    });
    dispatcher.prioritizeOutput = {
      priorities: [
        { issue: 4, priority: "order:1" },
        { issue: 2, priority: "order:3" },
      ],
    };
    const options = {
      queueUrl: url,
      checkout: "/repo",
      workflowPath: ".agent/workflow.json",
      prioritize: true,
      repoConcurrency: 2,
    };
    const first = await enqueueIssues(ctx, options);
    expect(first.status).toBe("completed");
    expect(first.jobs.map((job) => `${job.id} ${job.action} ${job.phase}`)).toEqual([
      "acme/widgets#4 added inbox",
      "acme/widgets#2 added reviewing",
      "acme/widgets#1 added implementing",
      "acme/widgets#3 skipped done",
    ]);
    const queue = new Queue("climpt-issues", { connection: bullConnection(url) });
    const waiting = await queue.getJobs(["prioritized", "waiting"]);
    expect(waiting.map((job) => `${job.id}:${job.priority}`).sort()).toEqual([
      "acme/widgets#1:4",
      "acme/widgets#2:3",
      "acme/widgets#4:1",
    ]);
    expect(waiting.find((job) => job.id === "acme/widgets#4")?.data).toMatchObject({
      version: 1,
      repo: "acme/widgets",
      issue: 4,
      workflowId: "default",
      checkout: "/repo",
    });
    expect(await (clients[0] as Redis).get(repoCapKey("acme/widgets"))).toBe("2");

    const second = await enqueueIssues(ctx, { ...options, prioritize: false });
    expect(second.jobs.filter((job) => job.action !== "skipped").map((job) => job.action)).toEqual([
      "queued",
      "queued",
      "queued",
    ]);
    let status = await fleetStatus({ queueUrl: url });
    expect((status.counts.prioritized ?? 0) + (status.counts.waiting ?? 0)).toBe(3);

    // A worker finishes them; a finished job is replaced, so a later pass can take the issue further.
    const worker = new Worker(
      "climpt-issues",
      async (job) => ({ issue: job.data.issue, status: "blocked", phase: "blocked" }),
      {
        connection: bullConnection(url),
        name: "test-worker",
      },
    );
    const deadline = Date.now() + 60_000;
    while (((await queue.getJobCounts("completed")).completed ?? 0) < 3 && Date.now() < deadline)
      await sleep(50);
    await worker.close();
    status = await fleetStatus({ queueUrl: url });
    expect(status.counts.completed).toBe(3);
    expect(status.jobs.find((entry) => entry.id === "acme/widgets#4")).toMatchObject({
      repo: "acme/widgets",
      issue: 4,
      state: "completed",
      status: "blocked",
      worker: "test-worker",
    });
    const third = await enqueueIssues(ctx, { ...options, prioritize: false });
    expect(third.jobs.filter((job) => job.action !== "skipped").map((job) => job.action)).toEqual([
      "re-added",
      "re-added",
      "re-added",
    ]);
    await queue.close();
  });
});
