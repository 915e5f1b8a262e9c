import { describe, expect, it } from "vitest";
import type { Registry, Step, StructuredGate, Transitions } from "./model.ts";
import { reachableSteps, stepSuccessors } from "./step-reachability.ts";
import { registryOf, stepOf } from "./testing.ts";

function gate(
  allowedIntents: StructuredGate["allowedIntents"],
  targetField?: string,
): StructuredGate {
  return {
    allowedIntents,
    intentSchemaRef: "#/properties/next_action/properties/action",
    intentField: "next_action.action",
    handoffFields: [],
    failFast: true,
    ...(targetField === undefined ? {} : { targetField }),
  };
}

function step(id: string, kind: Step["kind"], extra: Partial<Step> = {}): Step {
  return stepOf(id, { kind, ...extra });
}

function gated(
  id: string,
  kind: Step["kind"],
  transitions: Transitions,
  allowed = gate(Object.keys(transitions) as StructuredGate["allowedIntents"]),
): Step {
  return step(id, kind, { gate: allowed, transitions });
}

function registry(...steps: Step[]): Registry {
  return registryOf(steps);
}

const T = (target: string | null) => ({ kind: "target" as const, target });

describe("reachableSteps", () => {
  const flow = registry(
    gated("initial.polling", "work", { repeat: T("initial.polling") }, gate(["next", "repeat"])),
    gated("continuation.polling", "work", { handoff: T("closure.polling") }),
    gated("closure.polling", "closure", { closing: T(null), repeat: T("closure.polling") }),
    gated("initial.project", "work", { handoff: T("closure.project") }),
    gated("closure.project", "closure", { closing: T(null) }),
    step("section.context", "section"),
  );

  it("follows declared transitions and initial.X → continuation.X, never into other entries' steps", () => {
    const reach = reachableSteps(flow, ["initial.polling"]);
    expect([...reach.steps].sort()).toEqual([
      "closure.polling",
      "continuation.polling",
      "initial.polling",
    ]);
    expect(reach.open).toBe(false);
  });

  it("ignores transitions of intents the gate does not allow, and section steps", () => {
    const r = registry(
      gated("a", "work", { next: T("b"), handoff: T("c") }, gate(["next"])),
      gated("b", "work", { next: T("section.x") }),
      gated("c", "closure", { closing: T(null) }),
      step("section.x", "section"),
    );
    expect([...reachableSteps(r, ["a"]).steps].sort()).toEqual(["a", "b"]);
    expect(stepSuccessors(r, r.steps.b as Step)).toEqual([]);
  });

  it("counts the first closure step as reachable under a budget verdict", () => {
    expect(
      reachableSteps(flow, ["initial.project"], { verdictType: "count:iteration" }).steps,
    ).toEqual(new Set(["initial.project", "closure.polling", "closure.project"]));
    expect(reachableSteps(flow, ["initial.project"], { verdictType: "poll:state" }).steps).toEqual(
      new Set(["initial.project", "closure.project"]),
    );
  });

  it("opens every flow step when a reachable step takes its jump target from the model", () => {
    const r = registry(
      gated("a", "work", {}, gate(["jump"], "next_action.target")),
      gated("b", "work", {}),
      step("section.x", "section"),
    );
    const reach = reachableSteps(r, ["a"]);
    expect(reach.open).toBe(true);
    expect([...reach.steps].sort()).toEqual(["a", "b"]);
  });

  it("follows check onPass / onFail targets", () => {
    const r = registry(
      step("s_1", "work", { check: { onPass: { kind: "next", target: "s_2" } } }),
      step("s_2", "closure", {
        check: { onPass: { kind: "complete" }, onFail: { kind: "fallback", target: "s_3" } },
      }),
      step("s_3", "work", { check: { onPass: { kind: "complete" } } }),
      step("s_4", "work", { check: { onPass: { kind: "complete" } } }),
    );
    expect([...reachableSteps(r, ["s_1"]).steps].sort()).toEqual(["s_1", "s_2", "s_3"]);
  });
});
