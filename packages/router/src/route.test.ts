import type { Problem, Registry, Result } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createRouter, type RouterOptions } from "./create-router.ts";
import { gateStep, registryOf, seed003Linear } from "./registries.test-helper.ts";
import type { RouteDecision, RouteInput, RouteOptions } from "./route-decision.ts";
import type { RouterState } from "./router-state.ts";
import { startState } from "./started.test-helper.ts";

/** The router's options and one call's options, as these tests pass them together. */
type Options = RouterOptions & RouteOptions;

function route(registry: Registry, state: RouterState, input: RouteInput, options: Options = {}) {
  const { handoff, ...routerOptions } = options;
  return createRouter(registry, routerOptions).route(
    state,
    input,
    handoff === undefined ? {} : { handoff },
  );
}

const to = (target: string | null) => ({ kind: "target", target }) as const;

function decide(
  registry: Registry,
  at: string | RouterState,
  input: RouteInput,
  options?: Options,
): RouteDecision {
  const state = typeof at === "string" ? startState(registry, at) : at;
  const result = route(registry, state, input, options);
  if (!result.ok) throw new Error(`expected a decision, got ${JSON.stringify(result.issues)}`);
  return result.value;
}

function refuse(
  registry: Registry,
  at: string | RouterState,
  input: RouteInput,
  options?: Options,
): Problem {
  const state = typeof at === "string" ? startState(registry, at) : at;
  const result: Result<RouteDecision> = route(registry, state, input, options);
  if (result.ok) throw new Error(`expected a problem, got ${JSON.stringify(result.value)}`);
  expect(result.issues).toHaveLength(1);
  return result.issues[0] as Problem;
}

describe("route: simple targets", () => {
  it("follows a simple target and starts the next iteration there", () => {
    const decision = decide(seed003Linear, "initial.issue", { intent: "next" });
    expect(decision).toMatchObject({ kind: "step", stepId: "continuation.issue", via: "next" });
    expect(decision.state).toMatchObject({
      iteration: 2,
      stepId: "continuation.issue",
      previousStepId: "initial.issue",
      lastIntent: "next",
      visitExecutions: 0,
      stepCounts: [{ stepId: "initial.issue", executions: 1, retries: 0 }],
    });
  });

  it("never changes the state it was given", () => {
    const state = startState(seed003Linear, "initial.issue");
    const copy = structuredClone(state);
    decide(seed003Linear, state, { intent: "next" });
    expect(state).toEqual(copy);
  });

  it("a target that does not exist is SR-TRANS-001", () => {
    const registry = registryOf("gate", [
      gateStep("initial.a", { transitions: { next: to("nope") } }),
    ]);
    const issue = refuse(registry, "initial.a", { intent: "next" });
    expect(issue.code).toBe("SR-TRANS-001");
    expect(issue.path).toBe('$.steps["initial.a"].transitions.next');
    expect(issue.hint).toContain('Add step "nope"');
  });

  it("a null target on anything but closing is SR-TRANS-002", () => {
    const registry = registryOf("gate", [
      gateStep("initial.a", { transitions: { next: to(null) } }),
    ]);
    expect(refuse(registry, "initial.a", { intent: "next" }).code).toBe("SR-TRANS-002");
  });

  it("a section step is never a target", () => {
    const registry = registryOf("gate", [
      gateStep("initial.a", { transitions: { next: to("section.ctx") } }),
      gateStep("section.ctx"),
    ]);
    expect(refuse(registry, "initial.a", { intent: "next" }).code).toBe("SR-TRANS-012");
  });
});

describe("route: closing", () => {
  it("a closure step's closing with target null starts the completion chain", () => {
    const decision = decide(seed003Linear, "closure.issue", {
      intent: "closing",
      reason: "all done",
    });
    expect(decision).toMatchObject({
      kind: "closing",
      stepId: "closure.issue",
      reason: "all done",
    });
    // The closure execution is counted, but no new iteration starts.
    expect(decision.state).toMatchObject({
      iteration: 1,
      stepCounts: [{ stepId: "closure.issue", executions: 1 }],
    });
  });

  it("a closing transition that names the closure step itself also closes", () => {
    const registry = registryOf("gate", [
      gateStep("closure.issue", { transitions: { closing: to("closure.issue") } }),
    ]);
    expect(decide(registry, "closure.issue", { intent: "closing" }).kind).toBe("closing");
  });

  it("a closing transition to another step is SR-TRANS-015", () => {
    const registry = registryOf("gate", [
      gateStep("closure.issue", { transitions: { closing: to("initial.issue") } }),
      gateStep("initial.issue", { transitions: { next: to("closure.issue") } }),
    ]);
    const issue = refuse(registry, "closure.issue", { intent: "closing" });
    expect(issue.code).toBe("SR-TRANS-015");
    expect(issue.hint).toContain('{ "target": null }');
  });

  it("closing without transitions.closing is SR-TRANS-016 naming the key to add", () => {
    const registry = registryOf("gate", [
      gateStep("closure.issue", { allowedIntents: ["closing", "repeat"], transitions: {} }),
    ]);
    const issue = refuse(registry, "closure.issue", { intent: "closing" });
    expect(issue.code).toBe("SR-TRANS-016");
    expect(issue.hint).toContain('"closing": { "target": null }');
  });

  it("a work step cannot route closing", () => {
    const registry = registryOf("gate", [
      gateStep("continuation.issue", {
        allowedIntents: ["next", "closing"],
        transitions: { closing: to(null) },
      }),
    ]);
    const issue = refuse(registry, "continuation.issue", { intent: "closing" });
    expect(issue.code).toBe("SR-INTENT-001");
    expect(issue.message).toContain('a work step cannot route "closing"');
    expect(issue.hint).toContain('"handoff"');
  });
});

describe("route: conditional transitions", () => {
  const registry = registryOf("gate", [
    gateStep("continuation.check", {
      transitions: {
        next: {
          kind: "conditional",
          condition: "status",
          targets: {
            ready: "continuation.process",
            blocked: "continuation.wait",
            true: "continuation.yes",
            "3": "continuation.three",
            default: "continuation.fallback",
          },
        },
        repeat: { kind: "conditional", condition: "mood", targets: { calm: "continuation.wait" } },
      },
    }),
    ...["process", "wait", "yes", "three", "fallback"].map((s) =>
      gateStep(`continuation.${s}`, { transitions: { next: to(`continuation.${s}`) } }),
    ),
  ]);
  const at = "continuation.check";
  const next = (input: Partial<RouteInput>, options?: RouteOptions) =>
    decide(registry, at, { intent: "next", ...input }, options).stepId;

  it("matches the current step's handoff value", () => {
    expect(next({ handoff: { status: "ready" } })).toBe("continuation.process");
    expect(next({ handoff: { status: "blocked" } })).toBe("continuation.wait");
  });

  it("matches booleans as true/false and numbers as text", () => {
    expect(next({ handoff: { status: true } })).toBe("continuation.yes");
    expect(next({ handoff: { status: 3 } })).toBe("continuation.three");
    expect(next({ handoff: { status: false } })).toBe("continuation.fallback");
  });

  it("looks in the current handoff first, then full paths, then the accumulated handoff", () => {
    expect(next({ handoff: { status: "ready" } }, { handoff: { status: "blocked" } })).toBe(
      "continuation.process",
    );
    expect(next({ handoffPaths: { status: "blocked" } })).toBe("continuation.wait");
    expect(next({}, { handoff: { status: "blocked" } })).toBe("continuation.wait");
  });

  it("takes default when the value is missing, null, structured or unmatched", () => {
    expect(next({})).toBe("continuation.fallback");
    expect(next({ handoff: { status: null } })).toBe("continuation.fallback");
    expect(next({ handoff: { status: { s: "ready" } } })).toBe("continuation.fallback");
    expect(next({ handoff: { status: "READY" } })).toBe("continuation.fallback");
  });

  it("no match and no default is SR-TRANS-014", () => {
    const issue = refuse(registry, at, { intent: "repeat", handoff: { mood: "angry" } });
    expect(issue.code).toBe("SR-TRANS-014");
    expect(issue.message).toContain('handoff "mood" = "angry"');
    expect(issue.hint).toContain('"default"');
    expect(refuse(registry, at, { intent: "repeat" }).message).toContain('no handoff value "mood"');
  });
});

describe("route: repeat", () => {
  it("without a declared target, repeat stays on the step within the same visit", () => {
    const registry = registryOf("gate", [
      gateStep("continuation.a", {
        allowedIntents: ["next", "repeat"],
        transitions: { next: to("continuation.a") },
      }),
    ]);
    const first = decide(registry, "continuation.a", { intent: "repeat" });
    expect(first).toMatchObject({ kind: "step", stepId: "continuation.a", via: "repeat" });
    const second = decide(registry, first.state, { intent: "repeat" });
    expect(second.state).toMatchObject({
      iteration: 3,
      visitExecutions: 2,
      stepCounts: [{ stepId: "continuation.a", executions: 2, retries: 2 }],
    });
  });

  it("honours a declared target", () => {
    const registry = registryOf("gate", [
      gateStep("closure.issue", {
        transitions: { closing: to(null), repeat: to("continuation.issue") },
      }),
      gateStep("continuation.issue", { transitions: { handoff: to("closure.issue") } }),
    ]);
    const decision = decide(registry, "closure.issue", { intent: "repeat" });
    expect(decision).toMatchObject({ stepId: "continuation.issue", via: "repeat" });
    expect(decision.state.visitExecutions).toBe(0);
  });
});

describe("route: jump", () => {
  const registry = registryOf("gate", [
    gateStep("continuation.a", {
      allowedIntents: ["jump", "next"],
      transitions: { next: to("continuation.b") },
    }),
    gateStep("continuation.b", {
      allowedIntents: ["jump"],
      transitions: { jump: to("continuation.a") },
    }),
    gateStep("closure.x", { transitions: { closing: to(null) } }),
    gateStep("section.ctx"),
  ]);

  it("goes to the target the model named", () => {
    expect(
      decide(registry, "continuation.a", { intent: "jump", target: "continuation.b" }),
    ).toMatchObject({
      kind: "step",
      stepId: "continuation.b",
      via: "jump",
    });
  });

  it("the model's target wins over transitions.jump; without one, the transition applies", () => {
    expect(decide(registry, "continuation.b", { intent: "jump", target: "closure.x" }).stepId).toBe(
      "closure.x",
    );
    expect(decide(registry, "continuation.b", { intent: "jump" }).stepId).toBe("continuation.a");
  });

  it("a jump target that does not exist is SR-TRANS-010, inherited names included", () => {
    for (const target of ["continuation.zzz", "constructor", "__proto__", "toString"]) {
      const issue = refuse(registry, "continuation.a", { intent: "jump", target });
      expect(issue.code).toBe("SR-TRANS-010");
      expect(issue.path).toBe('$.steps["continuation.a"].structuredGate.targetField');
    }
  });

  it("a jump to a section step is SR-TRANS-012", () => {
    expect(refuse(registry, "continuation.a", { intent: "jump", target: "section.ctx" }).code).toBe(
      "SR-TRANS-012",
    );
  });

  it("a jump with no target anywhere is SR-TRANS-011", () => {
    expect(refuse(registry, "continuation.a", { intent: "jump" }).code).toBe("SR-TRANS-011");
  });

  it("a jump into a closure step records where it came from", () => {
    const decision = decide(registry, "continuation.a", { intent: "jump", target: "closure.x" });
    expect(decision.state.closureLeadIn).toEqual({ "closure.x": "continuation.a" });
  });
});

describe("route: escalate", () => {
  const registry = registryOf("gate", [
    gateStep("verification.tests", {
      transitions: { next: to("closure.x"), escalate: to("verification.support") },
    }),
    gateStep("verification.support", { transitions: { next: to("verification.tests") } }),
    gateStep("verification.lost", { transitions: { escalate: to("verification.nowhere") } }),
    gateStep("verification.null", { transitions: { escalate: to(null) } }),
    gateStep("verification.none", {
      allowedIntents: ["next", "escalate"],
      transitions: { next: to("closure.x") },
    }),
    gateStep("closure.x", { transitions: { closing: to(null) } }),
  ]);

  it("goes to the declared support step and ignores a model-named target", () => {
    expect(
      decide(registry, "verification.tests", { intent: "escalate", target: "closure.x" }),
    ).toMatchObject({ stepId: "verification.support", via: "escalate" });
  });

  it("codes a missing, null or unknown escalate target", () => {
    expect(refuse(registry, "verification.none", { intent: "escalate" }).code).toBe("SR-TRANS-007");
    expect(refuse(registry, "verification.null", { intent: "escalate" }).code).toBe("SR-TRANS-009");
    expect(refuse(registry, "verification.lost", { intent: "escalate" }).code).toBe("SR-TRANS-008");
  });

  it("only verification steps escalate", () => {
    const work = registryOf("gate", [
      gateStep("continuation.a", {
        allowedIntents: ["escalate"],
        transitions: { escalate: to("continuation.a") },
      }),
    ]);
    expect(refuse(work, "continuation.a", { intent: "escalate" }).code).toBe("SR-INTENT-001");
  });
});

describe("route: handoff", () => {
  it("hands over to the closure step and records the work step that led in", () => {
    const decision = decide(seed003Linear, "continuation.issue", { intent: "handoff" });
    expect(decision).toMatchObject({ stepId: "closure.issue", via: "handoff" });
    expect(decision.state.closureLeadIn).toEqual({ "closure.issue": "continuation.issue" });
  });

  it("a closure step repeating itself keeps the lead-in", () => {
    const handedOff = decide(seed003Linear, "continuation.issue", { intent: "handoff" });
    const repeated = decide(seed003Linear, handedOff.state, { intent: "repeat" });
    expect(repeated.state.closureLeadIn).toEqual({ "closure.issue": "continuation.issue" });
  });

  it("codes a missing, null or unknown handoff target", () => {
    const registry = registryOf("gate", [
      gateStep("continuation.none", { allowedIntents: ["handoff"], transitions: {} }),
      gateStep("continuation.null", { transitions: { handoff: to(null) } }),
      gateStep("continuation.lost", { transitions: { handoff: to("closure.nowhere") } }),
    ]);
    expect(refuse(registry, "continuation.none", { intent: "handoff" }).code).toBe("SR-TRANS-004");
    const nulled = refuse(registry, "continuation.null", { intent: "handoff" });
    expect(nulled.code).toBe("SR-TRANS-005");
    expect(nulled.hint).toContain('"closure.null"');
    expect(refuse(registry, "continuation.lost", { intent: "handoff" }).code).toBe("SR-TRANS-006");
  });

  it("verification steps cannot hand off (they must not skip closure)", () => {
    const registry = registryOf("gate", [
      gateStep("verification.a", {
        allowedIntents: ["handoff"],
        transitions: { handoff: to("closure.x") },
      }),
      gateStep("closure.x", { transitions: { closing: to(null) } }),
    ]);
    expect(refuse(registry, "verification.a", { intent: "handoff" }).code).toBe("SR-INTENT-001");
  });
});

describe("route: initial.X → continuation.X", () => {
  it("continues at continuation.X when no next rule says otherwise", () => {
    const registry = registryOf("gate", [
      gateStep("initial.assess", { allowedIntents: ["next"], transitions: {} }),
      gateStep("continuation.assess", { transitions: { next: to("continuation.assess") } }),
    ]);
    expect(decide(registry, "initial.assess", { intent: "next" })).toMatchObject({
      stepId: "continuation.assess",
      via: "continuation",
    });
  });

  it("an explicit next rule wins", () => {
    const registry = registryOf("gate", [
      gateStep("initial.assess", { transitions: { next: to("initial.other") } }),
      gateStep("initial.other", { transitions: { next: to("initial.other") } }),
      gateStep("continuation.assess", { transitions: { next: to("continuation.assess") } }),
    ]);
    expect(decide(registry, "initial.assess", { intent: "next" }).stepId).toBe("initial.other");
  });

  it("without a rule or a continuation step, next is SR-TRANS-003 saying what to add", () => {
    const registry = registryOf("gate", [
      gateStep("initial.assess", { allowedIntents: ["next"], transitions: {} }),
      gateStep("continuation.other", { allowedIntents: ["next"], transitions: {} }),
    ]);
    const issue = refuse(registry, "initial.assess", { intent: "next" });
    expect(issue.code).toBe("SR-TRANS-003");
    expect(issue.hint).toContain('add step "continuation.assess"');
    const plain = refuse(registry, "continuation.other", { intent: "next" });
    expect(plain.code).toBe("SR-TRANS-003");
    expect(plain.hint).toContain('Add "next": { "target": "<step id>" }');
  });
});

describe("route: intents and step kinds", () => {
  it("abort ends the run as AGENT_ABORTED from any step kind, even when not listed", () => {
    for (const stepId of ["initial.issue", "continuation.issue", "closure.issue"]) {
      const decision = decide(seed003Linear, stepId, { intent: "abort", reason: "repo archived" });
      expect(decision).toMatchObject({
        kind: "abort",
        code: "AGENT_ABORTED",
        stepId,
        reason: "repo archived",
      });
    }
    expect(decide(seed003Linear, "initial.issue", { intent: "abort" })).toMatchObject({
      reason: 'Step "initial.issue" chose abort.',
    });
  });

  it("an intent outside the step's allowedIntents is SR-INTENT-001", () => {
    const issue = refuse(seed003Linear, "initial.issue", { intent: "handoff" });
    expect(issue.code).toBe("SR-INTENT-001");
    expect(issue.message).toContain("allowedIntents [next, repeat]");
  });

  it("a value that is not an intent is SR-INTENT-002", () => {
    const input = { intent: "proceed" } as unknown as RouteInput;
    expect(refuse(seed003Linear, "initial.issue", input).code).toBe("SR-INTENT-002");
  });

  it("a section step cannot route", () => {
    const registry = registryOf("gate", [gateStep("section.ctx")]);
    expect(refuse(registry, "section.ctx", { intent: "next" }).code).toBe("SR-TRANS-012");
  });

  it("a state at a step the registry lacks is SR-TRANS-017", () => {
    const state = { ...startState(seed003Linear, "initial.issue"), stepId: "initial.gone" };
    expect(refuse(seed003Linear, state, { intent: "next" }).code).toBe("SR-TRANS-017");
  });

  it("routing while a check is pending is a contract violation", () => {
    const state = { ...startState(seed003Linear, "initial.issue"), awaitingCheck: true };
    expect(() => route(seed003Linear, state, { intent: "next" })).toThrow(/check is pending/);
  });
});

describe("route: the run-wide iteration cap", () => {
  const loop = registryOf("gate", [
    gateStep("continuation.loop", { transitions: { next: to("continuation.loop") } }),
  ]);

  function runUntilRefused(options?: Options): { last: RouterState; issue: Problem } {
    let state = startState(loop, "continuation.loop");
    for (;;) {
      const result = route(loop, state, { intent: "next" }, options);
      if (!result.ok) return { last: state, issue: result.issues[0] as Problem };
      state = result.value.state;
    }
  }

  it("stops at the gate dialect's default cap of 20 with AGENT_MAX_ITERATIONS", () => {
    const { last, issue } = runUntilRefused();
    expect(last.iteration).toBe(20);
    expect(issue.code).toBe("AGENT_MAX_ITERATIONS");
    expect(issue.message).toContain("iteration cap of 20");
    expect(issue.message).toContain('Step "continuation.loop" ran 20 times');
    expect(issue.hint).toContain("limits.maxIterations");
  });

  it("honours a configured cap", () => {
    expect(runUntilRefused({ iterationCap: 3 }).last.iteration).toBe(3);
  });

  it("closing and abort still end the run at the cap", () => {
    const state = { ...startState(seed003Linear, "closure.issue"), iteration: 5 };
    expect(decide(seed003Linear, state, { intent: "closing" }, { iterationCap: 5 }).kind).toBe(
      "closing",
    );
    expect(decide(seed003Linear, state, { intent: "abort" }, { iterationCap: 5 }).kind).toBe(
      "abort",
    );
  });

  it("refuses a cap that is not a positive integer", () => {
    const state = startState(seed003Linear, "initial.issue");
    for (const iterationCap of [0, -1, 2.5, Number.NaN]) {
      expect(() => route(seed003Linear, state, { intent: "next" }, { iterationCap })).toThrow(
        /positive integer/,
      );
    }
  });
});
