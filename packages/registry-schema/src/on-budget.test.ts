import type { Problem, Registry } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { normalizeRegistry } from "./normalize-registry.ts";

function load(raw: unknown): { registry?: Registry; problems: readonly Problem[] } {
  const result = normalizeRegistry(raw, { file: "steps_registry.json" });
  return result.ok ? { registry: result.value, problems: [] } : { problems: result.issues };
}

/** A three-step gated registry: work → closure.issue, and closure.budget for spent budgets. */
function registry(extra: Record<string, unknown>, budgetStep: Record<string, unknown> = {}) {
  const gate = (intents: string[]) => ({
    allowedIntents: intents,
    intentSchemaRef: "#/properties/next_action/properties/action",
    intentField: "next_action.action",
  });
  const ref = (schema: string) => ({ file: "s.json", schema });
  return {
    entryStep: "initial.issue",
    steps: {
      "initial.issue": {
        c2: "initial",
        c3: "issue",
        outputSchemaRef: ref("a"),
        structuredGate: gate(["next"]),
        transitions: { next: { target: "closure.issue" } },
        limits: { maxIterations: 3, maxCostUsd: 0.5, maxTokens: 20000 },
      },
      "closure.issue": {
        c2: "closure",
        c3: "issue",
        outputSchemaRef: ref("b"),
        structuredGate: gate(["closing"]),
        transitions: { closing: { target: null } },
      },
      "closure.budget": {
        c2: "closure",
        c3: "budget",
        outputSchemaRef: ref("c"),
        structuredGate: gate(["closing"]),
        transitions: { closing: { target: null } },
        ...budgetStep,
      },
    },
    ...extra,
  };
}

const codes = (problems: readonly Problem[]) => problems.map((p) => `${p.code} ${p.path}`);

describe("onBudget and step limits", () => {
  it("reads onBudget and a step's limits into the model", () => {
    const { registry: read, problems } = load(registry({ onBudget: "closure.budget" }));
    expect(problems).toEqual([]);
    expect(read?.onBudget).toBe("closure.budget");
    expect(read?.steps["initial.issue"]?.limits).toEqual({
      maxIterations: 3,
      maxCostUsd: 0.5,
      maxTokens: 20000,
    });
    expect(read?.steps["closure.issue"]?.limits).toBeUndefined();
  });

  it("refuses an onBudget that is not a step (SR-BUDGET-001), naming the steps", () => {
    const { problems } = load(registry({ onBudget: "closure.budgt" }));
    expect(codes(problems)).toEqual(["SR-BUDGET-001 $.onBudget"]);
    expect(problems[0]?.hint).toContain('"closure.budget"');
  });

  it("refuses an onBudget that is a work step (SR-BUDGET-002)", () => {
    const { problems } = load(registry({ onBudget: "initial.issue" }));
    expect(codes(problems)).toEqual(["SR-BUDGET-002 $.onBudget"]);
    expect(problems[0]?.message).toContain("a work step");
  });

  it("refuses a gated onBudget step that cannot say closing (SR-BUDGET-003)", () => {
    const { problems } = load(
      registry(
        { onBudget: "closure.budget" },
        {
          structuredGate: {
            allowedIntents: ["repeat"],
            intentSchemaRef: "#/properties/next_action/properties/action",
            intentField: "next_action.action",
          },
          transitions: { repeat: { target: "closure.budget" } },
        },
      ),
    );
    expect(codes(problems)).toEqual([
      'SR-BUDGET-003 $.steps["closure.budget"].structuredGate.allowedIntents',
    ]);
  });

  it("refuses step limits that are not positive numbers, with their JSON path", () => {
    const raw = registry({});
    (raw.steps["initial.issue"] as Record<string, unknown>).limits = {
      maxIterations: 0,
      maxCostUsd: "1",
    };
    const { problems } = load(raw);
    expect(codes(problems).join("\n")).toContain('$.steps["initial.issue"].limits');
    expect(problems.every((p) => p.code === "SR-LOAD-005")).toBe(true);
  });
});
