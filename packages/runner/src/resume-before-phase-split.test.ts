// A journal written by the runner as it was before it was split into phases (fixture recorded
// with that code: fixtures/journal-before-phase-split.jsonl, absolute paths replaced by
// placeholders). The run failed with an API error in the middle of a retry step, after the model
// had asked for a tool and the tool had run; the current runner must resume it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  FLAG_VALIDATION,
  intentReply,
  type TestAgentSpec,
  writeTestAgent,
} from "./agents.test-helper.ts";
import { journalPath } from "./journal/journal.ts";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 9 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const RUN_ID = "20261124T052748Z-729d27";
const FIXTURE = path.join(import.meta.dirname, "fixtures", "journal-before-phase-split.jsonl");

/** The agent the fixture was recorded with. */
const target = (step: string | null) => ({ target: step });
const spec: TestAgentSpec = {
  name: "before-split",
  entryStep: "initial.work",
  steps: {
    "initial.work": {
      intents: ["next"],
      handoffFields: ["next_action.reason"],
      transitions: { next: target("continuation.work") },
    },
    "continuation.work": { intents: ["handoff"], transitions: { handoff: target("closure.done") } },
    "closure.done": {
      intents: ["closing", "repeat"],
      transitions: { closing: target(null), repeat: target("continuation.work") },
    },
  },
  ...FLAG_VALIDATION,
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("resume of a journal written before the phase split", () => {
  it("folds its step_ends, serves the interrupted step's reply and tool result, and completes", async () => {
    const loaded = await loadAgentDefinition(writeTestAgent(spec));
    const cwd = makeSampleRepo();
    const file = journalPath({ cwd, agent: loaded.agent, runId: RUN_ID });
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      readFileSync(FIXTURE, "utf8")
        .replaceAll("__AGENT_DIR__", loaded.dir)
        .replaceAll("__CWD__", cwd),
    );
    // What the recorded tool call did before the failure is on disk already.
    writeFileSync(path.join(cwd, "ok.flag"), "");
    const recorded = readJournal(file);

    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(intentReply("handoff"), intentReply("closing"));
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
    }).run({ cwd, resume: RUN_ID });

    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.state.history.map((entry) => `${entry.stepId}->${entry.transition}`)).toEqual([
      "initial.work->continuation.work",
      "continuation.work->closure.done",
      "closure.done->validation-retry:continuation.work",
      "continuation.work->closure.done",
      "closure.done->closing",
    ]);
    // The handoff folded from the old step_end is still there.
    expect(result.state.handoff).toEqual({ "initial.work": { reason: "test" } });
    const appended = readJournal(file).slice(recorded.length);
    expect(appended[0]).toMatchObject({
      type: "run_resume",
      stepId: "continuation.work",
      iteration: 4,
      replayedModelCalls: 1,
      replayedToolResults: 1,
    });
    expect(appended.find((event) => event.type === "tool_result")).toMatchObject({
      replayed: true,
    });
    // Only the two calls the first session never made reach the API: the recorded tool_use
    // reply is served from the journal, then the step continues live.
    expect(fake.messageRequests()).toHaveLength(2);
    // The old session's usage is kept, and the replayed reply adds nothing.
    const before = recorded.at(-1);
    const oldUsage = before?.type === "run_end" ? before.result.usage : undefined;
    const live = appended.flatMap((event) =>
      event.type === "model_response" && event.replayed !== true ? [event.usage.inputTokens] : [],
    );
    expect(live).toHaveLength(2);
    expect(result.usage.inputTokens).toBe(
      live.reduce((sum, tokens) => sum + tokens, oldUsage?.inputTokens ?? Number.NaN),
    );
  });
});
