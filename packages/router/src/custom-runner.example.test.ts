import { readFileSync } from "node:fs";
import path from "node:path";
import type { Registry, Step } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { runFlow } from "./custom-runner.example.ts";
import { seed000, seed003Linear } from "./registries.test-helper.ts";

const intent = (action: string) => ({ next_action: { action } });

/** A model that always moves on: next from initial, handoff from work, closing from closure. */
const movesOn = async (step: Step) =>
  intent(step.kind === "closure" ? "closing" : step.id.startsWith("initial.") ? "next" : "handoff");

describe("the README's custom runner (gate-interpreter + router only)", () => {
  it("is the code the README shows", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "..", "README.md"), "utf8");
    const file = readFileSync(path.join(import.meta.dirname, "custom-runner.example.ts"), "utf8");
    const section = readme.slice(readme.indexOf("## A custom runner on these two packages"));
    const block = section.slice(section.indexOf("```ts\n") + 6, section.indexOf("```\n", 6));
    expect(block).toBe(file);
  });

  it("walks the gate retry flow: a failed validation returns to the work step with the retry prompt", async () => {
    const seen: string[] = [];
    const script = [
      intent("next"),
      intent("handoff"),
      intent("closing"),
      intent("handoff"),
      intent("closing"),
    ];
    let validations = 0;
    const result = await runFlow(
      seed003Linear,
      "initial.issue",
      async (step: Step, { retry }) => {
        seen.push(`${step.id}${retry ? " (retry prompt)" : ""}`);
        return script.shift();
      },
      async () => {
        validations += 1;
        return validations > 1;
      },
    );
    expect(result).toEqual({ success: true, iterations: 5 });
    expect(seen).toEqual([
      "initial.issue",
      "continuation.issue",
      "closure.issue",
      "continuation.issue (retry prompt)",
      "closure.issue",
    ]);
  });

  it("ends an abort as a failure", async () => {
    const result = await runFlow(
      seed003Linear,
      "initial.issue",
      async () => intent("abort"),
      async () => true,
    );
    expect(result.success).toBe(false);
  });

  it("walks the check dialect: check prompts route, and complete is validated like closing", async () => {
    const seen: string[] = [];
    // One answer per check call, in order: analyze ng (its onFail retries it) then ok,
    // implement ok, review ok twice. (An NG of implement would fall back to analyze, whose
    // iterations.max 1 the seed's numbers have used up: that run ends with SR-ITER-001.)
    const checks = ["ng", "ok", "ok", "ok", "ok"];
    let validations = 0;
    const result = await runFlow(
      seed000,
      "s_a8f3",
      async (step, { check, retry }) => {
        seen.push(`${step.id}${check ? " check" : ""}${retry ? " (retry prompt)" : ""}`);
        return check ? { result: checks.shift(), message: "checked" } : { summary: "work" };
      },
      async (closureStepId) => {
        validations += 1;
        expect(closureStepId).toBe("s_c9d4");
        return validations > 1;
      },
    );
    expect(result).toEqual({ success: true, iterations: 5 });
    expect(seen).toEqual([
      "s_a8f3",
      "s_a8f3 check",
      "s_a8f3",
      "s_a8f3 check",
      "s_b2c1",
      "s_b2c1 check",
      "s_c9d4",
      "s_c9d4 check",
      // The completed step has no lead-in: after the failed validation it runs again itself.
      "s_c9d4 (retry prompt)",
      "s_c9d4 check",
    ]);
  });
});

describe("regression: the example's bounds", () => {
  /** seed003Linear's validation entry under another key than the closure id, maxAttempts 1. */
  function keyedElsewhere(): Registry {
    const entry = seed003Linear.validationSteps["closure.issue"];
    if (entry === undefined) throw new Error("seed003Linear lost its validation step");
    return {
      ...seed003Linear,
      validationSteps: {
        "issue-validation": {
          ...entry,
          id: "issue-validation",
          onFailure: { action: "retry", maxAttempts: 1 },
        },
      },
    };
  }

  it("maxAttempts 1 under another key ends with AGENT_VALIDATION_ABORT after the second failure", async () => {
    let validations = 0;
    const result = await runFlow(keyedElsewhere(), "initial.issue", movesOn, async () => {
      validations += 1;
      return false;
    });
    // Before the router owned the lookup: 24 validations, then AGENT_MAX_ITERATIONS.
    expect(validations).toBe(2);
    expect(result.success).toBe(false);
    expect(result.problem?.code).toBe("AGENT_VALIDATION_ABORT");
    expect(result.problem?.path).toBe(
      '$.validationSteps["issue-validation"].onFailure.maxAttempts',
    );
  });

  it("a validator that always fails never takes the run past its cap of 50", async () => {
    let validations = 0;
    const result = await runFlow(
      { ...seed003Linear, validationSteps: {} },
      "continuation.issue",
      movesOn,
      async () => {
        validations += 1;
        return false;
      },
    );
    // Before the cap was given once: the return after validation 25 used the default 100 and
    // the run stopped at iteration 51.
    expect(result.problem?.code).toBe("AGENT_MAX_ITERATIONS");
    expect(result.iterations).toBe(50);
    expect(validations).toBe(25);
  });
});
