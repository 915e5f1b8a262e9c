import type { CheckDefinition, Problem, Registry } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import { checkStep, registryOf, seed000 } from "./registries.test-helper.ts";
import type { CheckVerdict } from "./route-check.ts";
import type { RouteDecision } from "./route-decision.ts";
import type { RouterState } from "./router-state.ts";
import { startState } from "./started.test-helper.ts";

/** One execution of the current step: beforeCheck, then (if asked) routeCheck with the verdict. */
function execute(
  registry: Registry,
  state: RouterState,
  verdict: CheckVerdict,
  iterationCap?: number,
): { decision?: RouteDecision; skipped?: RouterState; issue?: Problem } {
  const router = createRouter(registry, iterationCap === undefined ? {} : { iterationCap });
  const before = router.beforeCheck(state);
  if (!before.ok) return { issue: before.issues[0] as Problem };
  if (before.value.kind === "step") return { skipped: before.value.state };
  const routed = router.routeCheck(before.value.state, verdict);
  if (!routed.ok) return { issue: routed.issues[0] as Problem };
  return { decision: routed.value };
}

const beforeCheck = (registry: Registry, state: RouterState) =>
  createRouter(registry).beforeCheck(state);
const routeCheck = (registry: Registry, state: RouterState, verdict: CheckVerdict) =>
  createRouter(registry).routeCheck(state, verdict);

const pass = { passed: true, message: "fine" };
const failed = { passed: false, message: "2 tests fail" };
const passed = { passed: true };

/** `s_one` with `check` (and `iterations` when min or max is given), then `s_two`. */
function single(check: CheckDefinition, min?: number, max?: number): Registry {
  return registryOf("check", [
    checkStep("s_one", {
      check,
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
    }),
    checkStep("s_two", { check: { onPass: { kind: "complete" } } }),
  ]);
}

describe("beforeCheck: iterations.min", () => {
  it("runs the step again without its check until it has run min times in this visit", () => {
    const registry = single({ onPass: { kind: "next", target: "s_two" } }, 3, 5);
    let state = startState(registry, "s_one");
    const first = beforeCheck(registry, state);
    expect(first.ok && first.value).toMatchObject({
      kind: "step",
      stepId: "s_one",
      via: "min-iterations",
    });
    state = first.ok ? first.value.state : state;
    const second = beforeCheck(registry, state);
    state = second.ok ? second.value.state : state;
    const third = beforeCheck(registry, state);
    expect(third.ok && third.value).toMatchObject({ kind: "check", stepId: "s_one" });
    expect(third.ok && third.value.state).toMatchObject({
      iteration: 3,
      visitExecutions: 3,
      awaitingCheck: true,
    });
  });

  it("calling it twice for one execution is a contract violation", () => {
    const registry = single({ onPass: { kind: "complete" } });
    const first = beforeCheck(registry, startState(registry, "s_one"));
    if (!first.ok) throw new Error("unexpected");
    expect(() => beforeCheck(registry, first.value.state)).toThrow(/twice/);
  });
});

describe("routeCheck: pass", () => {
  it("onPass.next goes to that step as a new visit", () => {
    const { decision } = execute(seed000, startState(seed000, "s_a8f3"), pass);
    expect(decision).toMatchObject({
      kind: "step",
      stepId: "s_b2c1",
      via: "check-pass",
      reason: "fine",
    });
    expect(decision?.state).toMatchObject({
      iteration: 2,
      visitExecutions: 0,
      awaitingCheck: false,
    });
  });

  it("onPass.complete ends the flow with a complete decision, not with success", () => {
    const { decision } = execute(seed000, startState(seed000, "s_c9d4"), pass);
    expect(decision).toMatchObject({ kind: "complete", stepId: "s_c9d4", message: "fine" });
    expect(decision?.state.iteration).toBe(1);
  });

  it("an onPass target that does not exist is SR-TRANS-001", () => {
    const registry = single({ onPass: { kind: "next", target: "s_gone" } });
    const { issue } = execute(registry, startState(registry, "s_one"), pass);
    expect(issue?.code).toBe("SR-TRANS-001");
    expect(issue?.path).toBe("$.steps.s_one.check.onPass.next");
  });
});

describe("routeCheck: fail", () => {
  it("takes onFail at once: a fallback after the first NG, even under iterations.max", () => {
    const registry = single(
      { onPass: { kind: "complete" }, onFail: { kind: "fallback", target: "s_two" } },
      1,
      3,
    );
    const { decision } = execute(registry, startState(registry, "s_one"), failed);
    expect(decision).toMatchObject({ kind: "step", stepId: "s_two", via: "check-fallback" });
  });

  it("without onFail, runs the step again while it has executed fewer than iterations.max times in the run", () => {
    const registry = single({ onPass: { kind: "complete" } }, 1, 3);
    let state = startState(registry, "s_one");
    const steps: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const { decision } = execute(registry, state, failed);
      if (decision === undefined) throw new Error("unexpected");
      steps.push(`${decision.kind === "step" ? decision.via : decision.kind}:${decision.stepId}`);
      state = decision.state;
    }
    expect(steps).toEqual(["check-again:s_one", "check-again:s_one"]);
    const { issue } = execute(registry, state, failed);
    expect(issue?.code).toBe("AGENT_VALIDATION_ABORT");
    expect(issue?.message).toContain("after 3 execution(s) (iterations.max 3)");
  });

  it("does not hold the executions onFail.retry started against iterations.max", () => {
    // s_one (max 2, retry ×1): NG → retry → OK → s_two NG → fallback → s_one is its 2nd
    // counted execution; OK → s_two NG → fallback would be the 3rd: SR-ITER-001.
    const registry = registryOf("check", [
      checkStep("s_one", {
        max: 2,
        check: {
          onPass: { kind: "next", target: "s_two" },
          onFail: { kind: "retry", maxRetries: 1 },
        },
      }),
      checkStep("s_two", {
        check: { onPass: { kind: "complete" }, onFail: { kind: "fallback", target: "s_one" } },
      }),
    ]);
    let state = startState(registry, "s_one");
    const path: string[] = [];
    for (const verdict of [failed, passed, failed, passed]) {
      const { decision } = execute(registry, state, verdict);
      if (decision === undefined) throw new Error("unexpected");
      path.push(`${decision.kind === "step" ? decision.via : decision.kind}:${decision.stepId}`);
      state = decision.state;
    }
    expect(path).toEqual([
      "check-retry:s_one",
      "check-pass:s_two",
      "check-fallback:s_one",
      "check-pass:s_two",
    ]);
    const { issue } = execute(registry, state, failed);
    expect(issue).toMatchObject({ code: "SR-ITER-001", family: "AGENT_MAX_ITERATIONS" });
    expect(issue?.message).toContain('Step "s_one" has executed 2 time(s)');
  });

  it("ends the run naming the step when a fallback would run it past iterations.max", () => {
    // s_one (max 2) → NG → s_back → pass → s_one → NG → s_back → pass → s_one: a third run.
    const registry = registryOf("check", [
      checkStep("s_one", {
        max: 2,
        check: { onPass: { kind: "complete" }, onFail: { kind: "fallback", target: "s_back" } },
      }),
      checkStep("s_back", { check: { onPass: { kind: "next", target: "s_one" } } }),
    ]);
    let state = startState(registry, "s_one");
    const path: string[] = [];
    for (const verdict of [failed, passed, failed]) {
      const { decision } = execute(registry, state, verdict);
      if (decision === undefined) throw new Error("unexpected");
      path.push(decision.stepId);
      state = decision.state;
    }
    expect(path).toEqual(["s_back", "s_one", "s_back"]);
    const { issue } = execute(registry, state, passed);
    expect(issue).toMatchObject({ code: "SR-ITER-001", family: "AGENT_MAX_ITERATIONS" });
    expect(issue?.message).toContain('Step "s_one" has executed 2 time(s)');
    expect(issue?.path).toBe("$.steps.s_one.iterations.max");
  });

  it("onFail.retry starts a new visit, counted against maxRetries", () => {
    const registry = single({
      onPass: { kind: "complete" },
      onFail: { kind: "retry", maxRetries: 2 },
    });
    let state = startState(registry, "s_one");
    for (const expected of [1, 2]) {
      const { decision } = execute(registry, state, failed);
      expect(decision).toMatchObject({ kind: "step", stepId: "s_one", via: "check-retry" });
      state = decision?.state ?? state;
      expect(state.checkRetries).toBe(expected);
      expect(state.visitExecutions).toBe(0);
    }
    const { issue } = execute(registry, state, failed);
    expect(issue?.code).toBe("AGENT_VALIDATION_ABORT");
    expect(issue?.message).toContain("after 2 retries (onFail.maxRetries 2)");
    expect(issue?.message).toContain("2 tests fail");
  });

  it("maxRetries 0 retries without limit until the run cap", () => {
    const registry = single({
      onPass: { kind: "complete" },
      onFail: { kind: "retry", maxRetries: 0 },
    });
    let state = startState(registry, "s_one");
    let issue: Problem | undefined;
    while (issue === undefined) {
      const step = execute(registry, state, failed, 12);
      issue = step.issue;
      state = step.decision?.state ?? state;
    }
    expect(issue.code).toBe("AGENT_MAX_ITERATIONS");
    expect(state.iteration).toBe(12);
    expect(state.checkRetries).toBe(11);
  });

  it("re-entering a step from another step restarts its retry count", () => {
    const registry = registryOf("check", [
      checkStep("s_one", {
        check: {
          onPass: { kind: "next", target: "s_two" },
          onFail: { kind: "retry", maxRetries: 1 },
        },
      }),
      checkStep("s_two", {
        check: { onPass: { kind: "complete" }, onFail: { kind: "fallback", target: "s_one" } },
      }),
    ]);
    let state = startState(registry, "s_one");
    for (const verdict of [failed, pass, failed]) {
      state = execute(registry, state, verdict).decision?.state ?? state;
    }
    expect(state).toMatchObject({ stepId: "s_one", checkRetries: 0 });
    // One more retry is available again.
    expect(execute(registry, state, failed).decision).toMatchObject({ via: "check-retry" });
  });

  it("without onFail, a failed check ends the run with AGENT_VALIDATION_ABORT", () => {
    const registry = single({ onPass: { kind: "complete" } });
    const { issue } = execute(registry, startState(registry, "s_one"), failed);
    expect(issue?.code).toBe("AGENT_VALIDATION_ABORT");
    expect(issue?.hint).toContain('"onFail"');
  });

  it("a fallback to a missing step is SR-TRANS-001", () => {
    const registry = single({
      onPass: { kind: "complete" },
      onFail: { kind: "fallback", target: "s_x" },
    });
    expect(execute(registry, startState(registry, "s_one"), failed).issue?.code).toBe(
      "SR-TRANS-001",
    );
  });
});

describe("routeCheck: contract", () => {
  it("a step without a check is SR-TRANS-018", () => {
    const registry = registryOf("check", [checkStep("s_bare", {})]);
    expect(execute(registry, startState(registry, "s_bare"), pass).issue?.code).toBe(
      "SR-TRANS-018",
    );
  });

  it("routeCheck without beforeCheck is a contract violation", () => {
    expect(() => routeCheck(seed000, startState(seed000, "s_a8f3"), pass)).toThrow(
      /without beforeCheck/,
    );
  });
});
