import { describe, expect, it } from "vitest";
import { agentById, phaseById, type Workflow, type WorkflowAgent } from "../workflow-model.ts";
import { pipeline } from "../workflows.test-helper.ts";
import {
  consecutiveCount,
  cycleRuleViolation,
  effectiveHistory,
  type TransitionRecord,
} from "./cycle-rules.ts";
import { decideTransition } from "./decide-transition.ts";
import { commentTemplateFor, renderTemplate } from "./handoff-comment.ts";
import { applyLabelChange, labelChanges } from "./label-changes.ts";
import { orderIssues, readPriorityAssignments } from "./priority-order.ts";
import { resolvePhase } from "./resolve-phase.ts";

const workflow = pipeline();

function agent(id: string, flow: Workflow = workflow): WorkflowAgent {
  const found = agentById(flow, id);
  if (found === undefined) throw new Error(`no agent ${id}`);
  return found;
}

function phase(id: string, flow: Workflow = workflow) {
  const found = phaseById(flow, id);
  if (found === undefined) throw new Error(`no phase ${id}`);
  return found;
}

function where(labels: string[], flow: Workflow = workflow): string {
  const resolved = resolvePhase(flow, labels);
  return resolved.kind === "none"
    ? "none"
    : `${resolved.kind}:${resolved.phase.id}${resolved.kind === "actionable" ? `:${resolved.agent.id}` : ""}`;
}

describe("labels → phase", () => {
  it("maps a phase label to its phase and agent, ignoring labels that are not the workflow's", () => {
    expect(where(["bug", "kind:impl", "order:2"])).toBe("actionable:implementing:implementer");
    expect(where(["needs-triage"])).toBe("actionable:inbox:triager");
    expect(where(["bug", "order:1"])).toBe("none");
    expect(where([])).toBe("none");
  });

  it("lets a terminal or blocking label win over actionable ones, whatever the label order", () => {
    expect(where(["kind:impl", "done"])).toBe("terminal:done");
    expect(where(["need clearance", "kind:review"])).toBe("blocking:blocked");
    expect(where(["kind:review", "need clearance"])).toBe("blocking:blocked");
  });

  it("picks the actionable phase with the lowest priority number, then the lower id, never the label order", () => {
    expect(where(["kind:consider", "kind:review"])).toBe("actionable:reviewing:reviewer");
    expect(where(["kind:review", "kind:consider"])).toBe("actionable:reviewing:reviewer");
    const tied = pipeline((raw) => {
      const phases = raw.phases as Record<string, Record<string, unknown>>;
      (phases.detailing as Record<string, unknown>).priority = 1;
    });
    expect(where(["kind:review", "kind:detail"], tied)).toBe("actionable:detailing:detailer");
  });

  it("matches labels case-insensitively, as GitHub does, and only with the workflow's prefix when it has one", () => {
    expect(where(["KIND:IMPL"])).toBe("actionable:implementing:implementer");
    const prefixed = pipeline((raw) => {
      raw.labelPrefix = "docs";
    });
    expect(where(["kind:impl"], prefixed)).toBe("none");
    expect(where(["docs:kind:impl"], prefixed)).toBe("actionable:implementing:implementer");
    expect(where(["Docs:done"], prefixed)).toBe("terminal:done");
  });
});

describe("run outcome → next phase", () => {
  it("sends a transformer's successful run to its outputPhase, a failed one to its fallbackPhase", () => {
    expect(decideTransition(workflow, agent("implementer"), { success: true })).toEqual({
      outcome: "success",
      target: phase("reviewing"),
      fallback: false,
      reason: null,
      close: false,
    });
    const error = { code: "AGENT_VALIDATION_ABORT", message: "tests fail" };
    expect(decideTransition(workflow, agent("implementer"), { success: false, error })).toEqual({
      outcome: "failed",
      target: phase("blocked"),
      fallback: true,
      reason: error,
      close: false,
    });
  });

  it("sends a transformer's failed run with a verdict its fallbackPhases name to that phase", () => {
    const decision = decideTransition(workflow, agent("implementer"), {
      success: false,
      verdict: "needs-spec",
    });
    expect(decision).toMatchObject({
      outcome: "needs-spec",
      target: phase("detailing"),
      fallback: true,
    });
    // A verdict the fallbackPhases do not name is just a failure.
    expect(
      decideTransition(workflow, agent("implementer"), { success: false, verdict: "confused" }),
    ).toMatchObject({ outcome: "failed", target: phase("blocked") });
    // A failed run that declared no verdict is a failure too (it used to find no entry at all).
    expect(decideTransition(workflow, agent("implementer"), { success: false })).toMatchObject({
      outcome: "failed",
      target: phase("blocked"),
    });
    // A successful transformer ignores its verdict.
    expect(
      decideTransition(workflow, agent("implementer"), { success: true, verdict: "needs-spec" }),
    ).toMatchObject({ outcome: "success", target: phase("reviewing") });
  });

  it("knows a budget ending as the outcome budget: fallbackPhases.budget when mapped, else the failed route", () => {
    const flow = pipeline((raw) => {
      const agents = raw.agents as Record<string, Record<string, unknown>>;
      (agents.implementer as Record<string, unknown>).fallbackPhases = {
        "needs-spec": "detailing",
        budget: "considering",
      };
    });
    const error = { code: "RUN-BUDGET-001", family: "AGENT_BUDGET_EXCEEDED", message: "spent" };
    expect(
      decideTransition(flow, agent("implementer", flow), {
        success: false,
        error,
        budget: true,
        verdict: "needs-spec",
      }),
    ).toMatchObject({ outcome: "budget", target: phase("considering", flow), fallback: true });
    // Not mapped: the failed route, still known as budget (its comment template).
    expect(
      decideTransition(workflow, agent("implementer"), { success: false, error, budget: true }),
    ).toMatchObject({ outcome: "budget", target: phase("blocked"), fallback: true });
    expect(
      decideTransition(workflow, agent("reviewer"), { success: false, error, budget: true }),
    ).toMatchObject({ outcome: "budget", target: phase("blocked"), fallback: true });
  });

  it("sends a transformer's failed run without a verdict, or with one its fallbackPhases lack, to fallbackPhases.failed", () => {
    const flow = pipeline((raw) => {
      const agents = raw.agents as Record<string, Record<string, unknown>>;
      (agents.implementer as Record<string, unknown>).fallbackPhases = {
        "needs-spec": "detailing",
        failed: "considering",
      };
    });
    const implementer = agent("implementer", flow);
    const error = { code: "AGENT_VALIDATION_ABORT", message: "git-clean failed" };
    expect(decideTransition(flow, implementer, { success: false, error })).toEqual({
      outcome: "failed",
      target: phase("considering", flow),
      fallback: true,
      reason: error,
      close: false,
    });
    expect(
      decideTransition(flow, implementer, { success: false, verdict: "confused", error }),
    ).toMatchObject({ outcome: "failed", target: phase("considering", flow), fallback: true });
    // The verdict the agent declared still wins when the map names it.
    expect(
      decideTransition(flow, implementer, { success: false, verdict: "needs-spec" }),
    ).toMatchObject({ outcome: "needs-spec", target: phase("detailing", flow) });
    // A success never reads the map.
    expect(decideTransition(flow, implementer, { success: true })).toMatchObject({
      outcome: "success",
      target: phase("reviewing", flow),
      fallback: false,
    });
    // A validator's failed run takes its fallbackPhase whatever it declared.
    expect(
      decideTransition(flow, agent("reviewer", flow), { success: false, verdict: "approved" }),
    ).toMatchObject({ outcome: "failed", target: phase("blocked", flow), fallback: true });
  });

  it("routes a validator by its verdict through outputPhases, every verdict", () => {
    const routes: Array<[string, string, string]> = [
      ["triager", "question", "considering"],
      ["triager", "spec", "detailing"],
      ["triager", "ready", "implementing"],
      ["triager", "invalid", "wontfix"],
      ["considerer", "answered", "done"],
      ["considerer", "needs-detail", "detailing"],
      ["detailer", "specified", "implementing"],
      ["detailer", "blocked", "blocked"],
      ["detailer", "again", "detailing"],
      ["reviewer", "approved", "done"],
      ["reviewer", "changes-requested", "implementing"],
    ];
    for (const [id, verdict, target] of routes) {
      const decision = decideTransition(workflow, agent(id), { success: true, verdict });
      expect([id, verdict, decision.target?.id, decision.fallback, decision.outcome]).toEqual([
        id,
        verdict,
        target,
        false,
        verdict,
      ]);
    }
  });

  it("sends a validator without a verdict, with an unknown verdict, or with a failed run to its fallback, saying why", () => {
    expect(decideTransition(workflow, agent("reviewer"), { success: true })).toMatchObject({
      outcome: "failed",
      target: phase("blocked"),
      fallback: true,
      reason: { code: "ORC-VERDICT-001" },
    });
    const unknown = decideTransition(workflow, agent("reviewer"), {
      success: true,
      verdict: "lgtm",
    });
    expect(unknown).toMatchObject({
      outcome: "lgtm",
      target: phase("blocked"),
      reason: { code: "ORC-VERDICT-002" },
    });
    expect(unknown.reason?.message).toContain("approved, changes-requested");
    expect(
      decideTransition(workflow, agent("reviewer"), {
        success: false,
        verdict: "approved",
        error: { code: "AGENT_MAX_ITERATIONS", message: "cap" },
      }),
    ).toMatchObject({
      outcome: "failed",
      target: phase("blocked"),
      reason: { code: "AGENT_MAX_ITERATIONS" },
    });
  });

  it("without a fallbackPhase, falls back to the first blocking phase", () => {
    const flow = pipeline((raw) => {
      const agents = raw.agents as Record<string, Record<string, unknown>>;
      delete (agents.implementer as Record<string, unknown>).fallbackPhase;
    });
    expect(decideTransition(flow, agent("implementer", flow), { success: false })).toMatchObject({
      target: { id: "blocked", type: "blocking" },
      fallback: true,
    });
  });

  it("closes the issue only for a terminal target of an agent with closeOnComplete, and only on its closeCondition", () => {
    const close = (id: string, verdict: string) =>
      decideTransition(workflow, agent(id), { success: true, verdict }).close;
    // reviewer: closeOnComplete without a condition → any terminal outcome closes.
    expect(close("reviewer", "approved")).toBe(true);
    expect(close("reviewer", "changes-requested")).toBe(false);
    // considerer: closeCondition "answered".
    expect(close("considerer", "answered")).toBe(true);
    expect(close("considerer", "needs-detail")).toBe(false);
    // triager: closeCondition "invalid" → wontfix closes; other terminal outcomes would not.
    expect(close("triager", "invalid")).toBe(true);
    expect(close("triager", "ready")).toBe(false);
    // detailer: no closeOnComplete → never closes, even into a blocking phase.
    expect(close("detailer", "blocked")).toBe(false);
    const strict = pipeline((raw) => {
      const agents = raw.agents as Record<string, Record<string, unknown>>;
      (agents.reviewer as Record<string, unknown>).outputPhases = {
        approved: "done",
        dropped: "done",
      };
      (agents.reviewer as Record<string, unknown>).closeCondition = "approved";
    });
    expect(
      decideTransition(strict, agent("reviewer", strict), { success: true, verdict: "dropped" }),
    ).toMatchObject({
      target: { id: "done" },
      close: false,
    });
  });
});

describe("label changes", () => {
  it("takes every phase label off and puts the target's on, in one change, leaving other labels alone", () => {
    const change = labelChanges(
      workflow,
      ["bug", "kind:consider", "kind:impl", "order:2"],
      phase("reviewing"),
    );
    expect(change).toEqual({ add: ["kind:review"], remove: ["kind:consider", "kind:impl"] });
    expect(applyLabelChange(["bug", "kind:consider", "kind:impl", "order:2"], change)).toEqual([
      "bug",
      "order:2",
      "kind:review",
    ]);
  });

  it("frees the order slot at a terminal phase, keeps it at a blocking one", () => {
    expect(labelChanges(workflow, ["kind:review", "order:2"], phase("done"))).toEqual({
      add: ["done"],
      remove: ["kind:review", "order:2"],
    });
    expect(labelChanges(workflow, ["kind:review", "order:2"], phase("blocked"))).toEqual({
      add: ["need clearance"],
      remove: ["kind:review"],
    });
  });

  it("adds nothing when the target's label is already there (the same phase again), in any case", () => {
    expect(labelChanges(workflow, ["Kind:Detail", "order:1"], phase("detailing"))).toEqual({
      add: [],
      remove: [],
    });
  });

  it("uses the first label mapped to a phase and the workflow's prefix", () => {
    const flow = pipeline((raw) => {
      raw.labelPrefix = "ops";
      (raw.labelMapping as Record<string, string>)["kind:implement"] = "implementing";
      (raw.labels as Record<string, unknown>)["kind:implement"] = {
        color: "a2eeef",
        description: "x",
      };
    });
    expect(
      labelChanges(flow, ["ops:kind:implement", "kind:review"], phase("reviewing", flow)),
    ).toEqual({
      add: ["ops:kind:review"],
      remove: ["ops:kind:implement"],
    });
    expect(labelChanges(flow, ["ops:kind:review"], phase("implementing", flow)).add).toEqual([
      "ops:kind:impl",
    ]);
  });
});

describe("cycle rules", () => {
  const record = (from: string, to: string): TransitionRecord => ({
    from,
    to,
    agent: "a",
    outcome: "x",
    runId: null,
    at: "2026-01-01T00:00:00.000Z",
  });

  it("stops an issue that entered the same phase maxConsecutivePhases times in a row", () => {
    const history = [
      record("inbox", "detailing"),
      record("detailing", "detailing"),
      record("detailing", "detailing"),
    ];
    expect(consecutiveCount(history)).toBe(3);
    expect(cycleRuleViolation(workflow.rules, history)).toMatchObject({ code: "ORC-CYCLE-002" });
    expect(cycleRuleViolation(workflow.rules, history.slice(0, 2))).toBeNull();
    expect(cycleRuleViolation({ ...workflow.rules, maxConsecutivePhases: 0 }, history)).toBeNull();
  });

  it("stops an issue at maxCycles transitions, and names the consecutive rule first when both apply", () => {
    const pingPong = Array.from({ length: 8 }, (_, index) =>
      index % 2 === 0 ? record("reviewing", "implementing") : record("implementing", "reviewing"),
    );
    expect(cycleRuleViolation(workflow.rules, pingPong.slice(0, 7))).toBeNull();
    const stop = cycleRuleViolation(workflow.rules, pingPong);
    expect(stop).toMatchObject({ code: "ORC-CYCLE-001" });
    expect(stop?.message).toContain("8 phase transitions (rules.maxCycles is 8)");
    const both = cycleRuleViolation({ ...workflow.rules, maxCycles: 2 }, [
      record("a", "b"),
      record("b", "b"),
      record("b", "b"),
    ]);
    expect(both?.code).toBe("ORC-CYCLE-002");
  });

  it("starts the count afresh when a person relabelled the issue into another phase", () => {
    const history = [record("inbox", "detailing"), record("detailing", "blocked")];
    expect(effectiveHistory(history, "blocked")).toBe(history);
    expect(effectiveHistory(history, "implementing")).toEqual([]);
  });
});

describe("handoff comments", () => {
  it("finds the template by agent and outcome, PascalCasing kebab-case verdicts", () => {
    expect(commentTemplateFor(workflow, "considerer", "needs-detail")?.name).toBe(
      "considererNeedsDetail",
    );
    expect(commentTemplateFor(workflow, "implementer", "success")?.name).toBe("implementerSuccess");
    expect(commentTemplateFor(workflow, "reviewer", "changes-requested")?.name).toBe(
      "reviewerChangesRequested",
    );
    expect(commentTemplateFor(workflow, "implementer", "failed")).toBeNull();
    const toStyle = pipeline((raw) => {
      (raw.handoff as Record<string, Record<string, string>>).commentTemplates = {
        detailerToSpecified: "x",
      };
    });
    expect(commentTemplateFor(toStyle, "detailer", "specified")?.name).toBe("detailerToSpecified");
  });

  it("fills placeholders and leaves unknown ones as written", () => {
    expect(renderTemplate("## Spec\n\n{spec} ({missing})", { spec: "Add --json." })).toBe(
      "## Spec\n\nAdd --json. ({missing})",
    );
  });
});

describe("prioritizer order", () => {
  const issues = [
    { number: 4, labels: ["kind:impl"] },
    { number: 2, labels: ["order:2", "kind:impl"] },
    { number: 7, labels: ["ORDER:1"] },
    { number: 1, labels: [] },
    { number: 3, labels: ["order:2"] },
  ];

  it("runs order:1 before order:2, issues without an order label last, ties by issue number", () => {
    expect(orderIssues(workflow, issues).map((issue) => issue.number)).toEqual([7, 2, 3, 1, 4]);
  });

  it("places unlabelled issues at the default label's rank when there is one, and orders by number without a prioritizer", () => {
    const withDefault = pipeline((raw) => {
      (raw.prioritizer as Record<string, unknown>).defaultLabel = "order:2";
    });
    expect(orderIssues(withDefault, issues).map((issue) => issue.number)).toEqual([7, 1, 2, 3, 4]);
    const none = pipeline((raw) => {
      delete raw.prioritizer;
      const labels = raw.labels as Record<string, unknown>;
      for (const name of ["order:1", "order:2", "order:3"]) delete labels[name];
      delete (raw.agents as Record<string, unknown>).sequencer;
    });
    expect(orderIssues(none, issues).map((issue) => issue.number)).toEqual([1, 2, 3, 4, 7]);
  });

  it("reads the prioritizer's assignments, keeping only known labels and issues of the batch", () => {
    const prioritizer = workflow.prioritizer;
    if (prioritizer === null) throw new Error("fixture has a prioritizer");
    expect(
      readPriorityAssignments(
        prioritizer,
        {
          priorities: [
            { issue: 3, priority: "order:1" },
            { issue: "#5", label: "order:3" },
            { issue: 9, priority: "order:1" },
            { issue: 5, priority: "order:2" },
            { issue: 6, priority: "P0" },
          ],
        },
        [3, 5, 6],
      ),
    ).toEqual([
      { issue: 3, label: "order:1" },
      { issue: 5, label: "order:3" },
    ]);
    expect(
      readPriorityAssignments(
        { ...prioritizer, defaultLabel: "order:3" },
        [{ issue: 6, priority: "P0" }],
        [6],
      ),
    ).toEqual([{ issue: 6, label: "order:3" }]);
  });
});
