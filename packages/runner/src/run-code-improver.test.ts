import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunEvent } from "./run-event.ts";
import { EXAMPLES, fakeModel, git, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 10 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("the code-improver example (check dialect), end to end", () => {
  it("runs each step's check as its own call, takes onFail's fallback at the NG, and completes", async () => {
    const repo = makeSampleRepo();
    const { client, fake } = await fakeModel("code-improver");
    closers.push(() => fake.close());
    const loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "code-improver"));
    const events: RunEvent[] = [];
    const result = await new StepFlowRunner(loaded, {
      modelClient: client,
      onEvent: (event) => events.push(event),
    }).run({ args: { topic: "slugify output" }, cwd: repo });

    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.finalStepId).toBe("s_c9d4");
    expect(
      result.state.history.map(
        (entry) =>
          `${entry.stepId} ${entry.checkResult?.passed ? "OK" : "NG"} -> ${entry.transition}`,
      ),
    ).toEqual([
      "s_a8f3 OK -> s_b2c1",
      // NG → onFail.fallback at once: back to analyze (iterations.max 2 allows a second run).
      "s_b2c1 NG -> s_a8f3",
      "s_a8f3 OK -> s_b2c1",
      "s_b2c1 OK -> s_c9d4",
      "s_c9d4 OK -> complete",
    ]);
    expect(result.state.history[1]?.checkResult?.message).toBe(
      "1 test failure: slugify trims dashes at both ends.",
    );
    // The handoff (docs/design.md#handoff): the implement prompt received the analysis under uv-s_a8f3_*.
    const implement = events.find(
      (event) =>
        event.type === "prompt_resolved" && event.stepId === "s_b2c1" && event.phase === "step",
    );
    expect(implement?.type === "prompt_resolved" && implement.text).toContain(
      "Plan: Collapse runs of non-alphanumeric characters",
    );
    // After the fallback, implement's second run reads the second analysis.
    const again = events.findLast(
      (event) =>
        event.type === "prompt_resolved" && event.stepId === "s_b2c1" && event.phase === "step",
    );
    expect(again?.type === "prompt_resolved" && again.text).toContain(
      "Plan: Trim dashes at both ends",
    );
    // The check prompts came from checks/… (their own C3L c1).
    const checkPrompts = events.filter(
      (event) => event.type === "prompt_resolved" && event.phase === "check",
    );
    expect(
      checkPrompts.map((event) => event.type === "prompt_resolved" && event.promptFile),
    ).toEqual([
      "prompts/checks/step/analyze/f_default.md",
      "prompts/checks/step/implement/f_default.md",
      "prompts/checks/step/analyze/f_default.md",
      "prompts/checks/step/implement/f_default.md",
      "prompts/checks/completion/final/f_default.md",
    ]);
    expect(result.state.handoff.s_c9d4).toEqual({
      release_notes: "slugify no longer produces repeated or leading/trailing dashes.",
    });
    expect(git(repo, "status", "--porcelain")).toBe("");
  });
});
