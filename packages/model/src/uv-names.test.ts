import { describe, expect, it } from "vitest";
import {
  declaredUvName,
  findUvPlaceholders,
  handoffFieldUvNames,
  handoffUvName,
  isRuntimeUvName,
  isUvName,
  lookupUv,
  mapUvPlaceholders,
  uvLookupNames,
} from "./uv-names.ts";

describe("the placeholder grammar", () => {
  it("finds names with letters, digits, _, - and . with their lines", () => {
    expect(findUvPlaceholders("{uv-a_1}\n{uv-b-c} {uv-s.k}")).toEqual([
      { name: "a_1", index: 0, line: 1 },
      { name: "b-c", index: 9, line: 2 },
      { name: "s.k", index: 18, line: 2 },
    ]);
  });

  it("leaves alone what is not a placeholder: other braces, spaces, other characters", () => {
    const text = '{c1} {uv-} {uv-a b} {uv-$x} {uv-a/b} {uv-.a} {{uv-ok}} {uv-x!} {"uv-j": 1}';
    expect(findUvPlaceholders(text).map((placeholder) => placeholder.name)).toEqual(["ok"]);
    expect(isUvName("a.b-c_1")).toBe(true);
    expect(isUvName("a b")).toBe(false);
    expect(isUvName(".a")).toBe(false);
  });

  it("replaces only the placeholders given text, in one pass", () => {
    const values: Record<string, string> = { a: "{uv-b}", b: "B" };
    expect(mapUvPlaceholders("{uv-a} {uv-b} {uv-c}", (name) => values[name])).toBe(
      "{uv-b} B {uv-c}",
    );
  });
});

describe("names", () => {
  it("replaces every dot of step id and key with _", () => {
    expect(handoffUvName("initial.project.review", "a.b")).toBe("initial_project_review_a_b");
    expect(handoffUvName("s_a8f3", "finding")).toBe("s_a8f3_finding");
  });

  it("names a gate handoff field by key, and by its dot path when that differs", () => {
    expect(
      handoffFieldUvNames("initial.issue", {
        key: "understanding",
        path: "analysis.understanding",
      }),
    ).toEqual(["initial_issue_understanding", "initial_issue_analysis_understanding"]);
    expect(handoffFieldUvNames("initial.issue", { key: "plan", path: "plan" })).toEqual([
      "initial_issue_plan",
    ]);
  });

  it("reads a uvVariables entry with or without the uv- prefix", () => {
    expect(declaredUvName("uv-issue")).toBe("issue");
    expect(declaredUvName("issue")).toBe("issue");
  });

  it("knows the runner's own variables", () => {
    expect(isRuntimeUvName("max_iterations")).toBe(true);
    expect(isRuntimeUvName("issue")).toBe(false);
  });
});

describe("lookup", () => {
  it("reads a name as written, then with its dots as _", () => {
    expect(uvLookupNames("initial.issue_plan")).toEqual([
      "initial.issue_plan",
      "initial_issue_plan",
    ]);
    expect(uvLookupNames("issue")).toEqual(["issue"]);
    const variables = { initial_issue_plan: "p", "a.b": 1, a_b: 2 };
    expect(lookupUv(variables, "initial.issue_plan")).toEqual({
      name: "initial_issue_plan",
      value: "p",
    });
    expect(lookupUv(variables, "a.b")).toEqual({ name: "a.b", value: 1 });
    expect(lookupUv(variables, "missing")).toBeUndefined();
  });

  it("never reads an inherited property", () => {
    expect(lookupUv({}, "toString")).toBeUndefined();
    expect(lookupUv({}, "__proto__")).toBeUndefined();
  });
});
