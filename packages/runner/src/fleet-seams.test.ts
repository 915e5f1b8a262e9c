import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { startFakeAnthropic, waitFor } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { intentReply, type TestAgentSpec, writeTestAgent } from "./agents.test-helper.ts";
import type { JournalSink } from "./journal/journal-sink.ts";
import type { JournalStore, JournalStoreFactory } from "./journal/journal-store.ts";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunnerOptions, StepEndNotice } from "./run/run-options.ts";
import type { RunEvent } from "./run-event.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 6 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// The seams a fleet of workers uses: a journal store of the caller's (a worker on another
// machine reads the run back from it), an awaited hook at each step end (the worker pushes the
// run's branch there), and resuming in a folder rebuilt elsewhere (`resumeIn`).

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Fake = Awaited<ReturnType<typeof startFakeAnthropic>>;

async function newFake(): Promise<Fake> {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  return fake;
}

const target = (step: string | null) => ({ target: step });
const linear: TestAgentSpec = {
  name: "linear",
  entryStep: "initial.work",
  steps: {
    "initial.work": { intents: ["next"], transitions: { next: target("continuation.work") } },
    "continuation.work": {
      intents: ["handoff"],
      transitions: { handoff: target("closure.done") },
    },
    "closure.done": { intents: ["closing"], transitions: { closing: target(null) } },
  },
};

const bash = (id: string, command: string) => ({
  kind: "message" as const,
  content: [{ type: "tool_use" as const, id, name: "Bash", input: { command } }],
});

function runner(
  loaded: Awaited<ReturnType<typeof loadAgentDefinition>>,
  fake: Fake,
  options: Omit<RunnerOptions, "modelClient"> = {},
): StepFlowRunner {
  return new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
    ...options,
  });
}

/**
 * A store shared between "machines": every event also goes to `shared` (as a fleet's Redis
 * stream would hold it), and a read comes from there, not from the local file.
 */
function sharedStore(shared: Map<string, RunEvent[]>): JournalStoreFactory {
  return ({ files }): JournalStore => {
    const tee = (runId: string, local: JournalSink): JournalSink => ({
      append: (event) => {
        local.append(event);
        const events = shared.get(runId) ?? [];
        events.push(event);
        shared.set(runId, events);
      },
      flush: () => local.flush(),
      close: () => local.close(),
    });
    return {
      locate: files.locate,
      read: async (runId) => [...(shared.get(runId) ?? [])],
      create: (runId) => tee(runId, files.create(runId)),
      reopen: (runId) => tee(runId, files.create(runId)),
    };
  };
}

describe("RunnerOptions.onStepEnd", () => {
  it("is awaited after each step end, once the step_end is in the journal, before the next step's model call", async () => {
    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const seen: { notice: StepEndNotice; before: number; after: number; journaled: boolean }[] = [];
    const result = await runner(loaded, fake, {
      onStepEnd: async (notice) => {
        const before = fake.messageRequests().length;
        const file = path.join(repo, "tmp/climpt/logs", `${notice.runId}.jsonl`);
        const last = readJournal(file).findLast((event) => event.type === "step_end");
        // Let the event loop run: a runner that did not wait would send the next call meanwhile.
        for (let turn = 0; turn < 20; turn++) await new Promise((r) => setTimeout(r, 5));
        seen.push({
          notice,
          before,
          after: fake.messageRequests().length,
          journaled: last?.type === "step_end" && last.stepId === notice.stepId,
        });
      },
    }).run({ cwd: repo });
    expect(result.success).toBe(true);
    expect(
      seen.map(({ notice, before, after, journaled }) => ({
        step: notice.stepId,
        transition: notice.transition,
        final: notice.final,
        cwd: notice.cwd,
        before,
        after,
        journaled,
      })),
    ).toEqual([
      {
        step: "initial.work",
        transition: "continuation.work",
        final: false,
        cwd: repo,
        before: 1,
        after: 1,
        journaled: true,
      },
      {
        step: "continuation.work",
        transition: "closure.done",
        final: false,
        cwd: repo,
        before: 2,
        after: 2,
        journaled: true,
      },
      {
        step: "closure.done",
        transition: "closing",
        final: true,
        cwd: repo,
        before: 3,
        after: 3,
        journaled: true,
      },
    ]);
  });

  it("that fails ends the run with RUN-STEP-HOOK-001; resume continues after the recorded step without asking its call again", async () => {
    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    fake.enqueue(intentReply("next"));
    const failed = await runner(loaded, fake, {
      onStepEnd: async () => {
        throw new Error("git push: remote unreachable");
      },
    }).run({ cwd: repo });
    expect(failed.success).toBe(false);
    expect(failed.error?.code).toBe("RUN-STEP-HOOK-001");
    expect(failed.error?.message).toContain("remote unreachable");
    expect(failed.resumable).toBe(true);

    fake.reset();
    fake.enqueue(intentReply("handoff"), intentReply("closing"));
    const steps: string[] = [];
    const resumed = await runner(loaded, fake, {
      onStepEnd: async (notice) => {
        steps.push(notice.stepId);
      },
    }).run({ cwd: repo, resume: failed.runId });
    expect(resumed.success).toBe(true);
    expect(fake.messageRequests()).toHaveLength(2);
    expect(steps).toEqual(["continuation.work", "closure.done"]);
  });
});

describe("RunnerOptions.journalStore and RunOptions.resumeIn", () => {
  it("a run stopped mid-step on one machine resumes on another from the shared store: the recorded reply is served, its tool call runs again in the rebuilt folder", async () => {
    const shared = new Map<string, RunEvent[]>();
    const machineA = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    fake.enqueue(bash("toolu_note", "echo step-one >> note.txt"), { kind: "hang" });
    const controller = new AbortController();
    const running = runner(loaded, fake, { journalStore: sharedStore(shared) }).run({
      cwd: machineA,
      signal: controller.signal,
    });
    await waitFor(() => fake.messageRequests().length === 2);
    controller.abort();
    const stopped = await running;
    expect(stopped.error?.code).toBe("AGENT_INTERRUPTED");
    expect(readFileSync(path.join(machineA, "note.txt"), "utf8")).toBe("step-one\n");
    // Machine A is gone: its folder, its journal file.
    rmSync(machineA, { recursive: true, force: true });

    // Machine B: the folder rebuilt from the last step end (nothing of the interrupted step).
    const machineB = makeSampleRepo();
    fake.reset();
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const resumed = await runner(loaded, fake, { journalStore: sharedStore(shared) }).run({
      cwd: machineB,
      resume: stopped.runId,
      resumeIn: machineB,
    });
    expect(resumed.error).toBeUndefined();
    expect(resumed.success).toBe(true);
    // The tool_use reply came from the journal: only the three later calls were asked.
    expect(fake.messageRequests()).toHaveLength(3);
    expect(readFileSync(path.join(machineB, "note.txt"), "utf8")).toBe("step-one\n");
    const local = readJournal(resumed.journalPath as string);
    expect(resumed.journalPath?.startsWith(machineB)).toBe(true);
    expect(local.filter((event) => event.type === "run_resume")).toHaveLength(1);
    const events = shared.get(stopped.runId) ?? [];
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.find((event) => event.type === "run_resume")).toMatchObject({
      replayedModelCalls: 1,
      replayedToolResults: 0,
    });
  });

  it("without resumeIn the same resume serves the recorded tool result (the folder still holds its effect)", async () => {
    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    fake.enqueue(bash("toolu_note", "echo step-one >> note.txt"), { kind: "hang" });
    const controller = new AbortController();
    const running = runner(loaded, fake).run({ cwd: repo, signal: controller.signal });
    await waitFor(() => fake.messageRequests().length === 2);
    controller.abort();
    const stopped = await running;
    fake.reset();
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const resumed = await runner(loaded, fake).run({ cwd: repo, resume: stopped.runId });
    expect(resumed.success).toBe(true);
    expect(readFileSync(path.join(repo, "note.txt"), "utf8")).toBe("step-one\n");
  });
});
