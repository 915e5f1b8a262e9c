/**
 * A model's intent alias under a schema enum that lists only the canonical intents (`"retry"`
 * where the enum says `repeat`) passes the schema check, because the loader's accepted schema
 * widens the enum by the aliases, and the gate maps it (docs/design.md#intents).
 */
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { intentReply, type TestAgentSpec, writeTestAgent } from "./agents.test-helper.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 5 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const target = (step: string | null) => ({ target: step });

/** Every schema enum lists the canonical intents only (writeTestAgent's schemas). */
const canonical: TestAgentSpec = {
  name: "canonical",
  entryStep: "initial.work",
  steps: {
    "initial.work": {
      intents: ["next", "repeat"],
      transitions: { next: target("continuation.work"), repeat: target("initial.work") },
    },
    "continuation.work": {
      intents: ["next", "handoff"],
      transitions: { next: target("continuation.work"), handoff: target("closure.done") },
    },
    "closure.done": {
      intents: ["closing", "repeat"],
      transitions: { closing: target(null), repeat: target("continuation.work") },
    },
  },
};

describe("intent aliases under a canonical enum", () => {
  it("retry, continue, pass and done are accepted and routed as repeat, next, next and closing", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(
      intentReply("retry"),
      intentReply("continue"),
      intentReply("pass"),
      intentReply("handoff"),
      intentReply("done"),
    );
    const loaded = await loadAgentDefinition(writeTestAgent(canonical));
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
    }).run({ cwd: makeSampleRepo() });
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.state.history.map((entry) => `${entry.intent}:${entry.transition}`)).toEqual([
      "repeat:initial.work",
      "next:continuation.work",
      "next:continuation.work",
      "handoff:closure.done",
      "closing:closing",
    ]);
    // Five calls, no repair turns: every reply passed the schema check at once.
    expect(fake.messageRequests()).toHaveLength(5);
  });

  it("an alias of an intent the step may not use is still refused", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    // initial.work may not close: "done" (closing) fails its schema even after the repair turn.
    fake.enqueue(
      intentReply("done"),
      intentReply("done"),
      intentReply("done"),
      intentReply("done"),
    );
    const loaded = await loadAgentDefinition(writeTestAgent(canonical));
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
    }).run({ cwd: makeSampleRepo() });
    expect(result.success).toBe(false);
    expect(result.state.history.some((entry) => entry.transition === "closing")).toBe(false);
  });
});
