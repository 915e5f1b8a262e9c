import { execFileSync } from "node:child_process";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import {
  type FakeAnthropic,
  type RedisServer,
  type ScenarioMachine,
  startFakeAnthropic,
  startRedisServer,
  type WorkflowScenario,
  writeWorkflowScenario,
} from "@climpt/testing";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RunnerDispatcher } from "../dispatch/runner-dispatcher.ts";
import { connectRedis, parseQueueUrl } from "../fleet/redis-connection.ts";
import { redisJournalStore } from "../fleet/redis-journal-store.ts";
import { issueLockKey, issueStateKey, RedisIssueStateStore } from "../fleet/redis-state-store.ts";
import { redisStepCommits } from "../fleet/redis-step-commits.ts";
import { GhClient } from "../github/gh-client.ts";
import { syncLabels } from "../github/label-sync.ts";
import { LocalModelLimiter } from "../limiter/local-limiter.ts";
import { loadWorkflow } from "../load-workflow.ts";
import { type OrchestratorContext, orchestrateIssue } from "../orchestrate/orchestrate-issue.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 27 s at load 13–25.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let redis: RedisServer;
let client: Redis;
let scenario: WorkflowScenario;
let fake: FakeAnthropic;

beforeAll(async () => {
  redis = await startRedisServer();
  client = await connectRedis(parseQueueUrl(redis.url));
  scenario = writeWorkflowScenario();
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
  await fake.close();
  scenario.remove();
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

/** One machine of a fleet: its own clone and worktrees, the journal and issue records in Redis. */
async function machineContext(machine: ScenarioMachine): Promise<OrchestratorContext> {
  const loaded = await loadWorkflow(machine.checkout);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const env = { ...process.env, ...scenario.gh.env };
  return {
    workflow: loaded.value.workflow,
    gh: new GhClient({ cwd: scenario.repoDir, env }),
    dispatcher: new RunnerDispatcher({
      repoDir: machine.checkout,
      worktreeRoot: machine.worktreeRoot,
      remote: "origin",
      journalStore: redisJournalStore(client),
      stepCommits: redisStepCommits(client),
      limiter: new LocalModelLimiter({ maxConcurrent: 2 }),
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
      runner: { env, ghCommand: scenario.gh.ghPath },
    }),
    store: new RedisIssueStateStore(client, 30_000),
    repo: scenario.repo,
  };
}

describe("a run whose step ended but whose branch was not pushed, resumed on another machine", () => {
  it("runs that step again there (its replies from the journal, its tools live), so the branch gets the step's changes and no model call is repeated", async () => {
    const first = scenario.machine("a");
    const second = scenario.machine("b");
    const remote = git(first.checkout, "remote", "get-url", "origin");
    // Machine a loses its way to the remote while the implementer's first step (which commits
    // notes/issue-1.md) waits for its reply: the step ends, is journaled, and its push fails —
    // the state a worker killed between a step end and its push leaves behind.
    fake.setHandler((request) => {
      const answer = scenario.model.handler(request);
      const served = scenario.model.served.at(-1);
      if (served?.key === "implementer#1" && served.index === 1 && !served.repeat)
        git(first.checkout, "remote", "set-url", "--push", "origin", `${remote}-unreachable`);
      return answer;
    });
    const onFirst = await machineContext(first);
    expect((await syncLabels(onFirst.gh, onFirst.workflow)).ok).toBe(true);
    const stopped = await orchestrateIssue(onFirst, 1);
    expect(stopped).toMatchObject({
      status: "interrupted",
      phase: "implementing",
      error: { code: "RUN-STEP-HOOK-001" },
    });
    // The journal holds the step's end; the shared branch does not hold its commit.
    expect(git(first.checkout, "log", "--format=%s", "climpt/issue-1")).toContain("pass 1");
    expect(git(remote, "log", "--format=%s", "climpt/issue-1")).not.toContain("pass 1");

    const resumed = await orchestrateIssue(await machineContext(second), 1);
    expect(resumed, JSON.stringify(resumed)).toMatchObject({ status: "completed", phase: "done" });
    expect(resumed.resumed).toEqual([stopped.runs.at(-1)]);
    // The step ran again on machine b: its commit is on the shared branch, with its file.
    expect(git(remote, "log", "--format=%s", "main..climpt/issue-1").split("\n")).toEqual([
      "widgets: issue #1, pass 1",
    ]);
    expect(git(remote, "show", "climpt/issue-1:notes/issue-1.md")).toBe("Issue 1, pass 1");
    // Its model replies were served from the journal: every scripted call was made once.
    expect(scenario.model.repeatedCompletedCalls(fake.requests)).toBe(0);
    expect(
      scenario.model.served
        .filter((call) => call.key === "implementer#1")
        .map((call) => `${call.index}${call.repeat ? " again" : ""}`),
    ).toEqual(["0", "1", "2"]);
    expect(scenario.gh.issue(1)?.state).toBe("CLOSED");
  });
});

describe("a run whose issue lock is lost right before a step end", () => {
  it("does not push the step: the shared branch is the next holder's", async () => {
    const machine = scenario.machine("c");
    const remote = git(machine.checkout, "remote", "get-url", "origin");
    const context = await machineContext(machine);
    const key = { repo: context.repo, issue: 6, workflowId: context.workflow.id };
    let recordBefore: string | null = null;
    // The lease is gone while the implementer's first step waits for its last reply; the reply
    // then ends the step, and the step-end hook is where the loss is found (or the renewal,
    // if it comes first: then the run stops before the step ends). Either way: no push.
    fake.setHandler(async (request) => {
      const answer = scenario.model.handler(request);
      const served = scenario.model.served.at(-1);
      if (served?.key === "implementer#6" && served.index === 1) {
        recordBefore = await client.get(issueStateKey(key));
        await client.del(issueLockKey(key));
      }
      return answer;
    });
    const writes = (): number =>
      scenario.gh
        .calls()
        .filter(
          (call) => call.argv[1] !== "view" && call.argv[1] !== "list" && call.argv.includes("6"),
        ).length;
    const writesBefore = writes();
    const result = await orchestrateIssue(context, 6);
    expect(result).toMatchObject({
      status: "interrupted",
      phase: "implementing",
      error: { code: "ORC-STATE-003" },
    });
    // The branch was never pushed (no step of #6 ended while its lock was held).
    expect(() => git(remote, "rev-parse", "--verify", "-q", "refs/heads/climpt/issue-6")).toThrow();
    expect(
      scenario.model.served
        .filter((call) => call.key === "implementer#6")
        .map((call) => call.index),
    ).toEqual([0, 1]);
    expect(writes()).toBe(writesBefore);
    expect(recordBefore).not.toBeNull();
    expect(await client.get(issueStateKey(key))).toBe(recordBefore);
  });
});
