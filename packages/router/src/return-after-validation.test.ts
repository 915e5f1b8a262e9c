import type { Problem, Registry } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import { gateStep, registryOf, seed003Linear } from "./registries.test-helper.ts";
import type { RouteInput } from "./route-decision.ts";
import type { RouterState } from "./router-state.ts";
import { startState } from "./started.test-helper.ts";

const route = (registry: Registry, state: RouterState, input: RouteInput) =>
  createRouter(registry).route(state, input);

/** The router reads `maxAttempts` from the registry's validationSteps entry itself. */
function returnAfterFailedValidation(
  registry: Registry,
  state: RouterState,
  options: { closureStepId: string; iterationCap?: number },
) {
  const router = createRouter(
    registry,
    options.iterationCap === undefined ? {} : { iterationCap: options.iterationCap },
  );
  return router.returnAfterFailedValidation(state, options.closureStepId);
}

/** seed003Linear without its validationSteps entry: no maxAttempts bounds the returns. */
const unbounded: Registry = { ...seed003Linear, validationSteps: {} };

function atClosure(): RouterState {
  const handedOff = route(seed003Linear, startState(seed003Linear, "continuation.issue"), {
    intent: "handoff",
  });
  if (!handedOff.ok) throw new Error("unexpected");
  const closing = route(seed003Linear, handedOff.value.state, { intent: "closing" });
  if (!closing.ok || closing.value.kind !== "closing") throw new Error("unexpected");
  return closing.value.state;
}

describe("returnAfterFailedValidation", () => {
  it("returns to the work step that led into the closure step, as a new iteration", () => {
    // seed003Linear's entry for closure.issue sets onFailure.maxAttempts: 3.
    const back = returnAfterFailedValidation(seed003Linear, atClosure(), {
      closureStepId: "closure.issue",
    });
    expect(back.ok && back.value).toMatchObject({
      kind: "step",
      stepId: "continuation.issue",
      via: "validation-retry",
      attempt: 1,
    });
    expect(back.ok && back.value.state).toMatchObject({
      iteration: 3,
      previousStepId: "closure.issue",
      visitExecutions: 0,
      validationAttempts: { "closure.issue": 1 },
    });
  });

  it("returns to the work step, not the verification step between work and closure", () => {
    const to = (target: string | null) => ({ kind: "target", target }) as const;
    const registry = registryOf("gate", [
      gateStep("initial.analyze", { transitions: { next: to("continuation.implement") } }),
      gateStep("continuation.implement", { transitions: { next: to("verification.verify") } }),
      gateStep("verification.verify", {
        transitions: { next: to("closure.fix"), repeat: to("continuation.implement") },
      }),
      gateStep("closure.fix", {
        transitions: { closing: to(null), repeat: to("continuation.implement") },
      }),
    ]);
    let state = startState(registry, "initial.analyze");
    for (const intent of ["next", "next", "next", "closing"] as const) {
      const decision = route(registry, state, { intent });
      if (!decision.ok) throw new Error(decision.issues[0]?.message);
      state = decision.value.state;
    }
    expect(state.closureLeadIn).toEqual({ "closure.fix": "continuation.implement" });
    const back = returnAfterFailedValidation(registry, state, { closureStepId: "closure.fix" });
    expect(back.ok && back.value.stepId).toBe("continuation.implement");
  });

  it("counts attempts and stops past maxAttempts with AGENT_VALIDATION_ABORT", () => {
    let state = atClosure();
    let issue: Problem | undefined;
    const attempts: number[] = [];
    while (issue === undefined) {
      const back = returnAfterFailedValidation(seed003Linear, state, {
        closureStepId: "closure.issue",
      });
      if (!back.ok) {
        issue = back.issues[0];
        break;
      }
      attempts.push(back.value.attempt);
      // The work step hands off again and the closure step closes again.
      const again = route(seed003Linear, back.value.state, { intent: "handoff" });
      const closing = again.ok
        ? route(seed003Linear, again.value.state, { intent: "closing" })
        : again;
      if (!closing.ok) throw new Error("unexpected");
      state = closing.value.state;
    }
    expect(attempts).toEqual([1, 2, 3]);
    expect(issue?.code).toBe("AGENT_VALIDATION_ABORT");
    expect(issue?.message).toContain("failed 4 times; onFailure.maxAttempts is 3");
    expect(issue?.path).toBe('$.validationSteps["closure.issue"].onFailure.maxAttempts');
  });

  it("without maxAttempts, only the run cap bounds it", () => {
    const back = returnAfterFailedValidation(
      unbounded,
      { ...atClosure(), validationAttempts: { "closure.issue": 50 } },
      { closureStepId: "closure.issue" },
    );
    expect(back.ok && back.value.attempt).toBe(51);
    const capped = returnAfterFailedValidation(unbounded, atClosure(), {
      closureStepId: "closure.issue",
      iterationCap: 2,
    });
    expect(!capped.ok && capped.issues[0]?.code).toBe("AGENT_MAX_ITERATIONS");
  });

  it("a closure step the run started at runs again itself", () => {
    const closing = route(seed003Linear, startState(seed003Linear, "closure.issue"), {
      intent: "closing",
    });
    if (!closing.ok) throw new Error("unexpected");
    const back = returnAfterFailedValidation(seed003Linear, closing.value.state, {
      closureStepId: "closure.issue",
    });
    expect(back.ok && back.value.stepId).toBe("closure.issue");
  });

  it("an unknown closure step is a contract violation", () => {
    expect(() =>
      returnAfterFailedValidation(seed003Linear, atClosure(), { closureStepId: "closure.nope" }),
    ).toThrow(/not a step of the registry/);
  });
});
