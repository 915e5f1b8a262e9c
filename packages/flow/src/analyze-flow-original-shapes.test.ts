/**
 * What static analysis says about the shapes the original runtime's agents use: subprocess and
 * gate-less closure steps, steps that only lead into a validated closure, a work step's `next`
 * into closure, `abort` with a null target, and registries with one entry per verdict type.
 */
import type { Registry, Step } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { analyzeFlow } from "./analyze-flow.ts";
import type { FlowFinding } from "./flow-codes.ts";
import { buildFlowGraph } from "./flow-graph.ts";
import {
  gateStep,
  type RegistrySpec,
  registryOf,
  validationStep,
} from "./flow-registries.test-helper.ts";

const codes = (findings: readonly FlowFinding[]) =>
  findings.map((finding) => `${finding.code} ${finding.path}`);

const flow = (steps: readonly Step[], spec: RegistrySpec = {}): Registry =>
  registryOf(steps, { entryStep: steps[0]?.id as string, ...spec });

/** A closure step whose work is a program: no gate, no transitions. */
function subprocessStep(id: string): Step {
  const { gate: _gate, ...step } = gateStep(id, { kind: "closure", intents: ["closing"] });
  return {
    ...step,
    subprocess: { command: "node", args: ["merge.mjs"], timeoutMs: 30_000, contextKeys: [] },
  };
}

/** A gate-dialect closure step without structuredGate, completed by the verdict. */
function ungatedClosure(id: string): Step {
  const { gate: _gate, ...step } = gateStep(id, { kind: "closure", intents: ["closing"] });
  return step;
}

describe("closure steps the model's intent does not route", () => {
  it("a subprocess step completes on exit 0 and runs again otherwise: no SR-FLOW-004", () => {
    const registry = flow([subprocessStep("merge")]);
    // Only the run cap bounds the rerun (`climpt validate` drops this when the agent declares one).
    expect(codes(analyzeFlow(registry))).toEqual(["SR-FLOW-005 $.steps.merge"]);
    expect(buildFlowGraph(registry).edges.map((edge) => [edge.to, edge.label])).toEqual([
      [null, "exit 0"],
      ["merge", "exit ≠ 0"],
    ]);
  });

  it("a gate-less closure step is completed by the verdict: no SR-FLOW-004", () => {
    expect(analyzeFlow(flow([ungatedClosure("triage")]))).toEqual([]);
  });

  it("a work step without a gate still cannot complete", () => {
    const { gate: _gate, ...step } = gateStep("initial.a", { intents: ["next"] });
    expect(codes(analyzeFlow(flow([step])))).toEqual(['SR-FLOW-004 $.steps["initial.a"]']);
  });
});

describe("steps only a failed validation could return to (SR-FLOW-003)", () => {
  it("are unreachable: the validation-retry edge drawn to them does not count", () => {
    const registry = flow(
      [
        gateStep("initial.a", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        gateStep("initial.b", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        gateStep("closure.end", { intents: ["closing"], transitions: { closing: null } }),
      ],
      {
        validationSteps: [
          validationStep("closure.end", ["tests"], { action: "retry", maxAttempts: 3 }),
        ],
      },
    );
    // The graph draws the retry edge to both work steps …
    expect(
      buildFlowGraph(registry)
        .edges.filter((edge) => edge.kind === "validation-retry")
        .map((edge) => edge.to),
    ).toEqual(["initial.a", "initial.b"]);
    // … but only initial.a is reachable from the entry.
    expect(codes(analyzeFlow(registry))).toEqual(['SR-FLOW-003 $.steps["initial.b"]']);
  });
});

describe("crossing from work into closure (SR-TRANS-108)", () => {
  it("is an error with next or jump, and fine with handoff", () => {
    const registry = flow([
      gateStep("initial.a", {
        intents: ["next", "jump", "handoff"],
        transitions: { next: "closure.end", jump: "closure.end", handoff: "closure.end" },
      }),
      gateStep("closure.end", { intents: ["closing"], transitions: { closing: null } }),
    ]);
    expect(codes(analyzeFlow(registry))).toEqual([
      'SR-TRANS-108 $.steps["initial.a"].transitions.next',
      'SR-TRANS-108 $.steps["initial.a"].transitions.jump',
    ]);
  });

  it("is fine from a verification step", () => {
    const registry = flow([
      gateStep("initial.a", { intents: ["next"], transitions: { next: "verify.a" } }),
      gateStep("verify.a", {
        kind: "verification",
        intents: ["next"],
        transitions: { next: "closure.end" },
      }),
      gateStep("closure.end", { intents: ["closing"], transitions: { closing: null } }),
    ]);
    expect(analyzeFlow(registry)).toEqual([]);
  });
});

describe("abort with a null target", () => {
  it("is how a definition says terminate: no SR-TRANS-103", () => {
    const registry = flow([
      gateStep("initial.a", {
        intents: ["handoff", "abort"],
        transitions: { handoff: "closure.end", abort: null },
      }),
      gateStep("closure.end", { intents: ["closing"], transitions: { closing: null } }),
    ]);
    expect(analyzeFlow(registry)).toEqual([]);
  });
});

describe("the run's own entry (entries)", () => {
  const registry = flow(
    [
      gateStep("initial.issue", {
        intents: ["handoff"],
        handoff: ["findings"],
        transitions: { handoff: "closure.review" },
      }),
      gateStep("initial.default", {
        intents: ["handoff"],
        transitions: { handoff: "closure.review" },
      }),
      gateStep("closure.review", {
        intents: ["closing"],
        transitions: { closing: null },
        uvVariables: ["initial_issue_findings"],
      }),
    ],
    { entryStepMapping: { "poll:state": "initial.issue", "count:iteration": "initial.default" } },
  );

  it("without it, every declared entry counts: the other entry's path lacks the handoff", () => {
    expect(codes(analyzeFlow(registry))).toEqual([
      'SR-FLOW-007 $.steps["closure.review"].uvVariables[0]',
    ]);
  });

  it("with it, only that entry's runs are analysed: the other entry's steps never run", () => {
    expect(codes(analyzeFlow(registry, { entries: ["initial.issue"] }))).toEqual([
      'SR-FLOW-003 $.steps["initial.default"]',
    ]);
  });

  it("still checks every declared entry names a flow step", () => {
    const broken = { ...registry, entryStepMapping: { ...registry.entryStepMapping, x: "nope" } };
    expect(codes(analyzeFlow(broken, { entries: ["initial.issue"] }))).toContain(
      "SR-FLOW-002 $.entryStepMapping.x",
    );
  });
});
