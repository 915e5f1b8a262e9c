import type { JsonSchema, Step } from "@climpt/model";
import { stepOf } from "@climpt/testing";
import { describe, expect, it } from "vitest";
import { agentDefinition, INTENT_SCHEMA } from "./claude-code.test-helper.ts";
import { nextPhase } from "./next-phase.ts";
import type { PhaseSpec } from "./session-plan.ts";

const gate = {
  allowedIntents: ["next", "repeat", "closing"] as ("next" | "repeat" | "closing")[],
  intentSchemaRef: "#/properties/next_action/properties/action",
  intentField: "next_action.action",
  handoffFields: [],
  failFast: true,
};

function gateStep(id: string, overrides: Partial<Step> = {}): Step {
  return stepOf(id, {
    kind: "work",
    outputSchema: INTENT_SCHEMA as JsonSchema,
    gate,
    transitions: {
      next: { kind: "target", target: "continuation.b" },
      closing: { kind: "target", target: null },
    },
    ...overrides,
  });
}

const steps: Record<string, Step> = {
  "initial.a": gateStep("initial.a"),
  "continuation.b": gateStep("continuation.b"),
};

function spec(step: Step, extra: Partial<PhaseSpec> = {}): PhaseSpec {
  return {
    model: "claude-sonnet-4-5",
    system: "sys",
    outputSchema: step.outputSchema,
    cwd: "/work/repo",
    agent: agentDefinition(),
    step,
    maxTurns: 12,
    ...extra,
  };
}

const said = (action: string) => ({ next_action: { action }, summary: "s" });

describe("nextPhase", () => {
  it("is the step the answer's intent leads to, with the run's settings", () => {
    const next = nextPhase(spec(steps["initial.a"] as Step), steps, said("next"));
    expect(next?.step.id).toBe("continuation.b");
    expect(next).toMatchObject({ model: "claude-sonnet-4-5", system: "sys", maxTurns: 12 });
    expect(next?.outputSchema).toEqual(INTENT_SCHEMA);
  });

  it("before the answer, guesses the step's forward transition", () => {
    expect(nextPhase(spec(steps["initial.a"] as Step), steps)?.step.id).toBe("continuation.b");
  });

  it("repeat without a transition of its own is the same step again", () => {
    expect(nextPhase(spec(steps["initial.a"] as Step), steps, said("repeat"))?.step.id).toBe(
      "initial.a",
    );
  });

  it("guesses nothing where the runner decides what this executor cannot rebuild", () => {
    const a = steps["initial.a"] as Step;
    // The run ends there.
    expect(nextPhase(spec(a), steps, said("closing"))).toBeUndefined();
    // No declared output schema: the runner derives one.
    const bare = {
      ...steps,
      "continuation.b": gateStep("continuation.b", { outputSchema: undefined }),
    };
    expect(nextPhase(spec(a), bare, said("next"))).toBeUndefined();
    // The next step names a model of its own where this one does not: taken; the other way: not.
    const own = { ...steps, "continuation.b": gateStep("continuation.b", { model: "haiku" }) };
    expect(nextPhase(spec(a), own, said("next"))?.model).toMatch(/haiku/);
    const fromOwn = gateStep("initial.a", { model: "opus" });
    expect(nextPhase(spec(fromOwn), steps, said("next"))).toBeUndefined();
    // A check prompt comes next, not the next step.
    const checked = gateStep("initial.a", {
      check: { prompt: a.prompt, onPass: { kind: "complete" } },
    });
    expect(nextPhase(spec(checked), steps, said("next"))).toBeUndefined();
    // A closure step with GitHub tools needs the toolbox the runner builds for it.
    const agent = agentDefinition({
      github: { enabled: true, labels: {}, defaultClosureAction: "close" },
      allowedTools: ["Read", "github_close_issue"],
    });
    const closing = {
      ...steps,
      "continuation.b": gateStep("continuation.b", { kind: "closure" }),
    };
    expect(nextPhase(spec(a, { agent }), closing, said("next"))).toBeUndefined();
    // Without the GitHub tools the same closure step is guessed.
    expect(nextPhase(spec(a), closing, said("next"))?.step.id).toBe("continuation.b");
  });
});
