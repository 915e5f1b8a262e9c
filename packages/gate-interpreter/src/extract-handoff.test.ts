import { describe, expect, it } from "vitest";
import { extractHandoff, handoffFieldsOf } from "./extract-handoff.ts";
import { interpretGate } from "./interpret-gate.ts";
import { checkStep, gateStep } from "./steps.test-helper.ts";

describe("extractHandoff", () => {
  const analysis = checkStep("s_analysis", { onPass: { kind: "complete" } }, [
    { key: "issue_context", path: "issue_context", description: "課題の再定義" },
    { key: "first_file", path: "files[0].name" },
  ]);

  it("reads each declared key at its path; a missing one is absent", () => {
    expect(
      extractHandoff(analysis, { issue_context: { title: "auth" }, files: [{ name: "a.ts" }] }),
    ).toEqual({
      handoff: { issue_context: { title: "auth" }, first_file: "a.ts" },
      handoffPaths: { issue_context: { title: "auth" }, "files[0].name": "a.ts" },
    });
    expect(extractHandoff(analysis, { other: 1 })).toEqual({ handoff: {}, handoffPaths: {} });
  });

  it("reads a JSON string or a fenced answer, and nothing from prose", () => {
    expect(extractHandoff(analysis, '{"issue_context": "x"}').handoff).toEqual({
      issue_context: "x",
    });
    expect(extractHandoff(analysis, 'Done.\n```json\n{"issue_context": "y"}\n```').handoff).toEqual(
      {
        issue_context: "y",
      },
    );
    expect(extractHandoff(analysis, "no json here").handoff).toEqual({});
  });

  it("keeps a key named __proto__ as plain data", () => {
    const step = checkStep("s", { onPass: { kind: "complete" } }, [
      { key: "__proto__", path: "value" },
    ]);
    const { handoff } = extractHandoff(step, { value: { polluted: true } });
    expect(Object.keys(handoff)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("falls back to a gate step's handoffFields", () => {
    const step = gateStep("initial.issue", "work", {
      allowedIntents: ["next"],
      handoffFields: ["analysis.approach"],
    });
    expect(extractHandoff(step, { analysis: { approach: "tdd" } }).handoff).toEqual({
      approach: "tdd",
    });
  });
});

describe("handoffFieldsOf: one declaration, read the same by interpretGate and extractHandoff", () => {
  const output = {
    next_action: { action: "next" },
    analysis: { plan: "p", items: ["first"] },
  };

  it("reads a gate step's step.handoff when it declares no handoffFields (a registry built in code)", () => {
    const step = {
      ...gateStep("initial.issue", "work", { allowedIntents: ["next"] }),
      handoff: [{ key: "plan", path: "analysis.plan" }],
    };
    const read = interpretGate(step, output, { iteration: 1 });
    expect(read.ok && read.value.handoff).toEqual({ plan: "p" });
    expect(read.ok && read.value.handoffPaths).toEqual({ "analysis.plan": "p" });
    expect(extractHandoff(step, output).handoff).toEqual({ plan: "p" });
  });

  it("takes handoffFields over step.handoff, with the same keys for both readers", () => {
    const step = {
      ...gateStep("initial.issue", "work", {
        allowedIntents: ["next"],
        handoffFields: ["analysis.items[0]"],
      }),
      // What the loader derives from handoffFields; its key for an indexed path differs.
      handoff: [{ key: "items", path: "analysis.items[0]" }],
    };
    expect(handoffFieldsOf(step)).toEqual([{ key: "items[0]", path: "analysis.items[0]" }]);
    const read = interpretGate(step, output, { iteration: 1 });
    expect(read.ok && read.value.handoff).toEqual({ "items[0]": "first" });
    expect(extractHandoff(step, output).handoff).toEqual({ "items[0]": "first" });
  });
});
