import { handoffUvName } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { buildUvVariables, collectUvVariables } from "./uv-channels.ts";

describe("buildUvVariables", () => {
  it("flattens the four channels into one name → value map", () => {
    expect(
      buildUvVariables({
        parameters: { issue: 123, topic: "auth" },
        runtime: { iteration: 2, completed_iterations: 1, max_iterations: 5, remaining: 3 },
        handoff: { "initial.issue": { plan: "fix it", files: ["a.ts"] }, s_a8f3: { finding: "x" } },
      }),
    ).toEqual({
      issue: 123,
      topic: "auth",
      iteration: 2,
      completed_iterations: 1,
      max_iterations: 5,
      remaining: 3,
      initial_issue_plan: "fix it",
      initial_issue_files: ["a.ts"],
      s_a8f3_finding: "x",
    });
  });

  it("treats undefined as not supplied and null as a value", () => {
    expect(
      buildUvVariables({ runtime: { previous_summary: undefined }, parameters: { label: null } }),
    ).toEqual({ label: null });
  });

  it("also names a gate handoff value after its full dot path when that differs from its key", () => {
    const variables = buildUvVariables({
      handoff: { "initial.issue": { understanding: "u", status: "ok" } },
      handoffPaths: {
        "initial.issue": { understanding: "analysis.understanding", status: "status" },
      },
    });
    expect(variables).toEqual({
      initial_issue_understanding: "u",
      initial_issue_analysis_understanding: "u",
      initial_issue_status: "ok",
    });
  });

  it("replaces every dot of step id and key with _", () => {
    expect(handoffUvName("initial.project.review", "a.b")).toBe("initial_project_review_a_b");
  });
});

describe("channel precedence on a name clash", () => {
  it("runtime beats a parameter of the same name, and the clash is reported", () => {
    const table = collectUvVariables({
      parameters: { iteration: 99, issue: 1 },
      runtime: { iteration: 2 },
    });
    expect(table.variables.iteration).toBe(2);
    expect(table.origins.iteration).toEqual({ channel: "runtime", name: "iteration" });
    expect(table.shadowed).toEqual([
      {
        name: "iteration",
        kept: { channel: "runtime", name: "iteration" },
        dropped: { channel: "parameters", name: "iteration" },
      },
    ]);
  });

  it("a parameter beats a handoff value that flattens to the same name", () => {
    const table = collectUvVariables({
      parameters: { initial_issue_plan: "from the user" },
      handoff: { "initial.issue": { plan: "from the model" } },
    });
    expect(table.variables.initial_issue_plan).toBe("from the user");
    expect(table.shadowed[0]?.dropped).toEqual({
      channel: "handoff",
      stepId: "initial.issue",
      key: "plan",
      via: "key",
    });
  });

  it("runtime beats handoff too", () => {
    const table = collectUvVariables({
      runtime: { max_checks: 3 },
      handoff: { max: { checks: 100 } },
    });
    expect(table.variables.max_checks).toBe(3);
  });

  it("within the handoff, a key name beats a path alias, and the earlier step beats a later one", () => {
    const table = collectUvVariables({
      handoff: { a: { b_c: "a's key" }, "a.b": { c: "a.b's key", x: "path" } },
      handoffPaths: { "a.b": { x: "y.z" } },
    });
    expect(table.variables.a_b_c).toBe("a's key");
    const alias = collectUvVariables({
      handoff: { s: { y_z: "key", x: "aliased" } },
      handoffPaths: { s: { x: "y.z" } },
    });
    expect(alias.variables.s_y_z).toBe("key");
    expect(alias.shadowed.map((s) => s.dropped)).toEqual([
      { channel: "handoff", stepId: "s", key: "x", via: "path" },
    ]);
  });

  it("reports nothing when names do not clash", () => {
    expect(
      collectUvVariables({ parameters: { a: 1 }, runtime: { iteration: 1 } }).shadowed,
    ).toEqual([]);
  });
});
