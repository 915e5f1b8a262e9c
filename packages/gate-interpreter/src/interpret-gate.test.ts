import { GATE_INTENTS, INTENT_ALIASES, type Problem, type Result } from "@climpt/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GateInterpretation } from "./gate-interpretation.ts";
import { interpretGate } from "./interpret-gate.ts";
import { gateStep } from "./steps.test-helper.ts";

const work = gateStep(
  "continuation.issue",
  "work",
  {
    allowedIntents: ["next", "repeat", "handoff", "jump"],
    targetField: "next_action.details.target",
    handoffFields: ["analysis.understanding", "analysis.approach", "files[0]"],
  },
  { next: { kind: "target", target: "continuation.issue" } },
);
const closure = gateStep("closure.issue", "closure", { allowedIntents: ["closing", "repeat"] });

function value(result: Result<GateInterpretation>): GateInterpretation {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.issues)}`);
  return result.value;
}

function problem(result: Result<GateInterpretation>): Problem {
  if (result.ok) throw new Error(`expected a problem, got ${JSON.stringify(result.value)}`);
  expect(result.issues).toHaveLength(1);
  return result.issues[0] as Problem;
}

const first = { iteration: 1 };
const later = { iteration: 4 };

describe("interpretGate: intent", () => {
  it("reads the intent at intentField, with the sibling reason", () => {
    const result = value(
      interpretGate(work, { next_action: { action: "next", reason: "plan done" } }, first),
    );
    expect(result).toEqual({
      intent: "next",
      handoff: {},
      handoffPaths: {},
      reason: "plan done",
      usedFallback: false,
      rawIntent: "next",
    });
  });

  it("maps every alias of the table, trimmed and in any case", () => {
    for (const [alias, intent] of Object.entries(INTENT_ALIASES)) {
      const step = gateStep("s", intent === "closing" ? "closure" : "work", {
        allowedIntents: [intent],
      });
      const written = `  ${alias.toUpperCase()} `;
      const result = value(interpretGate(step, { next_action: { action: written } }, first));
      expect(result.intent).toBe(intent);
      expect(result.rawIntent).toBe(written);
    }
  });

  it("accepts every intent in any case and spacing when the step allows it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GATE_INTENTS),
        fc.stringMatching(/^[ \t]{0,2}$/),
        fc.boolean(),
        (intent, pad, upper) => {
          const kind =
            intent === "closing" ? "closure" : intent === "escalate" ? "verification" : "work";
          const step = gateStep("s", kind, { allowedIntents: [intent], targetField: "t" });
          const written = `${pad}${upper ? intent.toUpperCase() : intent}${pad}`;
          const result = interpretGate(step, { next_action: { action: written }, t: "x" }, first);
          expect(result.ok && result.value.intent).toBe(intent);
        },
      ),
    );
  });

  it("reads intent fields with array indices in both spellings", () => {
    const step = gateStep("s", "work", {
      allowedIntents: ["next"],
      intentField: "steps[1].action",
    });
    const dotted = gateStep("s", "work", {
      allowedIntents: ["next"],
      intentField: "steps.1.action",
    });
    const output = { steps: [{ action: "repeat" }, { action: "next", reason: "second" }] };
    expect(value(interpretGate(step, output, first))).toMatchObject({
      intent: "next",
      reason: "second",
    });
    expect(value(interpretGate(dotted, output, first)).intent).toBe("next");
  });

  it("reads a top-level intent field and a top-level reason", () => {
    const step = gateStep("s", "work", { allowedIntents: ["next"], intentField: "action" });
    expect(value(interpretGate(step, { action: "next", reason: "why" }, first))).toMatchObject({
      intent: "next",
      reason: "why",
    });
  });

  it("never takes status: completed as a completion signal", () => {
    // The closure step says "repeat": the status field next to it changes nothing.
    const repeat = value(
      interpretGate(closure, { status: "completed", next_action: { action: "repeat" } }, first),
    );
    expect(repeat.intent).toBe("repeat");
    // Without an intent, status: completed does not stand in for one.
    const none = problem(interpretGate(closure, { status: "completed" }, later));
    expect(none.family).toBe("FAILED_STEP_ROUTING");
  });
});

describe("interpretGate: fail-fast", () => {
  it("a missing intent after the first iteration is SR-INTENT-007 of FAILED_STEP_ROUTING", () => {
    const issue = problem(interpretGate(work, { next_action: {} }, later));
    expect(issue.code).toBe("SR-INTENT-007");
    expect(issue.family).toBe("FAILED_STEP_ROUTING");
    expect(issue.message).toContain('"next_action.action"');
    expect(issue.message).toContain("iteration 4");
    expect(issue.path).toBe('$.steps["continuation.issue"].structuredGate.intentField');
    expect(issue.hint).toContain("output schema");
  });

  it("a missing intent on the first iteration is SR-INTENT-007 of GATE_INTERPRETATION_ERROR", () => {
    for (const output of [
      {},
      { next_action: { action: null } },
      { next_action: { action: " " } },
    ]) {
      expect(problem(interpretGate(work, output, first))).toMatchObject({
        code: "SR-INTENT-007",
        family: "GATE_INTERPRETATION_ERROR",
      });
    }
    expect(problem(interpretGate(work, "plain text", first)).message).toContain(
      "the output is a string",
    );
  });

  it("an unknown value is SR-INTENT-002 naming the value, the allowed set and the fix", () => {
    const issue = problem(interpretGate(work, { next_action: { action: "proceed" } }, later));
    expect(issue.code).toBe("SR-INTENT-002");
    expect(issue.family).toBe("GATE_INTERPRETATION_ERROR");
    expect(issue.message).toContain('"proceed"');
    expect(issue.message).toContain("[next, repeat, handoff, jump, abort]");
    expect(issue.hint).toContain("#/properties/next_action/properties/action");
    expect(problem(interpretGate(work, { next_action: { action: 3 } }, first)).message).toContain(
      '"3"',
    );
  });

  it("an intent outside allowedIntents is SR-INTENT-001 of GATE_INTERPRETATION_ERROR", () => {
    const step = gateStep("initial.issue", "work", { allowedIntents: ["next", "repeat"] });
    const issue = problem(interpretGate(step, { next_action: { action: "handoff" } }, first));
    expect(issue.code).toBe("SR-INTENT-001");
    expect(issue.family).toBe("GATE_INTERPRETATION_ERROR");
    expect(issue.message).toContain("allowedIntents is [next, repeat]");
    expect(issue.hint).toContain('Add "handoff" to structuredGate.allowedIntents');
  });

  it("an intent the step kind forbids is refused even if allowedIntents lists it", () => {
    // A work step may never close: not even a mis-declared allowedIntents lets "done" through.
    const step = gateStep("continuation.issue", "work", { allowedIntents: ["next", "closing"] });
    const issue = problem(interpretGate(step, { next_action: { action: "done" } }, first));
    expect(issue.message).toContain('Intent "closing" (written "done")');
    expect(issue.message).toContain("work steps may emit [next, repeat, jump, handoff, abort]");
    expect(issue.message).toContain('"handoff"');
    expect(issue.hint).toContain('Remove "closing"');
  });

  it("abort is always allowed", () => {
    const result = value(
      interpretGate(closure, { next_action: { action: "ABORT", reason: "repo is gone" } }, later),
    );
    expect(result).toMatchObject({ intent: "abort", reason: "repo is gone", usedFallback: false });
  });
});

describe("interpretGate: fallback", () => {
  const lenient = gateStep("continuation.issue", "work", {
    allowedIntents: ["next", "repeat"],
    failFast: false,
    fallbackIntent: "repeat",
  });

  it("failFast false with a fallbackIntent uses it for missing, unknown and forbidden intents", () => {
    for (const output of [
      {},
      { next_action: { action: "proceed" } },
      { next_action: { action: "closing" } },
    ]) {
      const result = value(interpretGate(lenient, output, later));
      expect(result.intent).toBe("repeat");
      expect(result.usedFallback).toBe(true);
      expect(result.reason).toContain('fallbackIntent "repeat" used');
    }
  });

  it("the model's own reason wins over the fallback explanation", () => {
    const result = value(
      interpretGate(lenient, { next_action: { action: "proceed", reason: "mine" } }, later),
    );
    expect(result).toMatchObject({ intent: "repeat", usedFallback: true, reason: "mine" });
  });

  it("a fallbackIntent is ignored while failFast is true", () => {
    const strict = gateStep("s", "work", {
      allowedIntents: ["next"],
      failFast: true,
      fallbackIntent: "next",
    });
    expect(problem(interpretGate(strict, {}, later)).family).toBe("FAILED_STEP_ROUTING");
  });

  it("failFast false without a fallbackIntent still stops the run", () => {
    const noFallback = gateStep("s", "work", { allowedIntents: ["next"], failFast: false });
    expect(
      problem(interpretGate(noFallback, { next_action: { action: "x" } }, later)),
    ).toMatchObject({ code: "SR-INTENT-002", family: "GATE_INTERPRETATION_ERROR" });
  });

  it("a fallbackIntent the step may not emit is a problem, not a silent route", () => {
    const bad = gateStep("s", "work", {
      allowedIntents: ["next"],
      failFast: false,
      fallbackIntent: "closing",
    });
    const issue = problem(interpretGate(bad, {}, later));
    expect(issue).toMatchObject({ code: "SR-GATE-006", family: "GATE_INTERPRETATION_ERROR" });
    expect(issue.path).toBe("$.steps.s.structuredGate.fallbackIntent");
  });
});

describe("interpretGate: jump target and handoff", () => {
  it("reads the jump target at targetField", () => {
    const result = value(
      interpretGate(
        work,
        { next_action: { action: "jump", details: { target: " initial.issue " } } },
        later,
      ),
    );
    expect(result).toMatchObject({ intent: "jump", target: "initial.issue" });
  });

  it("a jump without a target is a problem", () => {
    const issue = problem(interpretGate(work, { next_action: { action: "jump" } }, later));
    expect(issue).toMatchObject({ code: "SR-TRANS-011", family: "GATE_INTERPRETATION_ERROR" });
    expect(issue.message).toContain("next_action.details.target");
    const noField = gateStep("s", "work", { allowedIntents: ["jump"] });
    expect(
      problem(interpretGate(noField, { next_action: { action: "jump" } }, later)).hint,
    ).toContain("targetField");
  });

  it("a jump may leave the target to a declared transitions.jump", () => {
    const declared = gateStep(
      "s",
      "work",
      { allowedIntents: ["jump"] },
      {
        jump: { kind: "target", target: "initial.issue" },
      },
    );
    const result = value(interpretGate(declared, { next_action: { action: "jump" } }, later));
    expect(result.intent).toBe("jump");
    expect(result.target).toBeUndefined();
  });

  it("does not read a target for other intents", () => {
    const result = value(
      interpretGate(work, { next_action: { action: "next", details: { target: "x" } } }, later),
    );
    expect(result.target).toBeUndefined();
  });

  it("carries handoff fields by short key and by full path; missing fields are absent", () => {
    const result = value(
      interpretGate(
        work,
        {
          next_action: { action: "handoff" },
          analysis: { understanding: { scope: ["a.ts"] } },
          files: ["x.ts", "y.ts"],
        },
        later,
      ),
    );
    expect(result.handoff).toEqual({ understanding: { scope: ["a.ts"] }, "files[0]": "x.ts" });
    expect(result.handoffPaths).toEqual({
      "analysis.understanding": { scope: ["a.ts"] },
      "files[0]": "x.ts",
    });
  });
});

describe("interpretGate: steps without a gate", () => {
  it("a step without structuredGate cannot be interpreted as a gate", () => {
    const step = { ...work, gate: undefined };
    const issue = problem(interpretGate(step, { next_action: { action: "next" } }, first));
    expect(issue).toMatchObject({ code: "SR-GATE-005", family: "GATE_INTERPRETATION_ERROR" });
    expect(issue.hint).toContain("interpretCheck");
  });
});

describe("interpretGate: codes", () => {
  it("puts the specific code in code and the run-level family beside it, never in the message", () => {
    const outputs: [unknown, number][] = [
      [{}, 1],
      [{}, 4],
      [{ next_action: { action: "proceed" } }, 1],
      [{ next_action: { action: "closing" } }, 1],
      [{ next_action: { action: "jump" } }, 1],
    ];
    for (const [output, iteration] of outputs) {
      const issue = problem(interpretGate(work, output, { iteration }));
      expect(issue.code).toMatch(/^SR-[A-Z]+-\d{3}$/);
      expect(issue.family).toMatch(/^(GATE_INTERPRETATION_ERROR|FAILED_STEP_ROUTING)$/);
      expect(issue.message).not.toMatch(/^SR-|GATE_INTERPRETATION_ERROR|FAILED_STEP_ROUTING/);
    }
  });
});
