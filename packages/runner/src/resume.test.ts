import { spawn } from "node:child_process";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { loadFakeScript, startFakeAnthropic, waitFor } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunResult } from "./run-result.ts";
import { EXAMPLES, fakeModel, git, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 16 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const AGENT = path.join(EXAMPLES, "agents", "fix-bug");
const CHILD = path.join(import.meta.dirname, "fixtures", "run-in-child.mjs");

function comparable(result: RunResult) {
  return {
    success: result.success,
    finalStepId: result.finalStepId,
    iterations: result.iterations,
    history: result.state.history,
    handoff: result.state.handoff,
    // The resumed run talks to a fresh server whose prompt cache is cold, so the split between
    // cache reads and writes (and so the cost) differs; the tokens themselves do not.
    inputTokens:
      result.usage.inputTokens +
      result.usage.cacheReadInputTokens +
      result.usage.cacheCreationInputTokens,
    outputTokens: result.usage.outputTokens,
  };
}

describe("resume", () => {
  it("after kill -9 in the middle of a step, --resume gives the uninterrupted result and repeats no completed model call", async () => {
    // The reference: the same run, uninterrupted.
    const reference = await (async () => {
      const repo = makeSampleRepo();
      const { client, fake } = await fakeModel("fix-bug");
      closers.push(() => fake.close());
      return new StepFlowRunner(await loadAgentDefinition(AGENT), { modelClient: client }).run({
        args: { issue: 1 },
        cwd: repo,
      });
    })();
    expect(reference.success).toBe(true);

    // The crashing run: calls 1-4 answer (the analyse step, then the implement step's Edit,
    // whose tool really runs), call 5 never answers; the process is killed while it waits.
    const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", "fix-bug.json"));
    const answered = 4;
    const first = await startFakeAnthropic();
    closers.push(() => first.close());
    first.enqueue(...script.replies.slice(0, answered), { kind: "hang" });
    const repo = makeSampleRepo();
    const child = spawn(
      process.execPath,
      [CHILD, AGENT, repo, first.url, JSON.stringify({ issue: 1 })],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    closers.push(() => {
      child.kill("SIGKILL");
    });
    let stdout = "";
    let stderr = "";
    let exitedEarly: string | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("exit", (code, signal) => {
      exitedEarly = `the child exited (${signal ?? code}): ${stderr}`;
    });
    await waitFor(() => first.messageRequests().length === answered + 1 && stdout.includes("\n"), {
      what: "the hanging call and the run id",
      failed: () => exitedEarly,
    });
    const runId = stdout.split("\n")[0] as string;
    expect(runId).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    // The Edit happened before the crash and is not committed.
    expect(git(repo, "status", "--porcelain")).toBe("M src/slugify.js");

    // Resume in a fresh process state against a fresh server holding only the remaining replies.
    const second = await startFakeAnthropic();
    closers.push(() => second.close());
    second.enqueue(...script.replies.slice(answered));
    const loaded = await loadAgentDefinition(AGENT);
    const resumed = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: second.url }),
    }).run({ resume: runId, cwd: repo });

    expect(resumed.error).toBeUndefined();
    expect(comparable(resumed)).toEqual(comparable(reference));
    expect(resumed.runId).toBe(runId);
    // No completed model call was repeated: the resumed run asked only for calls 5..14.
    expect(second.messageRequests()).toHaveLength(script.replies.length - answered);
    expect(second.pending()).toBe(0);
    expect(git(repo, "log", "--format=%s", "-1")).toBe(
      "fix: collapse and trim dashes in slugify (#1)",
    );

    const journal = readJournal(resumed.journalPath as string);
    const resume = journal.find((event) => event.type === "run_resume");
    expect(resume).toMatchObject({
      stepId: "continuation.implement",
      replayedModelCalls: 1,
      replayedToolResults: 1,
    });
    expect(journal.filter((event) => event.type === "run_start")).toHaveLength(1);
  });

  it("an interrupted run (signal) ends as AGENT_INTERRUPTED, resumable, and resumes to completion", async () => {
    const repo = makeSampleRepo();
    const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", "fix-bug.json"));
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(...script.replies.slice(0, 3), { kind: "hang" });
    const controller = new AbortController();
    const loaded = await loadAgentDefinition(AGENT);
    const runner = new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url }),
    });
    const running = runner.run({ args: { issue: 1 }, cwd: repo, signal: controller.signal });
    await waitFor(() => fake.messageRequests().length === 4, { what: "the hanging call" });
    controller.abort();
    const stopped = await running;
    expect(stopped.success).toBe(false);
    expect(stopped.error?.code).toBe("AGENT_INTERRUPTED");
    expect(stopped.resumable).toBe(true);
    expect(stopped.state.history.map((entry) => entry.stepId)).toEqual(["initial.analyze"]);

    fake.reset();
    fake.enqueue(...script.replies.slice(3));
    const resumed = await runner.run({ resume: stopped.runId, cwd: repo });
    expect(resumed.success).toBe(true);
    expect(resumed.iterations).toBe(7);
    expect(fake.messageRequests()).toHaveLength(script.replies.length - 3);
  });

  it("a token budget ends the run with AGENT_BUDGET_EXCEEDED; resuming with a bigger budget completes it", async () => {
    const repo = makeSampleRepo();
    const { client, fake } = await fakeModel("fix-bug");
    closers.push(() => fake.close());
    const runner = new StepFlowRunner(await loadAgentDefinition(AGENT), { modelClient: client });
    const stopped = await runner.run({ args: { issue: 1 }, cwd: repo, budgets: { maxTokens: 1 } });
    expect(stopped.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
    expect(stopped.error?.message).toMatch(/token budget/);
    expect(stopped.resumable).toBe(true);
    expect(stopped.iterations).toBe(1);

    const resumed = await runner.run({ resume: stopped.runId, cwd: repo });
    expect(resumed.success).toBe(true);
    expect(fake.pending()).toBe(0);
  });
});
