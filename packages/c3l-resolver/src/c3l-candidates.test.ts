import { describe, expect, it } from "vitest";
import { c3lCandidates } from "./c3l-candidates.ts";
import { issuesOf, okValue, registry } from "./c3l-resolver.test-helper.ts";

const ref = { kind: "c3l", c1: "steps", c2: "closure", c3: "issue", edition: "failed" } as const;

describe("c3lCandidates", () => {
  it("tries the adaptation file first, then the plain edition file", () => {
    expect(okValue(c3lCandidates(registry(), { ...ref, adaptation: "git-dirty" }))).toEqual([
      "steps/closure/issue/f_failed_git-dirty.md",
      "steps/closure/issue/f_failed.md",
    ]);
  });

  it("without an adaptation, tries only pathTemplateNoAdaptation", () => {
    expect(okValue(c3lCandidates(registry(), ref))).toEqual(["steps/closure/issue/f_failed.md"]);
  });

  it("follows custom templates, all five placeholders included", () => {
    const custom = registry({
      pathTemplate: "{c1}/{edition}/{c2}-{c3}.{adaptation}.md",
      pathTemplateNoAdaptation: "{c1}/{edition}/{c2}-{c3}.md",
    });
    expect(okValue(c3lCandidates(custom, { ...ref, adaptation: "x" }))).toEqual([
      "steps/failed/closure-issue.x.md",
      "steps/failed/closure-issue.md",
    ]);
  });

  it("lists a path twice only once when both templates produce it", () => {
    const same = registry({ pathTemplate: "{c1}/{c2}/{c3}/f_{edition}.md" });
    expect(okValue(c3lCandidates(same, { ...ref, adaptation: "x" }))).toEqual([
      "steps/closure/issue/f_failed.md",
    ]);
  });

  it("uses a path reference as its single candidate, normalized", () => {
    expect(
      okValue(c3lCandidates(registry(), { kind: "path", path: "./checks//final.md" })),
    ).toEqual(["checks/final.md"]);
  });

  it("rejects an empty path reference with PR-C3L-010", () => {
    expect(issuesOf(c3lCandidates(registry(), { kind: "path", path: " " }))[0]?.code).toBe(
      "PR-C3L-010",
    );
  });

  it("rejects unsafe path references, pointing at the step", () => {
    const [issue] = issuesOf(
      c3lCandidates(registry(), { kind: "path", path: "../agent.json" }, { stepId: "s_a8f3" }),
    );
    expect(issue).toMatchObject({ code: "PR-C3L-001", path: "$.steps.s_a8f3.path" });
  });

  it("rejects every unsafe C3L value at once, each at its field", () => {
    const issues = issuesOf(
      c3lCandidates(
        registry(),
        { kind: "c3l", c1: "steps", c2: "../..", c3: "a/b", edition: "/etc", adaptation: "x\\y" },
        { stepId: "initial.issue", file: "/agent/steps_registry.json" },
      ),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ["PR-C3L-001", '$.steps["initial.issue"].c2'],
      ["PR-C3L-008", '$.steps["initial.issue"].c3'],
      ["PR-C3L-002", '$.steps["initial.issue"].edition'],
      ["PR-C3L-006", '$.steps["initial.issue"].adaptation'],
    ]);
    expect(issues.every((i) => i.file === "/agent/steps_registry.json")).toBe(true);
  });

  it("rejects a template that climbs out of the prompt folder or is absolute", () => {
    const up = registry({ pathTemplateNoAdaptation: "../{c1}/{c2}/{c3}/f_{edition}.md" });
    expect(issuesOf(c3lCandidates(up, ref))[0]).toMatchObject({
      code: "PR-C3L-001",
      path: "$.pathTemplateNoAdaptation",
    });
    const abs = registry({ pathTemplateNoAdaptation: "/{c1}/{c2}/{c3}/f_{edition}.md" });
    expect(issuesOf(c3lCandidates(abs, ref))[0]?.code).toBe("PR-C3L-002");
  });

  it("rejects placeholders nothing fills (PR-C3L-010), including {adaptation} without one", () => {
    const typo = registry({ pathTemplateNoAdaptation: "{c1}/{c2}/{layer}/f_{edition}.md" });
    const [issue] = issuesOf(c3lCandidates(typo, ref));
    expect(issue).toMatchObject({ code: "PR-C3L-010", path: "$.pathTemplateNoAdaptation" });
    expect(issue?.message).toContain("{layer}");
    const adapt = registry({ pathTemplateNoAdaptation: "{c1}/f_{edition}_{adaptation}.md" });
    expect(issuesOf(c3lCandidates(adapt, ref))[0]?.message).toContain("{adaptation}");
  });
});
