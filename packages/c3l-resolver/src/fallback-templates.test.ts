import { findUvPlaceholders, type JsonValue } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { issuesOf, okValue } from "./c3l-resolver.test-helper.ts";
import {
  FALLBACK_CONTEXT_VARIABLES,
  FALLBACK_KEYS,
  FALLBACK_TEMPLATES,
  fallbackTemplate,
} from "./fallback-templates.ts";
import { substituteUv } from "./uv-substitution.ts";

/** The fallbackKey table of the original runtime, as it names the keys. */
const SEED_003_KEYS = [
  "initial_iterate",
  "continuation_iterate",
  "initial_issue",
  "continuation_issue",
  "initial_issue_label_only",
  "continuation_issue_label_only",
  "initial_project",
  "continuation_project",
  "initial_keyword",
  "continuation_keyword",
  "initial_manual",
  "continuation_manual",
  "initial_structured_signal",
  "continuation_structured_signal",
  "continuation_project_preparation",
  "continuation_project_processing",
  "continuation_project_review",
  "issue_closure_default",
  "project_closure_default",
  "polling_closure_default",
  "review_closure_default",
  "iteration_closure_default",
  "facilitation_closure_default",
  "project_continuation_closure_default",
  "statuscheck_continuation_default",
  "system",
];

/** Sample values a runner would supply for each variable of a context. */
const SAMPLE: Readonly<Record<string, JsonValue>> = {
  iteration: 3,
  max_iterations: 10,
  remaining: 7,
  issue: 123,
  project: 5,
  completion_keyword: "TASK_COMPLETE",
  check_count: 2,
  max_checks: 6,
};

describe("fallback templates", () => {
  it("has every key the original runtime names, and no other", () => {
    expect([...FALLBACK_KEYS].sort()).toEqual([...SEED_003_KEYS].sort());
  });

  it.each(SEED_003_KEYS)("%s renders with its completion type's variables alone", (key) => {
    const template = okValue(fallbackTemplate(key, "some.step"));
    const names = FALLBACK_CONTEXT_VARIABLES[template.context];
    const variables = Object.fromEntries(names.map((name) => [name, SAMPLE[name] as JsonValue]));
    const rendered = okValue(substituteUv(template.text, variables));
    expect(rendered.text).not.toMatch(/\{uv-/);
    expect(rendered.text.trim().split(/\n\s*\n/).length).toBeGreaterThanOrEqual(2);
  });

  it("uses the variable that identifies each kind of run", () => {
    const uses = (key: string) =>
      new Set(findUvPlaceholders(FALLBACK_TEMPLATES[key]?.text ?? "").map((p) => p.name));
    for (const key of ["initial_iterate", "continuation_iterate"]) {
      expect(uses(key)).toEqual(new Set(["iteration", "max_iterations", "remaining"]));
    }
    for (const key of ["initial_keyword", "continuation_keyword", "initial_manual"]) {
      expect(uses(key).has("completion_keyword")).toBe(true);
    }
    for (const key of ["initial_issue", "continuation_issue", "issue_closure_default"]) {
      expect(uses(key).has("issue")).toBe(true);
    }
    expect(uses("statuscheck_continuation_default")).toEqual(
      new Set(["check_count", "max_checks", "iteration"]),
    );
  });

  it("tells every closure template about the checks it faces and the closing intent", () => {
    for (const key of SEED_003_KEYS.filter((k) => k.includes("closure"))) {
      const text = FALLBACK_TEMPLATES[key]?.text ?? "";
      expect(text).toContain("`closing`");
      expect(text).toContain("structured output");
      expect(text).toContain("git status --porcelain");
    }
  });

  it("accepts the issue_initial_default spelling of the original's own step example", () => {
    expect(okValue(fallbackTemplate("issue_initial_default")).key).toBe("initial_issue");
  });

  it("reports an unknown key with exactly the seed's message (PR-C3L-005)", () => {
    const [issue] = issuesOf(fallbackTemplate("initial.issue", "initial.issue"));
    expect(issue?.code).toBe("PR-C3L-005");
    expect(issue?.message).toBe(
      'No fallback prompt found for key: "initial.issue" (step: initial.issue)',
    );
    expect(issue?.hint).toContain('"initial_issue"');
    expect(issuesOf(fallbackTemplate("initial_assess", "initial.assess"))[0]?.message).toBe(
      'No fallback prompt found for key: "initial_assess" (step: initial.assess)',
    );
  });
});
