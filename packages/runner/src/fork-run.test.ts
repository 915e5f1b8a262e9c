import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { LoadedAgent } from "@climpt/model";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { loadFakeScript, startFakeAnthropic } from "@climpt/testing";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunEvent } from "./run-event.ts";
import type { RunResult } from "./run-result.ts";
import { EXAMPLES, fakeModel, git, makeSampleRepo } from "./runner.test-helper.ts";
import { RunnerError } from "./runner-error.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): a source run and a fork of the demo, about 25 s at load 20.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

let loaded: LoadedAgent;
beforeAll(async () => {
  loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "fix-bug"));
});

/** The demo run, through the real SDK and the fake API: 7 iterations, completed. */
async function sourceRun(): Promise<{ repo: string; result: RunResult }> {
  const repo = makeSampleRepo();
  const { client, fake } = await fakeModel("fix-bug");
  closers.push(() => fake.close());
  const result = await new StepFlowRunner(loaded, { modelClient: client }).run({
    args: { issue: 1 },
    cwd: repo,
  });
  expect(result.success).toBe(true);
  return { repo, result };
}

/** Removes a fork's worktree (kept when it failed) once the test is done. */
function cleanUpWorktree(repo: string, worktree: string | undefined): void {
  closers.push(() => {
    if (worktree === undefined || !existsSync(worktree)) return;
    git(repo, "worktree", "remove", "--force", worktree);
    rmSync(worktree, { recursive: true, force: true });
  });
}

describe("a fork of the fix-bug demo", () => {
  it("starts at the implement step from the source's snapshot, asks nothing of the steps before, and leaves the source alone", async () => {
    const { repo, result: source } = await sourceRun();
    const journal = source.journalPath as string;
    const sourceBytes = readFileSync(journal);
    const branchesBefore = git(repo, "for-each-ref", "refs/heads");

    // The fork's model: the demo's replies from the implement step on (the first three were
    // the analysis, which the fork must not ask for).
    const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", "fix-bug.json"));
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(...script.replies.slice(3));
    const events: RunEvent[] = [];
    const forked = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0 }),
      onEvent: (event) => events.push(event),
    }).run({
      cwd: repo,
      fork: { runId: source.runId, at: "continuation.implement" },
      args: { issue: 42 },
      model: "haiku",
    });
    cleanUpWorktree(repo, forked.worktree?.path);

    expect(forked.error).toBeUndefined();
    expect(forked.success).toBe(true);
    expect(forked.runId).not.toBe(source.runId);
    expect(forked.iterations).toBe(7);
    // Exactly the requests of iterations 2–7; the first is the implement step's, with the new
    // issue number, the source's analysis in its handoff and the new model.
    const requests = fake.messageRequests();
    expect(requests).toHaveLength(script.replies.length - 3);
    const first = JSON.stringify(requests[0]?.body);
    expect(first).toContain("implement the fix (issue #42)");
    expect(first).toContain("Replace each run of non-alphanumeric characters");
    expect((requests[0]?.body as { model?: string } | undefined)?.model).toMatch(/haiku/);
    expect(requests.some((request) => JSON.stringify(request.body).includes("analyse"))).toBe(
      false,
    );

    // Its journal: run_start with forkedFrom, the source's first step end copied, then its own.
    const own = readJournal(forked.journalPath as string);
    const start = own[0];
    expect(start?.type === "run_start" && start.forkedFrom).toMatchObject({
      runId: source.runId,
      iteration: 2,
      stepId: "continuation.implement",
    });
    const ends = own.filter((event) => event.type === "step_end");
    expect(ends.map((end) => end.type === "step_end" && end.inheritedFrom)).toEqual([
      source.runId,
      ...Array(6).fill(undefined),
    ]);
    expect(own.some((event) => event.type === "model_request" && event.iteration === 1)).toBe(
      false,
    );
    expect(
      events.filter((event) => event.type === "tool_call").map((e) => e.iteration),
    ).not.toContain(1);

    // The source is untouched: its journal byte for byte, its branches; its snapshots still there.
    expect(readFileSync(journal)).toEqual(sourceBytes);
    expect(git(repo, "for-each-ref", "refs/heads").split("\n")).toEqual(
      expect.arrayContaining(branchesBefore.split("\n")),
    );
    expect(git(repo, "branch", "--list", "main", "--format=%(objectname)")).toBe(
      branchesBefore.split("\n")[0]?.split(" ")[0],
    );
    // The fork's work is on its own branch (not merged: a fork is compared, not landed).
    const branch = forked.worktree?.branch as string;
    expect(forked.worktree?.merged).toBe(false);
    expect(git(repo, "log", "--format=%s", "-1", branch)).toBe(
      "fix: collapse and trim dashes in slugify (#1)",
    );
    expect(
      git(repo, "for-each-ref", "--format=%(refname)", `refs/climpt/${forked.runId}/`),
    ).toContain(`refs/climpt/${forked.runId}/1-initial.analyze`);
  });

  it("restores what the source left uncommitted as uncommitted: the git-clean validator refuses the fork's first closing as it refused the source's", async () => {
    const { repo, result: source } = await sourceRun();
    const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", "fix-bug.json"));
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    // From the verify step on: the fix the implement step made is in the snapshot, uncommitted.
    fake.enqueue(...script.replies.slice(6));
    const forked = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0 }),
    }).run({ cwd: repo, fork: { runId: source.runId, at: 3 } });
    cleanUpWorktree(repo, forked.worktree?.path);

    expect(forked.error).toBeUndefined();
    expect(forked.state.history.map((entry) => entry.transition)).toEqual(
      source.state.history.map((entry) => entry.transition),
    );
    expect(fake.messageRequests()).toHaveLength(script.replies.length - 6);
    const branch = forked.worktree?.branch as string;
    // The branch started at the commit the source had checked out, and holds the fork's commit.
    expect(git(repo, "rev-list", "--count", branch)).toBe("2");
  });

  it("is resumed like any run: its inherited step ends fold with its own", async () => {
    const { repo, result: source } = await sourceRun();
    const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", "fix-bug.json"));
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(...script.replies.slice(3));
    const runner = new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0 }),
    });
    // Stopped once the fork's own implement step has ended.
    const stop = new AbortController();
    const off = runner.on((event) => {
      if (event.type === "step_end" && event.iteration === 2) stop.abort();
    });
    const first = await runner.run({
      cwd: repo,
      fork: { runId: source.runId, at: 2 },
      signal: stop.signal,
    });
    off();
    cleanUpWorktree(repo, first.worktree?.path);
    expect(first.error?.code).toBe("AGENT_INTERRUPTED");
    expect(first.resumable).toBe(true);

    const resumed = await runner.run({ cwd: repo, resume: first.runId });
    expect(resumed.error).toBeUndefined();
    expect(resumed.success).toBe(true);
    expect(resumed.iterations).toBe(7);
    expect(resumed.state.history.map((entry) => entry.stepId)).toEqual(
      source.state.history.map((entry) => entry.stepId),
    );
    // Every reply served once: none asked twice, none for the inherited analysis.
    expect(fake.messageRequests()).toHaveLength(script.replies.length - 3);
    expect(resumed.worktree?.merged).toBe(false);
  });

  it("refuses an unknown run, a point past the end, an undeclared parameter and a point without a snapshot", async () => {
    const { repo, result: source } = await sourceRun();
    const runner = new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9" }),
    });
    const refusal = async (options: Parameters<StepFlowRunner["run"]>[0]) => {
      try {
        await runner.run({ cwd: repo, ...options });
      } catch (error) {
        return error as RunnerError & { problems?: unknown };
      }
      throw new Error("the fork was not refused");
    };
    const unknown = await refusal({ fork: { runId: "20990101T000000Z-000000", at: 2 } });
    expect(RunnerError.isInstance(unknown) && unknown.code).toBe("RUN-FORK-001");
    const past = await refusal({ fork: { runId: source.runId, at: 8 } });
    expect(RunnerError.isInstance(past) && past.code).toBe("RUN-FORK-002");
    expect(past.message).toContain("never reached iteration 8");
    const noStep = await refusal({ fork: { runId: source.runId, at: "closure.nothing" } });
    expect(RunnerError.isInstance(noStep) && noStep.code).toBe("RUN-FORK-002");
    const param = await refusal({ fork: { runId: source.runId, at: 2 }, args: { isue: 3 } });
    expect(JSON.stringify(param)).toContain("RUN-ARGS-001");

    // A journal from before snapshots: the same run with its snapshot fields taken out.
    const journal = source.journalPath as string;
    const old = readFileSync(journal, "utf8").replace(/,"snapshot":"[0-9a-f]+"/g, "");
    const oldId = "20260101T000000Z-0a0a0a";
    const oldFile = path.join(path.dirname(journal), `${oldId}.jsonl`);
    const rewritten = old.replaceAll(source.runId, oldId);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(oldFile, rewritten);
    const noSnapshot = await refusal({ fork: { runId: oldId, at: 2 } });
    expect(RunnerError.isInstance(noSnapshot) && noSnapshot.code).toBe("RUN-FORK-003");
    // Nothing was made for any of them: no worktree, no branch beyond main.
    expect(git(repo, "worktree", "list").split("\n")).toHaveLength(1);
    expect(git(repo, "for-each-ref", "--format=%(refname)", "refs/heads")).toBe("refs/heads/main");
  });
});
