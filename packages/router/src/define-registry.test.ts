import { interpretGate } from "@climpt/gate-interpreter";
import type { StructuredGate } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import { defineRegistry, type RegistrySpec } from "./define-registry.ts";

const gate = (allowedIntents: StructuredGate["allowedIntents"]): StructuredGate => ({
  allowedIntents,
  intentSchemaRef: "#/properties/action",
  intentField: "action",
  handoffFields: ["plan"],
  failFast: true,
});

/** Only what routing reads: kinds from the ids, gates, transitions. */
const spec: RegistrySpec = {
  dialect: "gate",
  entryStep: "initial.plan",
  steps: {
    "initial.plan": {
      gate: gate(["next"]),
      transitions: { next: { kind: "target", target: "continuation.build" } },
    },
    "continuation.build": {
      gate: gate(["next", "handoff"]),
      transitions: {
        next: {
          kind: "conditional",
          condition: "plan",
          targets: { again: "continuation.build", default: "closure.done" },
        },
        handoff: { kind: "target", target: "closure.done" },
      },
    },
    "closure.done": {
      gate: gate(["closing"]),
      transitions: { closing: { kind: "target", target: null } },
    },
  },
};

describe("defineRegistry: a checked registry without the loader", () => {
  it("fills what routing does not read, and the router walks it to closing", () => {
    const built = defineRegistry(spec);
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    const registry = built.value;
    expect(registry.steps["closure.done"]?.kind).toBe("closure");
    expect(registry.steps["initial.plan"]).toMatchObject({ id: "initial.plan", kind: "work" });
    expect(registry.pathTemplate).toBe("{c1}/{c2}/{c3}/f_{edition}_{adaptation}.md");

    const router = createRouter(registry);
    const start = router.start("initial.plan");
    if (!start.ok) throw new Error(JSON.stringify(start.issues));
    let state = start.value;
    const visited: string[] = [state.stepId];
    for (const output of [{ action: "next" }, { action: "next", plan: "done" }]) {
      const step = registry.steps[state.stepId];
      if (step === undefined) throw new Error(state.stepId);
      const read = interpretGate(step, output, { iteration: state.iteration });
      if (!read.ok) throw new Error(JSON.stringify(read.issues));
      const decision = router.route(state, read.value, { handoff: read.value.handoff });
      if (!decision.ok || decision.value.kind !== "step") throw new Error(JSON.stringify(decision));
      state = decision.value.state;
      visited.push(state.stepId);
    }
    const closing = router.route(state, { intent: "closing" });
    expect(closing.ok && closing.value.kind).toBe("closing");
    expect(visited).toEqual(["initial.plan", "continuation.build", "closure.done"]);
  });

  it("refuses a misspelled target, a section target and a missing entry step at build, all at once", () => {
    const built = defineRegistry({
      ...spec,
      entryStep: "initial.plna",
      steps: {
        ...spec.steps,
        "initial.plan": {
          gate: gate(["next"]),
          transitions: { next: { kind: "target", target: "continuation.biuld" } },
        },
        "continuation.fragment": {
          transitions: {
            next: { kind: "conditional", condition: "x", targets: { default: "section.ctx" } },
          },
        },
        "section.ctx": {},
      },
    });
    expect(built.ok).toBe(false);
    expect(!built.ok && built.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["SR-ENTRY-002", "$.entryStep"],
      ["SR-TRANS-001", '$.steps["initial.plan"].transitions.next.target'],
      ["SR-TRANS-012", '$.steps["continuation.fragment"].transitions.next.targets.default'],
    ]);
    expect(!built.ok && built.issues[1]?.message).toContain('"continuation.biuld"');
  });

  it("checks the check dialect's onPass.next and onFail.fallback", () => {
    const built = defineRegistry({
      dialect: "check",
      steps: {
        s_a: {
          check: {
            onPass: { kind: "next", target: "s_b" },
            onFail: { kind: "fallback", target: "s_c" },
          },
        },
        s_b: { check: { onPass: { kind: "complete" } } },
      },
    });
    expect(!built.ok && built.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["SR-TRANS-001", "$.steps.s_a.check.onFail.fallback"],
    ]);
  });
});
