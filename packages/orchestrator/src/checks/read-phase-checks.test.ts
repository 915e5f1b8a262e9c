import type { Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "../load-workflow.ts";
import { phaseById } from "../workflow-model.ts";
import { pipelineRaw } from "../workflows.test-helper.ts";

const FILE = "/repo/.agent/workflow.json";
type Json = Record<string, Record<string, unknown>>;

/** The pipeline fixture with a `ci` phase between implementing and reviewing. */
function withCi(checks: unknown, agent: Record<string, unknown> | null = null): unknown {
  const raw = pipelineRaw();
  (raw.phases as Json).ci = { type: "actionable", priority: 2, agent: "ci-fixer", checks };
  (raw.labelMapping as Record<string, string>)["kind:ci"] = "ci";
  (raw.labels as Json)["kind:ci"] = {
    color: "1d76db",
    description: "Following the pull request's CI",
  };
  (raw.agents as Json)["ci-fixer"] = agent ?? {
    role: "transformer",
    outputPhase: "reviewing",
    fallbackPhase: "blocked",
  };
  return raw;
}

function load(raw: unknown): { ok: boolean; problems: string[]; all: readonly Problem[] } {
  const loaded = parseWorkflow(JSON.stringify(raw), FILE);
  const all = loaded.ok ? loaded.value.warnings : loaded.issues;
  return {
    ok: loaded.ok,
    all,
    problems: all.map((p) => `${p.severity} ${p.code} ${p.path ?? ""}`),
  };
}

describe("a phase that follows a pull request's checks", () => {
  it("reads checks with the defaults for what is left out; a plain phase has none", () => {
    const loaded = parseWorkflow(JSON.stringify(withCi({ pollSeconds: 5 })), FILE);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    const { workflow, warnings } = loaded.value;
    expect(warnings).toEqual([]);
    expect(phaseById(workflow, "ci")?.checks).toEqual({
      timeoutMinutes: 60,
      pollSeconds: 5,
      maxFixAttempts: 2,
    });
    expect(phaseById(workflow, "implementing")?.checks).toBeNull();
    const all = parseWorkflow(JSON.stringify(withCi({})), FILE);
    const yes = parseWorkflow(JSON.stringify(withCi(true)), FILE);
    for (const result of [all, yes]) {
      if (!result.ok) throw new Error(JSON.stringify(result.issues));
      expect(phaseById(result.value.workflow, "ci")?.checks).toEqual({
        timeoutMinutes: 60,
        pollSeconds: 60,
        maxFixAttempts: 2,
      });
    }
    // Test-sized bounds are allowed: fractions of a minute, of a second, no fix at all.
    const small = parseWorkflow(
      JSON.stringify(withCi({ timeoutMinutes: 0.05, pollSeconds: 0.2, maxFixAttempts: 0 })),
      FILE,
    );
    if (!small.ok) throw new Error(JSON.stringify(small.issues));
    expect(phaseById(small.value.workflow, "ci")?.checks).toEqual({
      timeoutMinutes: 0.05,
      pollSeconds: 0.2,
      maxFixAttempts: 0,
    });
  });

  it("refuses bad values, each with its JSON path, and warns about an unknown field", () => {
    const bad = load(
      withCi({ timeoutMinutes: 0, pollSeconds: "60", maxFixAttempts: 1.5, pollSecond: 3 }),
    );
    expect(bad.ok).toBe(false);
    expect(bad.problems).toEqual(
      expect.arrayContaining([
        "error WF-CHECKS-001 $.phases.ci.checks.timeoutMinutes",
        "error WF-CHECKS-001 $.phases.ci.checks.pollSeconds",
        "error WF-CHECKS-001 $.phases.ci.checks.maxFixAttempts",
        "warning WF-SCHEMA-006 $.phases.ci.checks.pollSecond",
      ]),
    );
    const unknown = bad.all.find((p) => p.path === "$.phases.ci.checks.pollSecond");
    expect(unknown?.message).toContain('Did you mean "pollSeconds"?');
    expect(load(withCi([60])).problems).toContain("error WF-CHECKS-001 $.phases.ci.checks");
    expect(load(withCi(-1)).problems).toContain("error WF-CHECKS-001 $.phases.ci.checks");
  });

  it("refuses a checks phase whose agent is a validator, and checks on a phase no agent works in", () => {
    const validator = load(
      withCi(
        {},
        { role: "validator", outputPhases: { ok: "reviewing" }, fallbackPhase: "blocked" },
      ),
    );
    expect(validator.ok).toBe(false);
    expect(validator.problems).toContain("error WF-CHECKS-002 $.phases.ci.agent");
    const raw = withCi({}) as Record<string, unknown>;
    (raw.phases as Json).blocked = { type: "blocking", checks: {} };
    const blocking = load(raw);
    expect(blocking.ok).toBe(false);
    expect(blocking.problems).toContain("error WF-CHECKS-001 $.phases.blocked.checks");
  });
});
