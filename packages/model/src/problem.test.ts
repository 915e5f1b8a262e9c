import { describe, expect, it } from "vitest";
import { formatCode, formatProblem, jsonPath, problem, stepPath } from "./problem.ts";

describe("problem()", () => {
  it("is an error unless told, and leaves out what is undefined", () => {
    expect(
      problem("SR-LOAD-001", "missing", { file: undefined, path: "$.a", hint: undefined }),
    ).toEqual({ code: "SR-LOAD-001", message: "missing", severity: "error", path: "$.a" });
    expect(problem("SR-FLOW-005", "loop", { severity: "warning" }).severity).toBe("warning");
  });
});

describe("formatProblem", () => {
  it("prints the code, where, the message and the fix on one line", () => {
    expect(
      formatProblem(
        problem("SR-LOAD-002", "bad", { file: "a.json", path: "$.x", hint: "Fix it." }),
      ),
    ).toBe("SR-LOAD-002 a.json at $.x: bad Fix: Fix it.");
    expect(formatProblem(problem("SR-LOAD-002", "bad"))).toBe("SR-LOAD-002: bad");
  });

  it("names the family after the specific code", () => {
    expect(
      formatProblem(
        problem("SR-INTENT-007", "no intent", { family: "FAILED_STEP_ROUTING", path: "$.s" }),
      ),
    ).toBe("SR-INTENT-007 (FAILED_STEP_ROUTING) at $.s: no intent");
    expect(formatCode({ code: "AC-STEP-001", family: "FAILED_SCHEMA_RESOLUTION" })).toBe(
      "AC-STEP-001 (FAILED_SCHEMA_RESOLUTION)",
    );
    expect(formatCode({ code: "AGENT_MAX_ITERATIONS" })).toBe("AGENT_MAX_ITERATIONS");
  });
});

describe("paths", () => {
  it("uses brackets for segments that are not identifiers", () => {
    expect(jsonPath("$", "steps")).toBe("$.steps");
    expect(jsonPath("$.steps", "initial.issue")).toBe('$.steps["initial.issue"]');
    expect(jsonPath("$.list", 0)).toBe("$.list[0]");
  });

  it("builds a step's path and the fields below it", () => {
    expect(stepPath("initial.issue")).toBe('$.steps["initial.issue"]');
    expect(stepPath("s_a8f3", "uvVariables", 2)).toBe("$.steps.s_a8f3.uvVariables[2]");
    expect(stepPath("a.b", "transitions", "next", "condition")).toBe(
      '$.steps["a.b"].transitions.next.condition',
    );
  });
});
