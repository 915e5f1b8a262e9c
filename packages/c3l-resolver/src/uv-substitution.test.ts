import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { issuesOf, okValue } from "./c3l-resolver.test-helper.ts";
import { substituteUv } from "./uv-substitution.ts";

describe("substituteUv", () => {
  it("fills placeholders: strings as-is, numbers and booleans as text, null as null", () => {
    const out = substituteUv("{uv-a} {uv-b} {uv-c} {uv-d} {uv-a}", {
      a: "text",
      b: 42,
      c: false,
      d: null,
    });
    expect(okValue(out)).toEqual({ text: "text 42 false null text", used: ["a", "b", "c", "d"] });
  });

  it("writes objects and arrays as indented JSON, never [object Object]", () => {
    const text = okValue(
      substituteUv("Plan:\n{uv-plan}\nFiles: {uv-files}", {
        plan: { steps: ["a", "b"], risk: null },
        files: ["x.ts"],
      }),
    ).text;
    expect(text).toBe(
      'Plan:\n{\n  "steps": [\n    "a",\n    "b"\n  ],\n  "risk": null\n}\nFiles: [\n  "x.ts"\n]',
    );
    expect(text).not.toContain("[object Object]");
  });

  it("leaves every non-uv brace alone", () => {
    const text =
      '{c1}/{c2} {"json": {"a": 1}} {{mustache}} {{#each x}}{{/each}} {uv-} {uv x} {input}';
    expect(okValue(substituteUv(text, { c1: "no" })).text).toBe(text);
  });

  it("reads a dotted handoff name (the original's uv-s_a.finding) through its _ form", () => {
    expect(okValue(substituteUv("{uv-s_a.finding}", { s_a_finding: "f" })).text).toBe("f");
  });

  it("reports a placeholder nothing supplies as PR-RESOLVE-005 with the file and lines", () => {
    const [issue] = issuesOf(
      substituteUv(
        "line one\n{uv-issue}\n\n{uv-issue} again",
        {},
        {
          file: "/agent/prompts/steps/initial/issue/f_default.md",
          stepId: "initial.issue",
        },
      ),
    );
    expect(issue).toMatchObject({
      code: "PR-RESOLVE-005",
      file: "/agent/prompts/steps/initial/issue/f_default.md",
      path: "lines 2, 4",
    });
    expect(issue?.message).toContain('step "initial.issue"');
    expect(issue?.message).toContain("{uv-issue}");
  });

  it("offers the closest supplied name for a misspelt placeholder, never a flag that does not exist", () => {
    const flags = { issue: "--issue", task: "--task" };
    const [typo] = issuesOf(substituteUv("{uv-isue}", { issue: 12 }, { parameterFlags: flags }));
    expect(typo?.hint).toMatch(/^Did you mean \{uv-issue\} \(parameter issue, --issue\)\?/);
    expect(typo?.hint).not.toContain("--isue");
    const [handoff] = issuesOf(
      substituteUv(
        "{uv-initial_work_aproach}",
        { initial_work_approach: "x" },
        { parameterFlags: flags },
      ),
    );
    expect(handoff?.hint).toMatch(/^Did you mean \{uv-initial_work_approach\}\?/);
    const [unknown] = issuesOf(substituteUv("{uv-zebra}", {}, { parameterFlags: flags }));
    expect(unknown?.hint).toMatch(/^Declare a parameter "zebra" in agent.json/);
    expect(unknown?.hint).not.toContain("--zebra");
    const [notGiven] = issuesOf(substituteUv("{uv-task}", {}, { parameterFlags: flags }));
    expect(notGiven?.hint).toMatch(/^Pass --task <value>/);
  });

  it("counts lines from the file's line where the text starts (after frontmatter)", () => {
    const [issue] = issuesOf(substituteUv("a\n{uv-x}", {}, { firstLine: 5 }));
    expect(issue?.path).toBe("line 6");
  });

  it("reports a declared uvVariables entry without a value as PR-RESOLVE-003", () => {
    const [used] = issuesOf(
      substituteUv("Issue {uv-issue}", {}, { declared: ["issue"], file: "f.md" }),
    );
    expect(used).toMatchObject({ code: "PR-RESOLVE-003", file: "f.md", path: "line 1" });
    // Without knowing the parameters, no flag is named: it might not exist.
    expect(used?.hint).not.toContain("--issue");
    const [withFlags] = issuesOf(
      substituteUv(
        "Issue {uv-issue}",
        {},
        { declared: ["issue"], parameterFlags: { issue: "--issue" } },
      ),
    );
    expect(withFlags?.hint).toContain("Pass --issue <value>");
    const [unused] = issuesOf(
      substituteUv(
        "no placeholders",
        {},
        {
          declared: ["topic"],
          stepId: "initial.issue",
          registryFile: "/agent/steps_registry.json",
        },
      ),
    );
    expect(unused).toMatchObject({
      code: "PR-RESOLVE-003",
      file: "/agent/steps_registry.json",
      path: '$.steps["initial.issue"].uvVariables[0]',
    });
  });

  it("explains runtime names differently from parameters", () => {
    const [issue] = issuesOf(substituteUv("", {}, { declared: ["previous_summary"] }));
    expect(issue?.hint).toContain("set by the runner");
  });

  it("reports every missing variable at once", () => {
    const issues = issuesOf(
      substituteUv("{uv-a} {uv-b}\n{uv-c} {uv-ok}", { ok: 1 }, { declared: ["a", "d", "ok"] }),
    );
    expect(issues.map((i) => [i.code, i.message.match(/"(\w+)"/)?.[1]])).toEqual([
      ["PR-RESOLVE-003", "a"],
      ["PR-RESOLVE-003", "d"],
      ["PR-RESOLVE-005", "b"],
      ["PR-RESOLVE-005", "c"],
    ]);
  });

  it("lists declared variables among the used ones even when the text does not use them", () => {
    expect(okValue(substituteUv("x", { issue: 1 }, { declared: ["uv-issue"] })).used).toEqual([
      "issue",
    ]);
  });

  it("substitutes in one pass: a value containing a placeholder is not expanded", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (prefix, suffix) => {
        const value = `${prefix}{uv-secret}${suffix}`;
        const out = okValue(substituteUv("[{uv-v}]", { v: value, secret: "LEAK" })).text;
        expect(out).toBe(`[${value}]`);
      }),
    );
  });

  it("never writes [object Object] whatever JSON it is given", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const out = okValue(substituteUv("{uv-v}", { v: value as never })).text;
        expect(out).not.toContain("[object Object]");
      }),
    );
  });
});
