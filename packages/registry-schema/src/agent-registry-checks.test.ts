import type { AgentDefinition, Registry } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { checkAgentRegistry } from "./agent-registry-checks.ts";
import { normalizeAgent } from "./normalize-agent.ts";
import { normalizeRegistry } from "./normalize-registry.ts";

function agent(): AgentDefinition {
  const result = normalizeAgent(
    {
      name: "demo",
      parameters: { issue: { type: "number", required: true } },
      runner: { verdict: { type: "poll:state" } },
    },
    { folderName: "demo" },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

/** `initial.issue` hands off `analysis.understanding` (key `understanding`) and `status`. */
function registry(reads: readonly string[], checkKeys: readonly string[] = []): Registry {
  const result = normalizeRegistry({
    entryStep: "initial.issue",
    steps: {
      "initial.issue": {
        stepId: "initial.issue",
        c2: "initial",
        c3: "issue",
        outputSchemaRef: { file: "issue.schema.json", schema: "initial" },
        structuredGate: {
          allowedIntents: ["next"],
          intentSchemaRef: "#/properties/action",
          intentField: "action",
          handoffFields: ["analysis.understanding", "status"],
        },
        transitions: { next: { target: "continuation.issue" } },
      },
      "continuation.issue": {
        stepId: "continuation.issue",
        c2: "continuation",
        c3: "issue",
        uvVariables: reads,
        outputSchemaRef: { file: "issue.schema.json", schema: "continuation" },
        structuredGate: {
          allowedIntents: ["next"],
          intentSchemaRef: "#/properties/action",
          intentField: "action",
        },
        transitions: { next: { target: "continuation.issue" } },
      },
    },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  if (checkKeys.length === 0) return result.value;
  // A check-dialect-style key with a dot, as a programmatic registry may carry it.
  const first = result.value.steps["initial.issue"] as Registry["steps"][string];
  return {
    ...result.value,
    steps: {
      ...result.value.steps,
      "initial.issue": {
        ...first,
        handoff: [...first.handoff, ...checkKeys.map((key) => ({ key, path: key }))],
      },
    },
  };
}

const unsupplied = (reads: readonly string[], checkKeys?: readonly string[]) =>
  checkAgentRegistry(agent(), registry(reads, checkKeys))
    .filter((problem) => problem.code === "SR-VALID-006")
    .map((problem) => problem.message.match(/uvVariable "([^"]+)"/)?.[1]);

describe("checkAgentRegistry: uvVariables against what the runtime supplies", () => {
  it("accepts parameters, runtime variables and handoff values by key", () => {
    expect(unsupplied(["issue", "iteration", "initial_issue_understanding"])).toEqual([]);
  });

  it("reports a name nothing supplies, suggesting the parameter", () => {
    const problems = checkAgentRegistry(agent(), registry(["issue_number"]));
    expect(problems).toEqual([
      expect.objectContaining({
        code: "SR-VALID-006",
        path: '$.steps["continuation.issue"].uvVariables[0]',
      }),
    ]);
    expect(problems[0]?.hint).toContain('Use "issue"');
  });

  // The cases where the loader and the prompt resolver used to disagree: each of these names is
  // filled at run time, so the loader must not reject it.
  it("accepts an entry written with the uv- prefix", () => {
    expect(unsupplied(["uv-issue", "uv-initial_issue_status"])).toEqual([]);
  });

  it("accepts a gate handoff value named after its full dot path", () => {
    expect(unsupplied(["initial_issue_analysis_understanding"])).toEqual([]);
  });

  it("accepts a handoff name written with the step id's dots", () => {
    expect(unsupplied(["initial.issue_status"])).toEqual([]);
  });

  it("names a key with a dot with every dot as _, as the runtime does", () => {
    expect(unsupplied(["initial_issue_a_b", "initial.issue_a.b"], ["a.b"])).toEqual([]);
    expect(unsupplied(["initial_issue_a_c"], ["a.b"])).toEqual(["initial_issue_a_c"]);
  });
});
