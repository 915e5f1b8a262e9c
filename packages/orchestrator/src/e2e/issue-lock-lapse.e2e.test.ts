import { type RedisServer, reply, startRedisServer, waitFor } from "@climpt/testing";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connectRedis, parseQueueUrl } from "../fleet/redis-connection.ts";
import { issueLockKey, issueStateKey, RedisIssueStateStore } from "../fleet/redis-state-store.ts";
import { syncLabels } from "../github/label-sync.ts";
import { type OrchestratorContext, orchestrateIssue } from "../orchestrate/orchestrate-issue.ts";
import { type Harness, startHarness } from "./scenario-harness.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 18 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let redis: RedisServer;
let client: Redis;
const harnesses: Harness[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  client = await connectRedis(parseQueueUrl(redis.url));
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
  await client.flushall();
});

/** gh calls that change an issue. */
function ghWrites(harness: Harness): string[] {
  return harness.scenario.gh
    .calls()
    .filter(
      (call) =>
        call.argv[0] === "issue" && ["edit", "comment", "close"].includes(call.argv[1] ?? ""),
    )
    .map((call) => call.argv.join(" "));
}

describe("a worker whose issue lock lapses while its run goes on", () => {
  it("stops the run at once, makes no further model call, writes no label, comment or record for the issue, and leaves the run for the next holder to resume", async () => {
    const started = await startHarness();
    harnesses.push(started);
    const { scenario, fake } = started;
    // The implementer's second call of issue #1 never gets an answer: only the lock's loss can
    // end the run while it waits (a stop from the test would end it too, so there is none).
    fake.setHandler((request) => {
      const answer = scenario.model.handler(request);
      const served = scenario.model.served.at(-1);
      if (served?.key === "implementer#1" && served.index === 1 && !served.repeat)
        return reply.hang();
      return answer;
    });
    // A lease long enough that a loaded machine does not lose it by itself.
    const store = new RedisIssueStateStore(client, 30_000);
    const context: OrchestratorContext = { ...(await started.context()), store };
    expect((await syncLabels(context.gh, context.workflow)).ok).toBe(true);
    const key = { repo: context.repo, issue: 1, workflowId: context.workflow.id };

    const first = orchestrateIssue(context, 1);
    await waitFor(() =>
      scenario.model.served.some((call) => call.key === "implementer#1" && call.index === 1),
    );
    const requestsBefore = fake.messageRequests().length;
    const writesBefore = ghWrites(started);
    const issueBefore = scenario.gh.issue(1);
    const recordBefore = await client.get(issueStateKey(key));
    expect(JSON.parse(recordBefore ?? "null")).toMatchObject({
      inFlight: { phase: "implementing", agent: "implementer" },
    });
    // Another worker takes the issue: the lease this one holds is gone for real.
    await client.set(issueLockKey(key), "another-worker", "PX", 600_000);

    const stopped = await first;
    expect(stopped).toMatchObject({
      status: "interrupted",
      phase: "implementing",
      error: { code: "ORC-STATE-003" },
    });
    // Nothing more was asked of the model for the issue, nothing written on GitHub or in Redis,
    // and the other worker's lock is left alone.
    expect(fake.messageRequests()).toHaveLength(requestsBefore);
    expect(ghWrites(started)).toEqual(writesBefore);
    expect(scenario.gh.issue(1)).toEqual(issueBefore);
    expect(await client.get(issueStateKey(key))).toBe(recordBefore);
    expect(await client.get(issueLockKey(key))).toBe("another-worker");

    // The other worker goes away; the next holder resumes the run from its journal.
    await client.del(issueLockKey(key));
    const second = await orchestrateIssue({ ...(await started.context()), store }, 1);
    expect(second.status).toBe("completed");
    expect(second.resumed).toEqual([stopped.runs.at(-1)]);
    expect(scenario.model.repeatedCompletedCalls(fake.requests)).toBe(0);
    expect(
      scenario.model.served
        .filter((call) => call.key === "implementer#1")
        .map((call) => `${call.index}${call.repeat ? " again" : ""}`),
    ).toEqual(["0", "1", "1 again", "2"]);
    expect(scenario.gh.issue(1)?.state).toBe("CLOSED");
  });
});
