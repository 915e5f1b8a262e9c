/** An issue's record in Redis keeps what the orchestrator needs across passes and workers. */
import { type RedisServer, startRedisServer } from "@climpt/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { IssueRecord } from "../state/issue-record.ts";
import { connectRedis, parseQueueUrl } from "./redis-connection.ts";
import { RedisIssueStateStore } from "./redis-state-store.ts";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});

it("keeps an issue's payload, artifacts, halt and interruption count with its record", async () => {
  const client = await connectRedis(parseQueueUrl(redis.url));
  try {
    const store = new RedisIssueStateStore(client);
    const key = { repo: "acme/widgets", issue: 7, workflowId: "merge" };
    const record: IssueRecord = {
      ...key,
      history: [],
      inFlight: {
        phase: "merge-ready",
        agent: "merger",
        startedAt: "2026-01-01T00:00:00.000Z",
        runId: "run-1",
        journalPath: null,
        worktree: null,
        transition: null,
        attempts: 2,
        lastInterruption: { code: "AC-MODEL-003", message: "Overloaded." },
      },
      payload: { prNumber: 12, verdictPath: "tmp/emits/12.json" },
      artifacts: [
        { handoff: "reviewer-approved-verdict", path: "tmp/emits/12.json", content: "{}\n" },
      ],
      halted: null,
    };
    const lock = await store.lock(key);
    if (lock === null) throw new Error("not locked");
    await store.write(record, lock);
    await lock.release();
    expect(await store.read(key)).toEqual(record);
  } finally {
    client.disconnect();
  }
});
