import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  fileJournalStore,
  loadAgentDefinition,
  type RunEvent,
  readJournal,
  StepFlowRunner,
} from "@climpt/runner";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import {
  type RedisServer,
  reply,
  startFakeAnthropic,
  startRedisServer,
  waitFor,
  writeWorkflowScenario,
} from "@climpt/testing";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connectRedis, parseQueueUrl } from "./redis-connection.ts";
import { journalKey, redisJournalStore } from "./redis-journal-store.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 12 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let server: RedisServer;
let redis: Redis;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  server = await startRedisServer();
  redis = await connectRedis(parseQueueUrl(server.url));
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await redis.flushall();
});

function clone(from: string): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "climpt-machine-")), "checkout");
  execFileSync("git", ["clone", "-q", from, dir]);
  execFileSync("git", ["config", "user.name", "climpt-test"], { cwd: dir });
  execFileSync("git", ["config", "user.email", "test@climpt.invalid"], { cwd: dir });
  cleanups.push(() => rmSync(path.dirname(dir), { recursive: true, force: true }));
  return dir;
}

async function streamSeqs(agent: string, runId: string): Promise<number[]> {
  const entries = await redis.xrange(journalKey(agent, runId), "-", "+");
  return entries.map(([id]) => Number(id.split("-")[0]));
}

describe("the Redis journal store", () => {
  it("a run stopped mid-step on one machine resumes on another from the stream alone, without asking a completed call again", async () => {
    const scenario = writeWorkflowScenario();
    cleanups.push(() => scenario.remove());
    const fake = await startFakeAnthropic();
    cleanups.push(() => fake.close());
    const machineA = clone(scenario.repoDir);
    const runner = async (checkout: string): Promise<StepFlowRunner> =>
      new StepFlowRunner(await loadAgentDefinition(path.join(checkout, ".agent", "implementer")), {
        modelClient: createAnthropicClient({
          apiKey: "sk-test-key",
          baseURL: fake.url,
          maxRetries: 0,
        }),
        journalStore: redisJournalStore(redis),
      });
    const write =
      "mkdir -p notes && printf 'pass 1\\n' >> notes/issue-7.md && git add -A && git commit -qm 'issue #7'";
    fake.enqueue(reply.toolUse({ name: "Bash", input: { command: write } }), { kind: "hang" });
    const controller = new AbortController();
    const running = (await runner(machineA)).run({
      cwd: machineA,
      args: { issue: 7 },
      signal: controller.signal,
    });
    await waitFor(() => fake.messageRequests().length === 2);
    controller.abort();
    const stopped = await running;
    expect(stopped.error?.code).toBe("AGENT_INTERRUPTED");
    const before = await streamSeqs("implementer", stopped.runId);
    expect(before).toEqual(before.map((_, index) => index + 1));
    rmSync(machineA, { recursive: true, force: true });

    // Another machine: its own clone, no journal file; the run is read from Redis.
    const machineB = clone(scenario.repoDir);
    fake.reset();
    fake.enqueue(
      reply.json({
        stepId: "initial.implement",
        summary: "Recorded pass 1.",
        files: ["notes/issue-7.md"],
        next_action: { action: "next" },
      }),
      reply.json({
        stepId: "closure.implement",
        summary: "Done.",
        next_action: { action: "closing" },
      }),
    );
    const resumed = await (await runner(machineB)).run({
      cwd: machineB,
      resume: stopped.runId,
      resumeIn: machineB,
    });
    expect(resumed.error).toBeUndefined();
    expect(resumed.success).toBe(true);
    // The Bash reply came from the stream; the two later calls were the only ones asked.
    expect(fake.messageRequests()).toHaveLength(2);
    // Its tool call ran again on machine B, whose clone lacked the commit.
    expect(readFileSync(path.join(machineB, "notes/issue-7.md"), "utf8")).toBe("pass 1\n");
    const after = await streamSeqs("implementer", stopped.runId);
    expect(after).toEqual(after.map((_, index) => index + 1));
    expect(after.length).toBeGreaterThan(before.length);
    // The local file on B is the stream's copy, run_resume and run_end included.
    const local = readJournal(resumed.journalPath as string);
    expect(local.map((event) => event.seq)).toEqual(after);
    expect(local.filter((event) => event.type === "run_resume")).toHaveLength(1);
  });

  it("refuses writers that are out of step (ORC-JOURNAL-001): the stream stays the prefix written in order", async () => {
    const scenario = writeWorkflowScenario();
    cleanups.push(() => scenario.remove());
    const loaded = await loadAgentDefinition(path.join(scenario.repoDir, ".agent", "implementer"));
    const scope = (cwd: string) => ({
      cwd,
      agent: loaded.agent,
      files: fileJournalStore({ cwd, agent: loaded.agent, fsync: false }),
    });
    const first = redisJournalStore(redis)(scope(clone(scenario.repoDir)));
    const second = redisJournalStore(redis)(scope(clone(scenario.repoDir)));
    const event = (seq: number, note: string): RunEvent =>
      ({
        type: "notice",
        runId: "run-1",
        seq,
        time: new Date(0).toISOString(),
        message: note,
      }) as unknown as RunEvent;
    const a = first.create("run-1");
    a.append(event(1, "a1"));
    a.append(event(2, "a2"));
    await a.flush();
    const b = second.create("run-1");
    b.append(event(1, "b1"));
    b.append(event(2, "b2"));
    b.append(event(3, "b3"));
    // b opened the journal last but not at its end: b1 is refused, and so is every later event
    // of b, although b3 would sit at the stream's next position.
    await expect(b.flush()).rejects.toMatchObject({ code: "ORC-JOURNAL-001" });
    // a no longer owns the run once b opened it.
    a.append(event(3, "a3"));
    await expect(a.flush()).rejects.toMatchObject({ code: "ORC-JOURNAL-001" });
    a.close();
    b.close();
    const read = await second.read("run-1");
    expect(read.map((e) => (e as unknown as { message: string }).message)).toEqual(["a1", "a2"]);
  });

  it("reads a journal that only has a local file, and copies it to the stream before a resumed run appends", async () => {
    const scenario = writeWorkflowScenario();
    cleanups.push(() => scenario.remove());
    const loaded = await loadAgentDefinition(path.join(scenario.repoDir, ".agent", "implementer"));
    const cwd = clone(scenario.repoDir);
    const files = fileJournalStore({ cwd, agent: loaded.agent, fsync: false });
    const event = (seq: number): RunEvent =>
      ({
        type: "notice",
        runId: "run-2",
        seq,
        time: new Date(0).toISOString(),
        message: `n${seq}`,
      }) as unknown as RunEvent;
    const local = files.create("run-2");
    local.append(event(1));
    local.append(event(2));
    local.close();
    const store = redisJournalStore(redis)({ cwd, agent: loaded.agent, files });
    expect((await store.read("run-2")).map((e) => e.seq)).toEqual([1, 2]);
    const sink = store.reopen("run-2");
    sink.append(event(3));
    await sink.flush();
    sink.close();
    expect(await streamSeqs("implementer", "run-2")).toEqual([1, 2, 3]);
    expect(existsSync(files.locate("run-2"))).toBe(true);
  });
});
