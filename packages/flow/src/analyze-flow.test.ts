import { formatProblem, type Registry, type Step } from "@climpt/model";
import { describe, expect, it, vi } from "vitest";
import { type AnalyzeFlowOptions, analyzeFlow } from "./analyze-flow.ts";
import { generateRegistry } from "./bench/generate-registry.ts";
import { FLOW_FINDING_CODES, type FlowFinding, type FlowFindingCode } from "./flow-codes.ts";
import {
  checkStep,
  conditional,
  fixBugRegistry,
  type GateStepSpec,
  gateStep,
  type RegistrySpec,
  registryOf,
  sectionStep,
  seed000Registry,
  seed002Registry,
  seed003BranchingRegistry,
  seed003LinearRegistry,
  seed003RetryRegistry,
  validationStep,
} from "./flow-registries.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took 10 s beside two CPU loops at load 25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

function withCode(findings: readonly FlowFinding[], code: FlowFindingCode): FlowFinding[] {
  return findings.filter((finding) => finding.code === code);
}

function analyze(registry: Registry, options?: AnalyzeFlowOptions): FlowFinding[] {
  return analyzeFlow(registry, options);
}

/** `initial.a` → … → `closure.end` (closing: null): a complete flow to add trouble to. */
const closure = (id = "closure.end"): Step =>
  gateStep(id, { intents: ["closing"], transitions: { closing: null } });

function flow(steps: readonly Step[], spec: RegistrySpec = {}): Registry {
  return registryOf(steps, { entryStep: steps[0]?.id as string, ...spec });
}

const work = (id: string, spec: GateStepSpec): Step => gateStep(id, spec);

describe("analyzeFlow on the seeds' example flows", () => {
  const seeds: [string, () => Registry][] = [
    ["the check flow (check dialect)", seed000Registry],
    ["the handoff flow (check dialect with handoff)", seed002Registry],
    ["the linear gate flow", seed003LinearRegistry],
    ["the branching gate flow", seed003BranchingRegistry],
    ["the gate retry flow", seed003RetryRegistry],
    ["fix-bug example", fixBugRegistry],
  ];
  it.each(seeds)("%s has no errors", (_name, make) => {
    const errors = analyze(make()).filter((finding) => finding.severity === "error");
    expect(errors.map(formatProblem)).toEqual([]);
  });

  it("warns about the check flow's fallback loop, which only the run cap bounds", () => {
    const findings = analyze(seed000Registry());
    expect(findings.map((finding) => finding.code)).toEqual(["SR-FLOW-005"]);
    expect(findings[0]?.message).toContain('"s_a8f3", "s_b2c1", "s_c9d4"');
  });
});

describe("entry steps (SR-FLOW-001, SR-FLOW-002)", () => {
  it("reports a registry without any entry once, not every step as unreachable", () => {
    const findings = analyze(
      registryOf([
        work("initial.a", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        closure(),
      ]),
    );
    expect(findings.map((finding) => finding.code)).toEqual(["SR-FLOW-001"]);
    expect(findings[0]).toMatchObject({ severity: "error", path: "$.entryStep" });
  });

  it("reports entries naming a missing step or a section step, at their own paths", () => {
    const findings = analyze(
      registryOf(
        [
          sectionStep("section.ctx"),
          work("initial.a", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
          closure(),
        ],
        {
          entryStep: "initial.nope",
          entryStepMapping: { "poll:state": "section.ctx", "count:iteration": "initial.a" },
        },
      ),
    );
    expect(withCode(findings, "SR-FLOW-002").map((finding) => finding.path)).toEqual([
      '$.entryStepMapping["poll:state"]',
      "$.entryStep",
    ]);
    expect(withCode(findings, "SR-FLOW-001")).toEqual([]);
  });
});

describe("reachability (SR-FLOW-003) and completion (SR-FLOW-004)", () => {
  it("warns about a step no entry reaches", () => {
    const findings = analyze(
      flow([
        work("initial.a", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        work("initial.orphan", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        closure(),
      ]),
    );
    expect(findings).toEqual([
      expect.objectContaining({
        code: "SR-FLOW-003",
        severity: "warning",
        stepId: "initial.orphan",
        path: '$.steps["initial.orphan"]',
      }),
    ]);
  });

  it("reports every reachable step from which no completion is reachable", () => {
    const findings = analyze(
      flow([
        work("initial.a", {
          intents: ["next", "handoff"],
          transitions: { next: "continuation.trap", handoff: "closure.end" },
        }),
        work("continuation.trap", {
          intents: ["next"],
          transitions: { next: "continuation.trap2" },
        }),
        work("continuation.trap2", {
          intents: ["next"],
          transitions: { next: "continuation.trap" },
        }),
        closure(),
      ]),
      { ignore: ["SR-FLOW-005"] },
    );
    expect(findings.map((finding) => [finding.code, finding.stepId, finding.severity])).toEqual([
      ["SR-FLOW-004", "continuation.trap", "error"],
      ["SR-FLOW-004", "continuation.trap2", "error"],
    ]);
  });

  it("counts a check's onPass complete as completion", () => {
    const findings = analyze(
      flow([checkStep("s_1", { onPass: "s_2" }), checkStep("s_2", { onPass: "complete" })]),
    );
    expect(findings).toEqual([]);
  });

  it("does not follow a run-time jump: warns once and reports neither its targets nor the jumper", () => {
    const findings = analyze(
      flow([
        work("initial.a", { intents: ["jump"], targetField: "next_action.target" }),
        work("initial.b", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        closure(),
      ]),
    );
    expect(findings.map((finding) => [finding.code, finding.severity])).toEqual([
      ["SR-INTENT-104", "warning"],
    ]);
  });
});

describe("unbounded cycles (SR-FLOW-005)", () => {
  const handoffToClosure = work("initial.a", {
    intents: ["handoff"],
    transitions: { handoff: "closure.end" },
  });

  it("accepts a check retry with maxRetries > 0 and warns about maxRetries 0", () => {
    const bounded = flow([checkStep("s_1", { onPass: "complete", onFail: { retry: 2 } })]);
    const unlimited = flow([checkStep("s_1", { onPass: "complete", onFail: { retry: 0 } })]);
    expect(analyze(bounded)).toEqual([]);
    expect(withCode(analyze(unlimited), "SR-FLOW-005")).toHaveLength(1);
  });

  it("accepts a self iteration bounded by iterations.max", () => {
    const registry = flow([
      checkStep("s_1", { onPass: "complete", iterations: { min: 1, max: 4 } }),
    ]);
    expect(analyze(registry)).toEqual([]);
  });

  it("accepts a validation retry bounded by maxAttempts and warns without it", () => {
    const bounded = flow([handoffToClosure, closure()], {
      validationSteps: [
        validationStep("closure.end", ["tests"], { action: "retry", maxAttempts: 3 }),
      ],
    });
    const unbounded = flow([handoffToClosure, closure()], {
      validationSteps: [validationStep("closure.end", ["tests"], { action: "retry" })],
    });
    expect(analyze(bounded)).toEqual([]);
    const findings = analyze(unbounded);
    expect(findings.map((finding) => finding.code)).toEqual(["SR-FLOW-005"]);
    expect(findings[0]?.message).toContain('"initial.a", "closure.end"');
  });

  it("warns about a multi-step cycle even when another edge of the component is bounded", () => {
    const findings = analyze(
      flow([
        checkStep("s_1", { onPass: "s_2", onFail: { retry: 2 } }),
        checkStep("s_2", { onPass: "complete", onFail: { fallback: "s_1" } }),
      ]),
    );
    expect(findings.map((finding) => [finding.code, finding.stepId])).toEqual([
      ["SR-FLOW-005", "s_1"],
    ]);
  });

  it("counts a written iterations.max as the bound of every cycle through its step", () => {
    // The seeds' numbers: a fallback cycle whose steps write iterations (max 1 on the check that
    // falls back): the runtime ends the run at the execution past max, so the cycle is bounded.
    const written = flow([
      checkStep("s_1", { onPass: "s_2" }),
      checkStep("s_2", {
        onPass: "complete",
        onFail: { fallback: "s_1" },
        iterations: { min: 1, max: 2, declared: true },
      }),
    ]);
    expect(withCode(analyze(written), "SR-FLOW-005")).toEqual([]);
    // The same cycle with max only as the default (not written) is still unbounded.
    const defaulted = flow([
      checkStep("s_1", { onPass: "s_2" }),
      checkStep("s_2", { onPass: "complete", onFail: { fallback: "s_1" } }),
    ]);
    expect(withCode(analyze(defaulted), "SR-FLOW-005")).toHaveLength(1);
  });

  it("can be silenced with ignore", () => {
    expect(analyze(seed003LinearRegistry(), { ignore: ["SR-FLOW-005"] })).toEqual([]);
  });
});

describe("intents and transitions agree (SR-INTENT-101…104)", () => {
  it("reports an allowed intent without a transition, but not abort or an implicit initial next", () => {
    const findings = analyze(
      flow([
        work("initial.a", { intents: ["next", "handoff", "abort"], transitions: {} }),
        work("continuation.a", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        closure(),
      ]),
    );
    expect(findings).toEqual([
      expect.objectContaining({
        code: "SR-INTENT-101",
        severity: "error",
        stepId: "initial.a",
        path: '$.steps["initial.a"].structuredGate.allowedIntents',
      }),
    ]);
    expect(findings[0]?.message).toContain('"handoff"');
  });

  it("reports closing without a transition with the null-target fix", () => {
    const findings = analyze(
      flow([
        work("initial.a", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        gateStep("closure.end", { intents: ["closing"] }),
      ]),
    );
    expect(findings.map((finding) => finding.code)).toEqual(["SR-INTENT-101"]);
    expect(findings[0]?.hint).toContain('"closing": { "target": null }');
  });

  it("reports a transition for an intent the gate does not allow", () => {
    const findings = analyze(
      flow([
        work("initial.a", {
          intents: ["handoff"],
          transitions: { handoff: "closure.end", next: "closure.end" },
        }),
        closure(),
      ]),
    );
    expect(findings).toEqual([
      expect.objectContaining({
        code: "SR-INTENT-102",
        path: '$.steps["initial.a"].transitions.next',
      }),
    ]);
  });

  it("warns about repeat without a transition (the router stays)", () => {
    const findings = analyze(
      flow([
        work("initial.a", {
          intents: ["handoff", "repeat"],
          transitions: { handoff: "closure.end" },
        }),
        closure(),
      ]),
      { ignore: ["SR-FLOW-005"] },
    );
    expect(findings.map((finding) => [finding.code, finding.severity])).toEqual([
      ["SR-INTENT-103", "warning"],
    ]);
  });

  it("reports a jump without a transition or targetField as a missing transition", () => {
    const findings = analyze(
      flow([
        work("initial.a", {
          intents: ["jump", "handoff"],
          transitions: { handoff: "closure.end" },
        }),
        closure(),
      ]),
    );
    expect(findings.map((finding) => finding.code)).toEqual(["SR-INTENT-101"]);
  });
});

describe("transition targets and step kinds (SR-TRANS-101…107)", () => {
  it("reports targets that are not steps, in gate transitions, conditionals, jumps and checks", () => {
    const findings = analyze(
      flow([
        work("initial.a", {
          intents: ["next", "jump", "handoff"],
          transitions: {
            next: conditional("status", { ready: "initial.gone", default: "closure.end" }),
            jump: "initial.nowhere",
            handoff: "closure.end",
          },
          handoff: ["status"],
        }),
        closure(),
      ]),
    );
    expect(withCode(findings, "SR-TRANS-101").map((finding) => finding.path)).toEqual([
      '$.steps["initial.a"].transitions.next.targets.ready',
      '$.steps["initial.a"].transitions.jump',
    ]);
    const check = analyze(
      flow([checkStep("s_1", { onPass: "s_missing", onFail: { fallback: "s_gone" } })]),
    );
    expect(withCode(check, "SR-TRANS-101").map((finding) => finding.path)).toEqual([
      "$.steps.s_1.check.onPass",
      "$.steps.s_1.check.onFail",
    ]);
  });

  it("reports a transition into a section step", () => {
    const findings = analyze(
      flow([
        work("initial.a", {
          intents: ["next", "handoff"],
          transitions: { next: "section.ctx", handoff: "closure.end" },
        }),
        sectionStep("section.ctx"),
        closure(),
      ]),
    );
    expect(findings.map((finding) => finding.code)).toEqual(["SR-TRANS-102"]);
  });

  it("reports a null target on an intent other than closing", () => {
    const findings = analyze(
      flow([
        work("initial.a", {
          intents: ["next", "handoff"],
          transitions: { next: null, handoff: "closure.end" },
        }),
        closure(),
      ]),
    );
    expect(findings.map((finding) => [finding.code, finding.path])).toEqual([
      ["SR-TRANS-103", '$.steps["initial.a"].transitions.next'],
    ]);
  });

  it("reports closing with a step target (closing still ends the flow)", () => {
    const findings = analyze(
      flow([
        work("initial.a", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
        gateStep("closure.end", { intents: ["closing"], transitions: { closing: "initial.a" } }),
      ]),
    );
    expect(findings.map((finding) => finding.code)).toEqual(["SR-TRANS-104"]);
  });

  it("reports a work step's handoff into a part of the flow with no closure step", () => {
    const findings = analyze(
      flow([
        work("initial.a", {
          intents: ["handoff"],
          transitions: { handoff: "continuation.side" },
        }),
        work("continuation.side", {
          intents: ["next"],
          transitions: { next: "continuation.side" },
        }),
        closure(),
      ]),
      { ignore: ["SR-FLOW-003", "SR-FLOW-004", "SR-FLOW-005"] },
    );
    expect(findings.map((finding) => [finding.code, finding.path])).toEqual([
      ["SR-TRANS-105", '$.steps["initial.a"].transitions.handoff'],
    ]);
  });

  it("accepts a handoff to a work step that leads on to a closure step (the branching gate flow)", () => {
    expect(withCode(analyze(seed003BranchingRegistry()), "SR-TRANS-105")).toEqual([]);
  });

  it("reports a closure repeat into a verification step, and accepts one into a work step", () => {
    const steps = (repeatTarget: string) => [
      work("initial.a", { intents: ["next"], transitions: { next: "verification.v" } }),
      gateStep("verification.v", { intents: ["next"], transitions: { next: "closure.end" } }),
      gateStep("closure.end", {
        intents: ["closing", "repeat"],
        transitions: { closing: null, repeat: repeatTarget },
      }),
    ];
    const options = { ignore: ["SR-FLOW-005"] } as const;
    expect(analyze(flow(steps("verification.v")), options).map((finding) => finding.code)).toEqual([
      "SR-TRANS-106",
    ]);
    expect(analyze(flow(steps("initial.a")), options)).toEqual([]);
  });

  it("requires escalate to target a verification step", () => {
    const steps = (escalateTarget: string) => [
      work("initial.a", { intents: ["next"], transitions: { next: "verification.v" } }),
      gateStep("verification.v", {
        intents: ["next", "escalate"],
        transitions: { next: "closure.end", escalate: escalateTarget },
      }),
      gateStep("verification.support", { intents: ["next"], transitions: { next: "closure.end" } }),
      closure(),
    ];
    const wrong = analyze(flow(steps("initial.a")), { ignore: ["SR-FLOW-003", "SR-FLOW-005"] });
    expect(wrong.map((finding) => finding.code)).toEqual(["SR-TRANS-107"]);
    expect(analyze(flow(steps("verification.support")))).toEqual([]);
  });
});

describe("handoff dataflow (SR-FLOW-006, SR-FLOW-007)", () => {
  /** entry → (left | right) → join → closure; `left` writes `x`, `right` writes `y`, both write `z`. */
  function diamond(join: Partial<GateStepSpec>, prompts?: Record<string, string>): FlowFinding[] {
    const registry = flow([
      work("initial.a", {
        intents: ["next"],
        transitions: {
          next: conditional("side", { left: "continuation.left", default: "continuation.right" }),
        },
        handoff: ["side", "w"],
      }),
      work("continuation.left", {
        intents: ["next"],
        transitions: { next: "continuation.join" },
        handoff: ["x", "z"],
      }),
      work("continuation.right", {
        intents: ["next"],
        transitions: { next: "continuation.join" },
        handoff: ["y", "z"],
      }),
      work("continuation.join", {
        intents: ["handoff"],
        transitions: { handoff: "closure.end" },
        ...join,
      }),
      closure(),
    ]);
    return analyze(registry, prompts === undefined ? {} : { prompts });
  }

  it("accepts reads of keys written on every path (a dominating step's key)", () => {
    expect(
      diamond({ uvVariables: ["initial_a_w", "issue", "iteration", "max_iterations"] }),
    ).toEqual([]);
  });

  it("reports a uvVariables read written on only one path into the reader", () => {
    const findings = diamond({ uvVariables: ["continuation_left_x"] });
    expect(findings).toEqual([
      expect.objectContaining({
        code: "SR-FLOW-007",
        severity: "error",
        stepId: "continuation.join",
        path: '$.steps["continuation.join"].uvVariables[0]',
      }),
    ]);
    expect(findings[0]?.message).toContain('step "continuation.left"');
  });

  it("treats channel 4 names alike with or without the uv- prefix", () => {
    expect(
      diamond({ uvVariables: ["uv-continuation_left_x"] }).map((finding) => finding.code),
    ).toEqual(["SR-FLOW-007"]);
  });

  it("reports a read of a key its step does not hand off", () => {
    const findings = diamond({ uvVariables: ["initial_a_missing"] });
    expect(findings.map((finding) => [finding.code, finding.severity])).toEqual([
      ["SR-FLOW-006", "error"],
    ]);
    expect(findings[0]?.message).toContain('"initial.a" hands off no key "missing"');
    expect(findings[0]?.hint).not.toContain("Did you mean");
  });

  it("names the key a misspelt handoff read probably means", () => {
    const [finding] = diamond({ uvVariables: ["initial_a_sied"] });
    expect(finding?.code).toBe("SR-FLOW-006");
    expect(finding?.hint).toMatch(/^Did you mean "side"\? /);
  });

  it("checks {uv-…} placeholders of the prompt texts passed in", () => {
    const findings = diamond(
      {},
      { "continuation.join": "Use {uv-initial_a_w} and {uv-continuation_right_y}." },
    );
    expect(findings.map((finding) => [finding.code, finding.path])).toEqual([
      ["SR-FLOW-007", '$.steps["continuation.join"].prompt'],
    ]);
    expect(findings[0]?.message).toContain("{uv-continuation_right_y}");
  });

  it("reports a step reading its own handoff, which exists only after it ran", () => {
    const findings = diamond({ uvVariables: ["continuation_join_out"], handoff: ["out"] });
    expect(findings.map((finding) => finding.code)).toEqual(["SR-FLOW-007"]);
    expect(findings[0]?.message).toContain("its own handoff key");
  });

  it("lets a transition condition read the step's own handoff", () => {
    // initial.a's `side` condition reads its own handoff: no finding.
    expect(diamond({})).toEqual([]);
  });

  it("reports a condition key written on only one path: a warning with a default, an error without", () => {
    const withDefault = diamond({
      intents: ["handoff"],
      transitions: {
        handoff: conditional("x", { yes: "closure.end", default: "closure.end" }),
      },
    });
    expect(withDefault.map((finding) => [finding.code, finding.severity])).toEqual([
      ["SR-FLOW-007", "warning"],
    ]);
    const withoutDefault = diamond({
      intents: ["handoff"],
      transitions: { handoff: conditional("x", { yes: "closure.end" }) },
    });
    expect(withoutDefault.map((finding) => [finding.code, finding.severity])).toEqual([
      ["SR-FLOW-007", "error"],
    ]);
  });

  it("accepts a condition key that every path writes, even from different steps", () => {
    const findings = diamond({
      intents: ["handoff"],
      transitions: {
        handoff: conditional("z", { yes: "closure.end", default: "closure.end" }),
      },
    });
    expect(findings).toEqual([]);
  });

  it("reports a condition key no step hands off", () => {
    const findings = diamond({
      intents: ["handoff"],
      transitions: { handoff: conditional("nothing", { yes: "closure.end" }) },
    });
    expect(findings.map((finding) => [finding.code, finding.severity])).toEqual([
      ["SR-FLOW-006", "error"],
    ]);
  });

  it("splits ambiguous channel 4 names by the step that declares the key", () => {
    // "initial_issue_summary" is step "initial" + "issue_summary" or "initial.issue" + "summary".
    const registry = flow([
      work("initial", {
        intents: ["next"],
        transitions: { next: "initial.issue" },
        handoff: ["other"],
      }),
      work("initial.issue", {
        intents: ["next"],
        transitions: { next: "continuation.issue" },
        handoff: ["summary"],
      }),
      work("continuation.issue", {
        intents: ["handoff"],
        transitions: { handoff: "closure.end" },
        uvVariables: ["initial_issue_summary"],
      }),
      closure(),
    ]);
    expect(analyze(registry)).toEqual([]);
  });

  it("leaves declared agent parameters alone even when they look like handoff names", () => {
    expect(diamond({ uvVariables: ["initial_a_missing"] }, undefined)).toHaveLength(1);
    const registry = flow([
      work("initial.a", { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
      gateStep("closure.end", {
        intents: ["closing"],
        transitions: { closing: null },
        uvVariables: ["initial_a_ticket"],
      }),
    ]);
    expect(analyze(registry, { parameters: ["initial_a_ticket"] })).toEqual([]);
    expect(analyze(registry).map((finding) => finding.code)).toEqual(["SR-FLOW-006"]);
  });
});

describe("handoff reads follow the runtime's UV naming rule", () => {
  // Each case is one where flow analysis used to name or parse a variable differently from the
  // prompt resolver, and so reported a read the run fills or missed one it does not.
  function reads(
    writer: Partial<Step>,
    reader: Partial<GateStepSpec>,
    prompts?: Record<string, string>,
  ): FlowFinding[] {
    const registry = flow([
      {
        ...work("initial.a", { intents: ["next"], transitions: { next: "continuation.b" } }),
        ...writer,
      },
      work("continuation.b", {
        intents: ["handoff"],
        transitions: { handoff: "closure.end" },
        ...reader,
      }),
      closure(),
    ]);
    return analyze(registry, prompts === undefined ? {} : { prompts });
  }

  it("reads a placeholder written with the step id's dots, as the runtime looks it up", () => {
    const findings = reads({}, {}, { "continuation.b": "Plan: {uv-initial.a_plan}" });
    expect(findings.map((finding) => finding.code)).toEqual(["SR-FLOW-006"]);
    expect(findings[0]?.message).toContain('"initial.a" hands off no key "plan"');
    const written = { handoff: [{ key: "plan", path: "plan" }] };
    expect(reads(written, {}, { "continuation.b": "Plan: {uv-initial.a_plan}" })).toEqual([]);
  });

  it("accepts a gate value read under its full dot path", () => {
    const writer = { handoff: [{ key: "understanding", path: "analysis.understanding" }] };
    expect(reads(writer, { uvVariables: ["initial_a_analysis_understanding"] })).toEqual([]);
    expect(reads(writer, { uvVariables: ["initial_a_understanding"] })).toEqual([]);
  });

  it("names a key with a dot with every dot as _", () => {
    const writer = { handoff: [{ key: "a.b", path: "a.b" }] };
    expect(reads(writer, { uvVariables: ["initial_a_a_b"] })).toEqual([]);
  });

  it("leaves braces alone that are not placeholders by the grammar", () => {
    const prompts = { "continuation.b": "{uv-initial_a_x!} {uv-initial a} {uv-$initial_a_y}" };
    expect(reads({}, {}, prompts)).toEqual([]);
  });
});

describe("findings as a whole", () => {
  it("groups findings by step in declaration order, registry-wide ones first", () => {
    const findings = analyze(
      registryOf(
        [
          work("initial.a", {
            intents: ["next", "handoff"],
            transitions: { next: null, handoff: "closure.end" },
          }),
          work("initial.b", {
            intents: ["handoff"],
            transitions: { handoff: "closure.end", next: "initial.a" },
          }),
          closure(),
        ],
        { entryStepMapping: { "poll:state": "initial.missing" }, entryStep: "initial.b" },
      ),
    );
    // initial.b's next is not allowed, so it draws no edge and initial.a stays unreachable.
    expect(findings.map((finding) => [finding.code, finding.stepId ?? "-"])).toEqual([
      ["SR-FLOW-002", "-"],
      ["SR-FLOW-003", "initial.a"],
      ["SR-TRANS-103", "initial.a"],
      ["SR-INTENT-102", "initial.b"],
    ]);
  });

  it("gives every finding a catalogued code, a message, a JSON path and a fix hint", () => {
    const registry = generateRegistry(300, "random", 7);
    const findings = analyze(registry);
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) {
      expect(Object.keys(FLOW_FINDING_CODES)).toContain(finding.code);
      expect(finding.path).toMatch(/^\$\./);
      expect(finding.message.length).toBeGreaterThan(20);
      expect(finding.hint?.length ?? 0).toBeGreaterThan(10);
    }
  });
});

describe("large registries", () => {
  it("analyses a 10,000-step chain without overflowing the stack", () => {
    const findings = analyze(generateRegistry(10_000, "linear"));
    expect(findings.filter((finding) => finding.severity === "error")).toEqual([]);
    // Each work step repeats itself; the closure repeats itself too.
    expect(withCode(findings, "SR-FLOW-005")).toHaveLength(10_000);
  });

  it("finds one cycle through all 10,000 steps of a ring", () => {
    const size = 10_000;
    const steps: Step[] = [];
    for (let index = 0; index < size; index++) {
      const id = `continuation.s${index}`;
      const next = `continuation.s${(index + 1) % size}`;
      steps.push(
        index === size - 1
          ? work(id, {
              intents: ["next", "handoff"],
              transitions: { next, handoff: "closure.end" },
            })
          : work(id, {
              intents: ["next"],
              transitions: { next },
              handoff: ["out"],
              uvVariables:
                index === 0 ? [] : [`continuation_s${index - 1}_out`, "continuation_s0_out"],
            }),
      );
    }
    const findings = analyze(flow([...steps, closure()]));
    expect(findings.map((finding) => finding.code)).toEqual(["SR-FLOW-005"]);
    expect(findings[0]?.message).toContain("and 9992 more");
  });

  it("analyses a 10,000-step random graph without overflowing the stack", () => {
    const findings = analyze(generateRegistry(10_000, "random", 3));
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((finding) => finding.code in FLOW_FINDING_CODES)).toBe(true);
  });
});
