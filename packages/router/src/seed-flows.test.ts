// The example flows of seeds 000, 002 and 003, walked end to end: scripted model outputs go
// through the real gate interpreter and the router, and each walk asserts the exact step order.

import { extractHandoff, interpretGate, interpretStepCheck } from "@climpt/gate-interpreter";
import type { JsonValue, Registry } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import {
  gateStep,
  registryOf,
  seed000,
  seed002,
  seed003Branching,
  seed003Linear,
} from "./registries.test-helper.ts";
import type { RouterState } from "./router-state.ts";
import { started } from "./started.test-helper.ts";

interface Walk {
  readonly steps: string[];
  readonly end: "done" | "abort" | "problem" | "out of outputs";
  readonly code?: string;
  readonly state: RouterState;
  readonly handoff: Record<string, JsonValue>;
}

/** A structured output in the gate dialect's shape. */
function say(action: string, extra: Record<string, JsonValue> = {}): JsonValue {
  return { next_action: { action, reason: `chose ${action}` }, ...extra };
}

/**
 * A minimal gate-dialect runner: one scripted output per step execution, validation verdicts
 * consumed at each closing (missing = pass).
 */
function walkGate(
  registry: Registry,
  entry: string,
  outputs: readonly JsonValue[],
  validations: readonly boolean[] = [],
): Walk {
  const router = createRouter(registry);
  let state = started(router, entry);
  const steps: string[] = [];
  const handoff: Record<string, JsonValue> = {};
  const pending = [...validations];
  for (const output of outputs) {
    steps.push(state.stepId);
    const step = registry.steps[state.stepId];
    if (step === undefined) throw new Error(`no step ${state.stepId}`);
    const gate = interpretGate(step, output, { iteration: state.iteration });
    // A runner ends the run with the problem's run-level family when it has one.
    const failure = gate.ok ? undefined : gate.issues[0];
    if (!gate.ok)
      return { steps, end: "problem", code: failure?.family ?? failure?.code, state, handoff };
    Object.assign(handoff, gate.value.handoff);
    const decision = router.route(state, gate.value, { handoff });
    if (!decision.ok) {
      return { steps, end: "problem", code: decision.issues[0]?.code, state, handoff };
    }
    state = decision.value.state;
    if (decision.value.kind === "abort") return { steps, end: "abort", state, handoff };
    if (decision.value.kind === "closing") {
      if (pending.shift() ?? true) return { steps, end: "done", state, handoff };
      const back = router.returnAfterFailedValidation(state, decision.value.stepId);
      if (!back.ok) return { steps, end: "problem", code: back.issues[0]?.code, state, handoff };
      state = back.value.state;
    }
  }
  return { steps, end: "out of outputs", state, handoff };
}

interface CheckExecution {
  /** The step prompt's output. */
  readonly output?: JsonValue;
  /** The check prompt's output, when the step has a check prompt. */
  readonly check?: JsonValue;
}

/** A minimal check-dialect runner: one scripted execution (step output + check output) at a time. */
function walkCheck(registry: Registry, entry: string, executions: readonly CheckExecution[]): Walk {
  const router = createRouter(registry);
  let state = started(router, entry);
  const steps: string[] = [];
  const handoff: Record<string, JsonValue> = {};
  for (const execution of executions) {
    steps.push(state.stepId);
    const step = registry.steps[state.stepId];
    if (step === undefined) throw new Error(`no step ${state.stepId}`);
    Object.assign(handoff, extractHandoff(step, execution.output).handoff);
    const before = router.beforeCheck(state);
    if (!before.ok) return { steps, end: "problem", code: before.issues[0]?.code, state, handoff };
    state = before.value.state;
    if (before.value.kind === "step") continue;
    const verdict = interpretStepCheck(step, {
      stepOutput: execution.output,
      checkOutput: execution.check,
    });
    const decision = router.routeCheck(state, verdict);
    if (!decision.ok) {
      return { steps, end: "problem", code: decision.issues[0]?.code, state, handoff };
    }
    state = decision.value.state;
    if (decision.value.kind === "complete") return { steps, end: "done", state, handoff };
  }
  return { steps, end: "out of outputs", state, handoff };
}

const ok = (message = "fine") => ({
  output: { summary: "work" },
  check: { result: "ok", message },
});
const ng = (message = "not yet") => ({
  output: { summary: "work" },
  check: { result: "ng", message },
});

describe("check flow: analyze → implement → review (check dialect)", () => {
  it("walks the happy path", () => {
    const walk = walkCheck(seed000, "s_a8f3", [ok(), ok(), ok()]);
    expect(walk.steps).toEqual(["s_a8f3", "s_b2c1", "s_c9d4"]);
    expect(walk.end).toBe("done");
    expect(walk.state.iteration).toBe(3);
  });

  it("falls back from implement at its first NG; analyze has run its one execution, so the run stops naming it", () => {
    const walk = walkCheck(seed000, "s_a8f3", [
      ng(), // analyze fails: retry (1 of 2); a retry is bounded by maxRetries, not by max
      ok(), // analyze passes
      ng(), // implement fails: onFail fallback at once, back to analyze (iterations.max 1)
    ]);
    expect(walk.steps).toEqual(["s_a8f3", "s_a8f3", "s_b2c1"]);
    expect(walk).toMatchObject({ end: "problem", code: "SR-ITER-001" });
    expect(walk.state.stepCounts).toEqual([
      { stepId: "s_a8f3", executions: 2, retries: 1 },
      { stepId: "s_b2c1", executions: 1, retries: 0 },
    ]);
  });

  it("falls back from review to implement, and stops before review's second run (iterations.max 1)", () => {
    const walk = walkCheck(seed000, "s_a8f3", [ok(), ok(), ng(), ok()]);
    expect(walk.steps).toEqual(["s_a8f3", "s_b2c1", "s_c9d4", "s_b2c1"]);
    expect(walk).toMatchObject({ end: "problem", code: "SR-ITER-001" });
  });

  it("stops when analyze fails more often than maxRetries allows", () => {
    const walk = walkCheck(seed000, "s_a8f3", [ng(), ng(), ng()]);
    expect(walk.steps).toEqual(["s_a8f3", "s_a8f3", "s_a8f3"]);
    expect(walk).toMatchObject({ end: "problem", code: "AGENT_VALIDATION_ABORT" });
  });

  it("treats an unparseable check answer as NG", () => {
    const walk = walkCheck(seed000, "s_a8f3", [
      { output: {}, check: "Looks good to me" },
      ok(),
      ok(),
      ok(),
    ]);
    expect(walk.steps).toEqual(["s_a8f3", "s_a8f3", "s_b2c1", "s_c9d4"]);
    expect(walk.end).toBe("done");
  });
});

describe("handoff flow: analysis → impl → review with handoff (check dialect)", () => {
  it("carries the handoff and reads impl's verdict from its own output", () => {
    const walk = walkCheck(seed002, "s_analysis", [
      { output: { issue_context: "login times out" } }, // no check: passes
      { output: { plan: "raise timeout", diff: "-1 +1", result: "ng" } }, // NG: onFail retry at once
      { output: { plan: "raise timeout", diff: "-1 +2", result: "ok" } },
      { output: { release_notes: "fixed login" } }, // no check: complete
    ]);
    expect(walk.steps).toEqual(["s_analysis", "s_impl", "s_impl", "s_review"]);
    expect(walk.end).toBe("done");
    expect(walk.handoff).toEqual({
      issue_context: "login times out",
      plan: "raise timeout",
      diff: "-1 +2",
      release_notes: "fixed login",
    });
  });

  it("retries impl at each NG, at most twice", () => {
    const failing = { output: { plan: "p", result: "ng" } };
    const walk = walkCheck(seed002, "s_analysis", [
      { output: { issue_context: "c" } },
      failing,
      failing,
      failing,
    ]);
    expect(walk.steps).toEqual(["s_analysis", "s_impl", "s_impl", "s_impl"]);
    expect(walk).toMatchObject({ end: "problem", code: "AGENT_VALIDATION_ABORT" });
    expect(walk.state.checkRetries).toBe(2);
  });
});

describe("linear flow (gate dialect)", () => {
  it("initial → continuation → closure → closing", () => {
    const walk = walkGate(seed003Linear, "initial.issue", [
      say("next"),
      say("next"),
      say("handoff"),
      say("closing"),
    ]);
    expect(walk.steps).toEqual([
      "initial.issue",
      "continuation.issue",
      "continuation.issue",
      "closure.issue",
    ]);
    expect(walk.end).toBe("done");
  });

  it("repeats and aliases along the way", () => {
    const walk = walkGate(seed003Linear, "initial.issue", [
      say("retry"), // alias of repeat: initial.issue again
      say("Continue"), // alias of next
      say("handoff"),
      say("wait"), // closure repeats itself
      say("done"), // alias of closing
    ]);
    expect(walk.steps).toEqual([
      "initial.issue",
      "initial.issue",
      "continuation.issue",
      "closure.issue",
      "closure.issue",
    ]);
    expect(walk.end).toBe("done");
  });

  it("ignores status: completed and stops on a missing intent", () => {
    const walk = walkGate(seed003Linear, "initial.issue", [
      say("next"),
      { status: "completed", summary: "I am done" },
    ]);
    expect(walk.steps).toEqual(["initial.issue", "continuation.issue"]);
    expect(walk).toMatchObject({ end: "problem", code: "FAILED_STEP_ROUTING" });
  });

  it("ends as a failure when the model aborts", () => {
    const walk = walkGate(seed003Linear, "initial.issue", [say("next"), say("abort")]);
    expect(walk.end).toBe("abort");
  });

  it("a work step answering closing is refused before it can close", () => {
    const walk = walkGate(seed003Linear, "initial.issue", [say("next"), say("closing")]);
    expect(walk).toMatchObject({ end: "problem", code: "GATE_INTERPRETATION_ERROR" });
  });
});

describe("branching flow (gate dialect)", () => {
  it("prepares, reviews, re-executes, reviews again and closes", () => {
    const walk = walkGate(seed003Branching, "initial.project.preparation", [
      say("next"), // preparation → continuation.preparation
      say("next"), // continuation.preparation stays
      say("handoff"), // → initial.project.review
      say("repeat"), // review asks for re-execution: → initial.project.again
      say("next"), // → continuation.project.again
      say("handoff"), // → initial.project.review
      say("next"), // → continuation.project.review
      say("repeat"), // → initial.project.again
      say("handoff"), // → initial.project.review
      say("handoff"), // → initial.project.closure
      say("closing"),
    ]);
    expect(walk.steps).toEqual([
      "initial.project.preparation",
      "continuation.project.preparation",
      "continuation.project.preparation",
      "initial.project.review",
      "initial.project.again",
      "continuation.project.again",
      "initial.project.review",
      "continuation.project.review",
      "initial.project.again",
      "initial.project.review",
      "initial.project.closure",
    ]);
    expect(walk.end).toBe("done");
    expect(walk.state.closureLeadIn).toEqual({
      "initial.project.closure": "initial.project.review",
    });
  });

  it("a shortcut straight from preparation to review to closure", () => {
    const walk = walkGate(seed003Branching, "initial.project.preparation", [
      say("handoff"),
      say("handoff"),
      say("closing"),
    ]);
    expect(walk.steps).toEqual([
      "initial.project.preparation",
      "initial.project.review",
      "initial.project.closure",
    ]);
    expect(walk.end).toBe("done");
  });
});

describe("retry / recovery flow (gate dialect)", () => {
  it("a failed validation returns to the work step that handed off, then completes", () => {
    const walk = walkGate(
      seed003Linear,
      "initial.issue",
      [
        say("next"),
        say("handoff"),
        say("closing"), // git-dirty: back to continuation.issue with the retry prompt
        say("handoff"),
        say("closing"), // type-error: back again
        say("next"),
        say("handoff"),
        say("closing"), // validators pass
      ],
      [false, false, true],
    );
    expect(walk.steps).toEqual([
      "initial.issue",
      "continuation.issue",
      "closure.issue",
      "continuation.issue",
      "closure.issue",
      "continuation.issue",
      "continuation.issue",
      "closure.issue",
    ]);
    expect(walk.end).toBe("done");
    expect(walk.state.validationAttempts).toEqual({ "closure.issue": 2 });
  });

  it("stops with AGENT_VALIDATION_ABORT after onFailure.maxAttempts (3) returns", () => {
    const cycle = [say("handoff"), say("closing")];
    const walk = walkGate(
      seed003Linear,
      "initial.issue",
      [say("next"), ...cycle, ...cycle, ...cycle, ...cycle],
      [false, false, false, false],
    );
    expect(walk.steps).toEqual([
      "initial.issue",
      ...Array.from({ length: 4 }, () => ["continuation.issue", "closure.issue"]).flat(),
    ]);
    expect(walk).toMatchObject({ end: "problem", code: "AGENT_VALIDATION_ABORT" });
  });
});

describe("conditional transition on a handoff value", () => {
  it("routes on the status the step hands off", () => {
    const registry = registryOf("gate", [
      gateStep("continuation.check", {
        gate: { handoffFields: ["result.status"] },
        transitions: {
          next: {
            kind: "conditional",
            condition: "status",
            targets: {
              ready: "continuation.process",
              blocked: "continuation.wait",
              default: "continuation.fallback",
            },
          },
        },
      }),
      gateStep("continuation.process", {
        transitions: { handoff: { kind: "target", target: "closure.x" } },
      }),
      gateStep("continuation.wait", {
        transitions: { next: { kind: "target", target: "continuation.check" } },
      }),
      gateStep("continuation.fallback", {
        transitions: { handoff: { kind: "target", target: "closure.x" } },
      }),
      gateStep("closure.x", { transitions: { closing: { kind: "target", target: null } } }),
    ]);
    const walk = walkGate(registry, "continuation.check", [
      say("next", { result: { status: "blocked" } }),
      say("next"),
      say("next", { result: { status: "ready" } }),
      say("handoff"),
      say("closing"),
    ]);
    expect(walk.steps).toEqual([
      "continuation.check",
      "continuation.wait",
      "continuation.check",
      "continuation.process",
      "closure.x",
    ]);
    expect(walk.end).toBe("done");
  });
});
