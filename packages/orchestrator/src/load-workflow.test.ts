import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { loadWorkflow, parseWorkflow } from "./load-workflow.ts";
import { PIPELINE_FILE, pipelineRaw } from "./workflows.test-helper.ts";

const FILE = "/repo/.agent/workflow.json";

function problemsOf(raw: unknown): Problem[] {
  const loaded = parseWorkflow(typeof raw === "string" ? raw : JSON.stringify(raw), FILE);
  return loaded.ok ? [...loaded.value.warnings] : [...loaded.issues];
}

function brief(problems: readonly Problem[]): string[] {
  return problems.map((problem) => `${problem.severity} ${problem.code} ${problem.path ?? ""}`);
}

function changed(change: (raw: Record<string, unknown>) => void): Record<string, unknown> {
  const raw = pipelineRaw();
  change(raw);
  return raw;
}

type Json = Record<string, Record<string, unknown>>;

describe("loading .agent/workflow.json", () => {
  it("loads the pipeline fixture without a problem, with its phases, labels, agents, rules and prioritizer", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "climpt-wf-"));
    writeFileSync(path.join(dir, "workflow.json"), JSON.stringify(pipelineRaw()));
    const loaded = await loadWorkflow(dir, { path: "workflow.json" });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const { workflow, warnings } = loaded.value;
    expect(warnings).toEqual([]);
    expect(workflow.file).toBe(path.join(dir, "workflow.json"));
    expect(workflow.phases.map((phase) => `${phase.id}:${phase.type}`)).toEqual([
      "inbox:actionable",
      "considering:actionable",
      "detailing:actionable",
      "implementing:actionable",
      "reviewing:actionable",
      "done:terminal",
      "wontfix:terminal",
      "blocked:blocking",
    ]);
    expect(workflow.agents.find((agent) => agent.id === "implementer")).toMatchObject({
      role: "transformer",
      directory: "implementer",
      outputPhase: "reviewing",
      fallbackPhases: { "needs-spec": "detailing" },
    });
    expect(workflow.rules).toEqual({ maxCycles: 8, cycleDelayMs: 0, maxConsecutivePhases: 3 });
    expect(workflow.prioritizer).toEqual({
      agent: "sequencer",
      labels: ["order:1", "order:2", "order:3"],
      defaultLabel: null,
    });
    expect(workflow.id).toBe("default");
  });

  it("fills the original's defaults for rules and reports a missing file, bad JSON and a repeated key with their codes", async () => {
    const raw = changed((r) => {
      delete r.rules;
    });
    const loaded = parseWorkflow(JSON.stringify(raw), FILE);
    expect(loaded.ok && loaded.value.workflow.rules).toEqual({
      maxCycles: 5,
      cycleDelayMs: 10_000,
      maxConsecutivePhases: 0,
    });
    const missing = await loadWorkflow(mkdtempSync(path.join(tmpdir(), "climpt-wf-")));
    expect(!missing.ok && missing.issues[0]).toMatchObject({
      code: "WF-LOAD-001",
      hint: expect.stringContaining("--workflow"),
    });
    expect(brief(problemsOf('{"version": "1",}'))).toEqual(["error WF-LOAD-003 $"]);
    const twice = JSON.stringify(pipelineRaw()).replace(
      '"labelMapping":{',
      '"labelMapping":{"done":"wontfix",',
    );
    const problems = problemsOf(twice);
    // A warning: the original runtime reads the file (JSON keeps the last).
    expect(brief(problems)).toContain("warning WF-LOAD-004 $.labelMapping");
    expect(problems[0]?.message).toContain('"done" is given twice');
  });

  it("reports every problem at once, each with the file, the JSON path and how to fix it", () => {
    const problems = problemsOf(
      changed((r) => {
        const phases = r.phases as Json;
        const agents = r.agents as Json;
        (phases.reviewing as Record<string, unknown>).agent = "reviewr";
        delete (phases.inbox as Record<string, unknown>).agent;
        (agents.implementer as Record<string, unknown>).outputPhase = "review";
        (r.rules as Record<string, unknown>).maxCycles = 0;
      }),
    );
    expect(brief(problems.filter((problem) => problem.severity === "error"))).toEqual([
      "error WF-RULE-001 $.rules.maxCycles",
      "error WF-PHASE-002 $.phases.inbox",
      "error WF-REF-001 $.phases.reviewing.agent",
      "error WF-REF-003 $.agents.implementer.outputPhase",
    ]);
    for (const problem of problems) {
      expect(problem.file).toBe(FILE);
      expect(problem.hint).toBeTruthy();
    }
    expect(problems.find((problem) => problem.code === "WF-REF-001")?.message).toContain(
      'Did you mean "reviewer"?',
    );
  });

  it("finds a label mapped twice: two spellings GitHub treats as one, or a phase label that is also an order label", () => {
    const problems = problemsOf(
      changed((r) => {
        (r.labelMapping as Record<string, string>)["Kind:Impl"] = "implementing";
        (r.labelMapping as Record<string, string>)["order:2"] = "implementing";
        delete (r.labels as Record<string, unknown>)["order:2"];
      }),
    );
    expect(brief(problems)).toEqual(
      expect.arrayContaining([
        'warning WF-LABEL-006 $.labelMapping["Kind:Impl"]',
        "warning WF-LABEL-006 $.prioritizer.labels[1]",
      ]),
    );
  });

  it("finds an unreachable phase, an outcome with no phase, and a phase that cannot finish", () => {
    const problems = problemsOf(
      changed((r) => {
        (r.phases as Json).archived = { type: "terminal" };
        (r.agents as Json).considerer = {
          role: "validator",
          outputPhases: {},
          fallbackPhase: "blocked",
        };
        (r.agents as Json).sequencer = { role: "transformer", fallbackPhase: "blocked" };
      }),
    );
    expect(brief(problems)).toEqual(
      expect.arrayContaining([
        "warning WF-PHASE-004 $.phases.archived",
        "error WF-REF-007 $.agents.considerer",
        "error WF-REF-007 $.agents.sequencer",
      ]),
    );
    const loops = problemsOf(
      changed((r) => {
        (r.agents as Json).reviewer = {
          role: "validator",
          outputPhases: { "changes-requested": "implementing" },
          fallbackPhase: "implementing",
        };
        (r.agents as Json).implementer = {
          role: "transformer",
          outputPhase: "reviewing",
          fallbackPhase: "reviewing",
        };
      }),
    );
    // detailing leads only into the loop (or to the blocking phase), so it cannot finish either.
    expect(brief(loops)).toEqual([
      "warning WF-FLOW-001 $.phases.detailing",
      "warning WF-FLOW-001 $.phases.implementing",
      "warning WF-FLOW-001 $.phases.reviewing",
    ]);
  });

  it("checks phases, label specs, close conditions, fallbacks and the prioritizer", () => {
    const problems = problemsOf(
      changed((r) => {
        const phases = r.phases as Json;
        const agents = r.agents as Json;
        const labels = r.labels as Json;
        phases.done = { type: "finished" };
        delete (phases.considering as Record<string, unknown>).priority;
        phases.blocked = { type: "blocking", agent: "triager" };
        (r.labelMapping as Record<string, string>).later = "nowhere";
        (labels.done as Record<string, unknown>).color = "#0e8a16";
        labels.stale = { color: "000000", description: "unused" };
        (agents.detailer as Record<string, unknown>).closeCondition = "specified";
        (agents.reviewer as Record<string, unknown>).closeCondition = "approve";
        (agents.triager as Record<string, unknown>).fallbackPhase = "limbo";
        delete (agents.sequencer as Record<string, unknown>).fallbackPhase;
        (agents.extra as unknown) = {
          role: "transformer",
          outputPhase: "done",
          fallbackPhase: "blocked",
          fallbackPhse: "x",
        };
        (r.prioritizer as Record<string, unknown>).agent = "orderer";
        (r.prioritizer as Record<string, unknown>).defaultLabel = "order:9";
      }),
    );
    expect(brief(problems)).toEqual(
      expect.arrayContaining([
        "error WF-PHASE-001 $.phases.done.type",
        "error WF-PHASE-003 $.phases.considering",
        "warning WF-PHASE-006 $.phases.blocked.agent",
        "error WF-LABEL-002 $.labelMapping.later",
        "error WF-LABEL-005 $.labels.done.color",
        "error WF-LABEL-004 $.labels.stale",
        "error WF-LABEL-003 $.labels",
        "error WF-REF-005 $.agents.detailer.closeCondition",
        "error WF-REF-006 $.agents.reviewer.closeCondition",
        "error WF-REF-002 $.agents.triager.fallbackPhase",
        "warning WF-REF-011 $.agents.sequencer",
        "warning WF-SCHEMA-006 $.agents.extra.fallbackPhse",
        "warning WF-REF-009 $.agents.extra",
        "warning WF-REF-008 $.prioritizer.agent",
        "warning WF-PRIO-002 $.prioritizer.defaultLabel",
      ]),
    );
  });

  it("reports missing top-level sections with the original's codes and warns about fields it does not know", () => {
    expect(brief(problemsOf({}))).toEqual([
      "error WF-SCHEMA-001 $.version",
      "error WF-SCHEMA-002 $.phases",
      "error WF-SCHEMA-003 $.labelMapping",
      "error WF-SCHEMA-004 $.agents",
    ]);
    const warnings = problemsOf(
      changed((r) => {
        r.handoffs = [];
        r.subjectStore = { path: "tmp" };
        r.phasse = {};
      }),
    );
    expect(brief(warnings)).toEqual(["warning WF-SCHEMA-006 $.phasse"]);
    expect(warnings[0]?.message).toContain('Did you mean "phases"?');
  });

  it("without a blocking phase, warns that stuck issues keep their phase, and that an agent with no fallback holds its failed issues", () => {
    const problems = problemsOf(
      changed((r) => {
        delete (r.phases as Json).blocked;
        delete (r.labelMapping as Record<string, string>)["need clearance"];
        delete (r.labels as Json)["need clearance"];
        const agents = r.agents as Json;
        for (const agent of Object.values(agents)) agent.fallbackPhase = "wontfix";
        (agents.detailer as Record<string, unknown>).outputPhases = { specified: "implementing" };
        delete (agents.reviewer as Record<string, unknown>).fallbackPhase;
      }),
    );
    expect(brief(problems)).toEqual(
      expect.arrayContaining([
        "warning WF-PHASE-005 $.phases",
        "warning WF-REF-011 $.agents.reviewer",
      ]),
    );
  });

  it("reads the original runtime's own workflow shape: prefix, priorities, close conditions", () => {
    const loaded = parseWorkflow(
      JSON.stringify({
        version: "1.0.0",
        labelPrefix: "docs",
        phases: {
          "impl-pending": { type: "actionable", priority: 1, agent: "iterator" },
          done: { type: "terminal" },
          blocked: { type: "blocking" },
        },
        labelMapping: { ready: "impl-pending", done: "done", blocked: "blocked" },
        agents: {
          iterator: {
            role: "transformer",
            directory: "iterator",
            outputPhase: "done",
            fallbackPhase: "blocked",
            closeOnComplete: true,
          },
        },
        rules: {
          maxCycles: 7,
          cycleDelayMs: 30000,
          maxConsecutivePhases: 3,
          rateLimitThreshold: 0.95,
        },
        subjectStore: { path: ".agent/climpt/tmp/issues" },
      }),
      PIPELINE_FILE,
    );
    expect(loaded.ok).toBe(true);
    expect(loaded.ok && loaded.value.workflow.id).toBe("docs");
  });
});
