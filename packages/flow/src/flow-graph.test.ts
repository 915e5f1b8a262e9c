import { describe, expect, it } from "vitest";
import { analyzeFlow } from "./analyze-flow.ts";
import { buildFlowGraph, type FlowEdge } from "./flow-graph.ts";
import {
  checkStep,
  conditional,
  fixBugRegistry,
  gateStep,
  registryOf,
  sectionStep,
  seed000Registry,
  validationStep,
  validator,
} from "./flow-registries.test-helper.ts";

/** `from -label-> to` (End for terminal edges), with the bound when there is one. */
function arrows(edges: readonly FlowEdge[]): string[] {
  return edges.map(
    (edge) =>
      `${edge.from} -${edge.label}-> ${edge.to ?? "End"}${edge.bound === undefined ? "" : ` (bound ${edge.bound})`}`,
  );
}

describe("buildFlowGraph", () => {
  it("draws the original's check flow: onPass, onFail retry and fallback, iterations, completion", () => {
    const graph = buildFlowGraph(seed000Registry());
    expect(graph.nodes.map((node) => node.id)).toEqual(["s_a8f3", "s_b2c1", "s_c9d4"]);
    expect(arrows(graph.edges)).toEqual([
      "s_a8f3 -onPass-> s_b2c1",
      "s_a8f3 -onFail: retry ≤2-> s_a8f3 (bound 2)",
      "s_b2c1 -onPass-> s_c9d4",
      "s_b2c1 -onFail: fallback-> s_a8f3",
      "s_b2c1 -iteration ≤5-> s_b2c1 (bound 5)",
      "s_c9d4 -onPass-> End",
      "s_c9d4 -onFail: fallback-> s_b2c1",
    ]);
    expect(graph.entries).toEqual([{ stepId: "s_a8f3", label: "entryStep", path: "$.entryStep" }]);
  });

  it("treats maxRetries 0 as an unlimited retry: a self edge without a bound", () => {
    const graph = buildFlowGraph(
      registryOf([checkStep("s_1", { onPass: "complete", onFail: { retry: 0 } })], {
        entryStep: "s_1",
      }),
    );
    expect(arrows(graph.edges)).toEqual([
      "s_1 -onPass-> End",
      "s_1 -onFail: retry (unlimited)-> s_1",
    ]);
  });

  it("draws one edge per conditional target, default included, with the condition and its path", () => {
    const graph = buildFlowGraph(
      registryOf([
        gateStep("initial.a", {
          intents: ["next"],
          transitions: {
            next: conditional("status", {
              ready: "closure.a",
              blocked: "initial.a",
              default: "closure.a",
            }),
          },
          handoff: ["status"],
        }),
        gateStep("closure.a", { intents: ["closing"], transitions: { closing: null } }),
      ]),
    );
    const fromA = graph.edges.filter((edge) => edge.from === "initial.a");
    expect(arrows(fromA)).toEqual([
      "initial.a -next [status=ready]-> closure.a",
      "initial.a -next [status=blocked]-> initial.a",
      "initial.a -next [default]-> closure.a",
    ]);
    expect(fromA[1]?.condition).toEqual({ key: "status", value: "blocked" });
    expect(fromA[1]?.path).toBe('$.steps["initial.a"].transitions.next.targets.blocked');
  });

  it("routes initial.X's next to continuation.X when no next rule is declared", () => {
    const steps = [
      gateStep("initial.x", { intents: ["next"] }),
      gateStep("continuation.x", { intents: ["handoff"], transitions: { handoff: "closure.x" } }),
      gateStep("closure.x", { intents: ["closing"], transitions: { closing: null } }),
    ];
    const graph = buildFlowGraph(registryOf(steps, { entryStep: "initial.x" }));
    const implicit = graph.edges.find((edge) => edge.kind === "implicit-next");
    expect(implicit).toMatchObject({ from: "initial.x", to: "continuation.x", label: "next" });
  });

  it("adds no implicit next without a continuation step, or when next is declared or not allowed", () => {
    const alone = buildFlowGraph(registryOf([gateStep("initial.x", { intents: ["next"] })]));
    const declared = buildFlowGraph(
      registryOf([
        gateStep("initial.x", { intents: ["next"], transitions: { next: "closure.x" } }),
        gateStep("continuation.x", { intents: ["next"], transitions: { next: "closure.x" } }),
        gateStep("closure.x", { intents: ["closing"], transitions: { closing: null } }),
      ]),
    );
    const notAllowed = buildFlowGraph(
      registryOf([
        gateStep("initial.x", { intents: ["handoff"], transitions: { handoff: "closure.x" } }),
        gateStep("continuation.x", { intents: ["next"], transitions: { next: "closure.x" } }),
        gateStep("closure.x", { intents: ["closing"], transitions: { closing: null } }),
      ]),
    );
    for (const graph of [alone, declared, notAllowed]) {
      expect(graph.edges.some((edge) => edge.kind === "implicit-next")).toBe(false);
    }
  });

  it("keeps a step on itself for an allowed repeat without a transition", () => {
    const graph = buildFlowGraph(registryOf([gateStep("initial.a", { intents: ["repeat"] })]));
    expect(arrows(graph.edges)).toEqual(["initial.a -repeat-> initial.a"]);
    expect(graph.edges[0]?.kind).toBe("implicit-repeat");
  });

  it("ends the flow for a closure's closing (declared null, or only allowed) and for no other intent", () => {
    const graph = buildFlowGraph(
      registryOf([
        gateStep("closure.a", { intents: ["closing"], transitions: { closing: null } }),
        gateStep("closure.b", { intents: ["closing"] }),
        gateStep("initial.c", { intents: ["next"], transitions: { next: null } }),
      ]),
    );
    expect(arrows(graph.edges)).toEqual(["closure.a -closing-> End", "closure.b -closing-> End"]);
    expect(graph.edges.map((edge) => edge.kind)).toEqual(["transition", "implicit-closing"]);
  });

  it("draws no edge for a transition whose intent the gate does not allow, nor for abort", () => {
    const graph = buildFlowGraph(
      registryOf([
        gateStep("initial.a", {
          intents: ["next", "abort"],
          transitions: { next: "initial.b", jump: "initial.c", abort: "initial.c" },
        }),
        gateStep("initial.b", { intents: [] }),
        gateStep("initial.c", { intents: [] }),
      ]),
    );
    expect(arrows(graph.edges)).toEqual(["initial.a -next-> initial.b"]);
  });

  it("leaves section steps out of the flow", () => {
    const graph = buildFlowGraph(
      registryOf([
        sectionStep("section.context"),
        gateStep("closure.a", { intents: ["closing"], transitions: { closing: null } }),
      ]),
    );
    expect(graph.nodes.map((node) => node.id)).toEqual(["closure.a"]);
  });

  it("returns a failed validation to the work step leading into the closure, through a verification step", () => {
    const graph = buildFlowGraph(fixBugRegistry());
    const retries = graph.edges.filter((edge) => edge.kind === "validation-retry");
    expect(arrows(retries)).toEqual([
      "closure.fix -validation retry ≤3-> continuation.implement (bound 3)",
    ]);
    expect(retries[0]?.path).toBe('$.validationSteps["closure.fix"].onFailure');
    const closure = graph.nodes.find((node) => node.id === "closure.fix");
    expect(closure?.validation?.validators).toEqual(["git-clean", "tests"]);
  });

  it("adds no validation retry when onFailure aborts, and an unbounded one without maxAttempts", () => {
    const steps = [
      gateStep("initial.a", { intents: ["handoff"], transitions: { handoff: "closure.a" } }),
      gateStep("closure.a", { intents: ["closing"], transitions: { closing: null } }),
    ];
    const aborting = buildFlowGraph(
      registryOf(steps, {
        validationSteps: [validationStep("closure.a", ["tests"], { action: "abort" })],
      }),
    );
    expect(aborting.edges.some((edge) => edge.kind === "validation-retry")).toBe(false);
    const unbounded = buildFlowGraph(
      registryOf(steps, {
        validationSteps: [validationStep("closure.a", ["tests"], { action: "retry" })],
      }),
    );
    expect(arrows(unbounded.edges.filter((edge) => edge.kind === "validation-retry"))).toEqual([
      "closure.a -validation retry-> initial.a",
    ]);
  });

  it("lists entries from entryStepMapping (labelled by verdict type) then entryStep", () => {
    const graph = buildFlowGraph(
      registryOf([gateStep("initial.a", { intents: [] }), gateStep("initial.b", { intents: [] })], {
        entryStepMapping: { "poll:state": "initial.a", "count:iteration": "initial.b" },
        entryStep: "initial.a",
      }),
    );
    expect(graph.entries).toEqual([
      { stepId: "initial.a", label: "poll:state", path: '$.entryStepMapping["poll:state"]' },
      {
        stepId: "initial.b",
        label: "count:iteration",
        path: '$.entryStepMapping["count:iteration"]',
      },
      { stepId: "initial.a", label: "entryStep", path: "$.entryStep" },
    ]);
  });

  it("with a budget verdict, leads every work step to the first closure step, which validation then returns from", () => {
    const registry = registryOf(
      [
        gateStep("initial.work", {
          intents: ["repeat"],
          transitions: { repeat: "initial.work" },
        }),
        gateStep("closure.done", { intents: ["closing"], transitions: { closing: null } }),
        gateStep("closure.other", { intents: ["closing"], transitions: { closing: null } }),
      ],
      {
        entryStep: "initial.work",
        validators: [validator("tests", "npm test", "tests-failed")],
        validationSteps: [validationStep("closure.done", ["tests"])],
      },
    );
    expect(arrows(buildFlowGraph(registry).edges)).toEqual([
      "initial.work -repeat-> initial.work",
      "closure.done -closing-> End",
      "closure.other -closing-> End",
    ]);
    expect(arrows(buildFlowGraph(registry, { budgetClosure: true }).edges)).toEqual([
      "initial.work -repeat-> initial.work",
      "initial.work -budget-> closure.done",
      "closure.done -closing-> End",
      "closure.done -validation retry ≤3-> initial.work (bound 3)",
      "closure.other -closing-> End",
    ]);
  });

  it("counts budget edges for reachability and completion, not for handoff dataflow", () => {
    const registry = registryOf(
      [
        gateStep("initial.a", { intents: ["next"], transitions: { next: "continuation.b" } }),
        gateStep("continuation.b", {
          intents: ["handoff", "repeat"],
          transitions: { handoff: "closure.c", repeat: "continuation.b" },
          handoff: ["notes"],
        }),
        gateStep("closure.c", {
          intents: ["closing"],
          transitions: { closing: null },
          uvVariables: ["continuation_b_notes"],
        }),
      ],
      { entryStep: "initial.a" },
    );
    const codes = (budgetClosure: boolean) =>
      analyzeFlow(registry, { budgetClosure }).map((finding) => finding.code);
    expect(codes(false)).toEqual(["SR-FLOW-005"]);
    expect(codes(true)).toEqual(["SR-FLOW-005"]);
  });

  it("leads every other step to the onBudget step, which is then reachable", () => {
    const registry = {
      ...registryOf(
        [
          gateStep("initial.work", { intents: ["next"], transitions: { next: "closure.done" } }),
          gateStep("closure.done", { intents: ["closing"], transitions: { closing: null } }),
          gateStep("closure.budget", { intents: ["closing"], transitions: { closing: null } }),
        ],
        { entryStep: "initial.work" },
      ),
      onBudget: "closure.budget",
    };
    expect(arrows(buildFlowGraph(registry).edges)).toEqual([
      "initial.work -next-> closure.done",
      "initial.work -onBudget-> closure.budget",
      "closure.done -closing-> End",
      "closure.done -onBudget-> closure.budget",
      "closure.budget -closing-> End",
    ]);
    const { onBudget: _, ...without } = registry;
    const codes = (of: typeof without) => analyzeFlow(of).map((finding) => finding.code);
    // Unreachable without the edge; with it, reached from both other steps.
    expect(codes(without)).toContain("SR-FLOW-003");
    expect(codes(registry)).not.toContain("SR-FLOW-003");
  });
});
