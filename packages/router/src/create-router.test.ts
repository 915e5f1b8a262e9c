import { type Registry, resolveRunIterationCap, type ValidationStep } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import { gateStep, registryOf, seed002, seed003Linear } from "./registries.test-helper.ts";
import type { StepDecision } from "./route-decision.ts";
import type { RouterState } from "./router-state.ts";
import { started } from "./started.test-helper.ts";

const to = (target: string | null) => ({ kind: "target", target }) as const;

/** work → verification → work → closure, with a second closure step the budget must not pick. */
const withVerification = registryOf("gate", [
  gateStep("initial.work", { transitions: { next: to("verification.check") } }),
  gateStep("verification.check", {
    transitions: { next: to("continuation.work"), repeat: to("verification.check") },
  }),
  gateStep("continuation.work", {
    transitions: { next: to("continuation.work"), handoff: to("closure.first") },
  }),
  gateStep("closure.first", { transitions: { closing: to(null) } }),
  gateStep("closure.second", { transitions: { closing: to(null) } }),
]);

function stepDecision(result: ReturnType<ReturnType<typeof createRouter>["route"]>): StepDecision {
  if (!result.ok || result.value.kind !== "step") throw new Error(JSON.stringify(result));
  return result.value;
}

describe("createRouter: the cap is given once", () => {
  it("refuses a cap that is not a positive integer when the router is made", () => {
    for (const iterationCap of [0, -1, 2.5, Number.NaN]) {
      expect(() => createRouter(seed003Linear, { iterationCap })).toThrow(/positive integer/);
    }
  });

  it("holds the cap for route, the check dialect, the validation return and a skipped iteration", () => {
    const router = createRouter(seed003Linear, { iterationCap: 2 });
    expect(router.iterationCap).toBe(2);
    const atTwo: RouterState = { ...started(router, "continuation.issue"), iteration: 2 };
    const routed = router.route(atTwo, { intent: "next" });
    expect(!routed.ok && routed.issues[0]?.code).toBe("AGENT_MAX_ITERATIONS");
    const skipped = router.skipIteration(atTwo);
    expect(!skipped.ok && skipped.issues[0]?.code).toBe("AGENT_MAX_ITERATIONS");
    const closing = router.route(
      { ...started(router, "closure.issue"), iteration: 2 },
      {
        intent: "closing",
      },
    );
    if (!closing.ok) throw new Error("unexpected");
    const back = router.returnAfterFailedValidation(closing.value.state, "closure.issue");
    expect(!back.ok && back.issues[0]?.code).toBe("AGENT_MAX_ITERATIONS");
  });

  it("defaults to the cap a run of the same registry gets: 20 gate, 100 check", () => {
    const undeclared = {
      limits: {},
      verdict: { type: "poll:state", declaredType: "poll:state", config: {} },
    } as const;
    for (const [registry, cap] of [
      [seed003Linear, 20],
      [seed002, 100],
    ] as const) {
      expect(createRouter(registry).iterationCap).toBe(cap);
      expect(resolveRunIterationCap(undeclared, registry).cap).toBe(cap);
    }
  });
});

describe("skipIteration: a schema failure spends the iteration", () => {
  it("runs the same step again as the next iteration, in the same visit, counting nothing", () => {
    const router = createRouter(seed003Linear);
    const state = started(router, "initial.issue");
    const skipped = router.skipIteration(state);
    expect(skipped.ok && skipped.value).toEqual({ ...state, iteration: 2 });
  });

  it("says which step would run past the cap", () => {
    const router = createRouter(seed003Linear, { iterationCap: 1 });
    const skipped = router.skipIteration(started(router, "initial.issue"));
    if (skipped.ok) throw new Error("expected the cap");
    expect(skipped.issues[0]?.message).toContain("iteration cap of 1");
    expect(skipped.issues[0]?.message).toContain('step "initial.issue"');
    expect(skipped.issues[0]?.path).toBe('$.steps["initial.issue"]');
  });

  it("is a contract violation while a check is pending", () => {
    const router = createRouter(seed003Linear);
    const pending = { ...started(router, "initial.issue"), awaitingCheck: true };
    expect(() => router.skipIteration(pending)).toThrow(/check is pending/);
  });
});

describe("enterClosure: a budget verdict sends the flow into closure", () => {
  it("goes to the registry's first closure step as the same iteration, recording the work step", () => {
    const router = createRouter(withVerification);
    const decision = stepDecision(
      router.route(started(router, "initial.work"), { intent: "next" }),
    );
    const entered = router.enterClosure(decision);
    expect(entered).toMatchObject({ kind: "step", stepId: "closure.first", via: "enter-closure" });
    expect(entered.state).toMatchObject({
      iteration: 2,
      stepId: "closure.first",
      previousStepId: "initial.work",
      visitExecutions: 0,
      closureLeadIn: { "closure.first": "initial.work" },
    });
  });

  it("from a verification step, records the work step before it, so a failed validation returns to work", () => {
    const router = createRouter(withVerification);
    const first = stepDecision(router.route(started(router, "initial.work"), { intent: "next" }));
    const fromVerification = stepDecision(router.route(first.state, { intent: "repeat" }));
    const entered = router.enterClosure(fromVerification);
    expect(entered.state.closureLeadIn).toEqual({ "closure.first": "initial.work" });
    const closing = router.route(entered.state, { intent: "closing" });
    if (!closing.ok) throw new Error("unexpected");
    expect(router.returnStepFor(closing.value.state, "closure.first")).toBe("initial.work");
    const back = router.returnAfterFailedValidation(closing.value.state, "closure.first");
    expect(back.ok && back.value.stepId).toBe("initial.work");
  });

  it("leaves a decision alone that already goes to the closure step, or that comes from one", () => {
    const router = createRouter(withVerification);
    const handoff = stepDecision(
      router.route(started(router, "continuation.work"), { intent: "handoff" }),
    );
    expect(router.enterClosure(handoff)).toBe(handoff);
    const fromClosure: StepDecision = {
      ...handoff,
      stepId: "closure.second",
      state: { ...handoff.state, stepId: "closure.second", previousStepId: "closure.first" },
    };
    expect(router.enterClosure(fromClosure)).toBe(fromClosure);
  });

  it("leaves the decision alone in a registry without a closure step", () => {
    const registry = registryOf("gate", [
      gateStep("continuation.loop", { transitions: { next: to("continuation.loop") } }),
    ]);
    const router = createRouter(registry);
    const decision = stepDecision(
      router.route(started(router, "continuation.loop"), { intent: "next" }),
    );
    expect(router.enterClosure(decision)).toBe(decision);
  });
});

describe("validationStepFor: the one validationSteps lookup", () => {
  const entry = (id: string, stepId: string, maxAttempts?: number): ValidationStep => ({
    id,
    stepId,
    conditions: [],
    onFailure: { action: "retry", ...(maxAttempts === undefined ? {} : { maxAttempts }) },
  });
  const registryWith = (entries: ValidationStep[]): Registry => ({
    ...seed003Linear,
    validationSteps: Object.fromEntries(entries.map((e) => [e.id, e])),
  });

  it("finds by key, then by stepId, then by the verdict type's closure id", () => {
    const byKey = registryWith([entry("other", "closure.issue"), entry("closure.issue", "x")]);
    expect(createRouter(byKey).validationStepFor("closure.issue")).toMatchObject({
      lookup: "step-key",
      entry: { id: "closure.issue" },
    });
    const byStepId = registryWith([entry("other", "closure.issue")]);
    expect(createRouter(byStepId).validationStepFor("closure.issue")?.lookup).toBe("step-id");
    const byVerdict = registryWith([entry("closure.polling", "closure.polling")]);
    expect(createRouter(byVerdict).validationStepFor("closure.issue")).toBeUndefined();
    expect(
      createRouter(byVerdict, { verdictType: "poll:state" }).validationStepFor("closure.issue")
        ?.lookup,
    ).toBe("verdict-closure-key");
    const byVerdictId = registryWith([entry("polling", "closure.polling")]);
    expect(
      createRouter(byVerdictId, { verdictType: "poll:state" }).validationStepFor("closure.issue")
        ?.lookup,
    ).toBe("verdict-closure-id");
  });

  it("bounds the returns by the entry it finds, under whichever key", () => {
    const router = createRouter(registryWith([entry("polling", "closure.polling", 1)]), {
      verdictType: "poll:state",
    });
    const closing = router.route(started(router, "closure.issue"), { intent: "closing" });
    if (!closing.ok) throw new Error("unexpected");
    const first = router.returnAfterFailedValidation(closing.value.state, "closure.issue");
    if (!first.ok) throw new Error("the first return is allowed");
    const again = router.route(first.value.state, { intent: "closing" });
    if (!again.ok) throw new Error("unexpected");
    const second = router.returnAfterFailedValidation(again.value.state, "closure.issue");
    expect(!second.ok && second.issues[0]).toMatchObject({
      code: "AGENT_VALIDATION_ABORT",
      path: "$.validationSteps.polling.onFailure.maxAttempts",
    });
  });
});
