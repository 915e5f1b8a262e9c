/**
 * `climpt validate` on agent folders shaped like the original runtime's seven agents: each is
 * judged the way a run of that agent meets it (its verdict type's entry, its declared cap, a
 * subprocess step without a prompt), and load errors come with the flow findings.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { installOriginalShape, type OriginalShapeAgent } from "@climpt/testing";
import { afterAll, describe, expect, it } from "vitest";
import { onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

const root = tempDir("shapes");
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Report {
  readonly ok: boolean;
  readonly problems: readonly { code: string; severity: string; path?: string }[];
  readonly findings: readonly { code: string; severity: string; path?: string }[];
}

async function validate(
  agent: OriginalShapeAgent,
): Promise<{ code: number | null; report: Report }> {
  installOriginalShape(agent, root);
  const { code, stdout } = await spawnCli(["validate", agent, "--json"], { cwd: root });
  return { code, report: onlyJson(stdout) as unknown as Report };
}

const listed = (entries: Report["problems"]) =>
  entries.map((entry) => `${entry.severity} ${entry.code} ${entry.path ?? ""}`.trim());

describe("climpt validate on the original shapes", () => {
  it("considerer, detailer, triager and merger are valid without a warning", async () => {
    for (const agent of ["considerer", "detailer", "triager", "merger"] as const) {
      const { code, report } = await validate(agent);
      // No SR-FLOW-005 (the verdict's maxIterations is the declared cap), no SR-FLOW-004 for a
      // gate-less or subprocess closure step, no PR-C3L-004 for merger's missing prompt.
      expect({ agent, problems: report.problems, findings: report.findings }).toEqual({
        agent,
        problems: [],
        findings: [],
      });
      expect(code).toBe(0);
    }
  });

  it("iterator is valid: what only unreachable steps lack is a warning, reported with the flow findings", async () => {
    const { code, report } = await validate("iterator");
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    const problems = listed(report.problems);
    // Every unsupplied variable of a step no poll:state run reaches is a warning: 10 declared in
    // the registry (SR-VALID-006) and the 8 uses of them in prompt files (PR-RESOLVE-005).
    expect(problems.every((entry) => entry.startsWith("warning "))).toBe(true);
    expect(problems.filter((entry) => entry.includes(" SR-VALID-006 "))).toHaveLength(10);
    expect(problems.filter((entry) => entry.includes(" PR-RESOLVE-005 "))).toHaveLength(8);
    // The steps of project mode and of the count:iteration entry never run for a poll:state run.
    expect(listed(report.findings)).toContain('warning SR-FLOW-003 $.steps["initial.iteration"]');
    expect(listed(report.findings).some((entry) => entry.includes("SR-FLOW-005"))).toBe(false);
  });

  it("reviewer is valid: the other entry's path does not make the closure's handoff read unsafe", async () => {
    const { code, report } = await validate("reviewer");
    expect(code).toBe(0);
    expect(listed(report.findings)).toEqual([
      'warning SR-FLOW-003 $.steps["initial.default"]',
      'warning SR-FLOW-003 $.steps["continuation.default"]',
    ]);
  });

  it("facilitator: the optional parameter warns, steps hidden by validation-retry edges surface, and next into closure is a boundary error", async () => {
    const { code, report } = await validate("facilitator");
    expect(code).toBe(2);
    expect(listed(report.problems)).toContain(
      'warning SR-VALID-008 $.steps["initial.statuscheck"].uvVariables[0]',
    );
    const findings = listed(report.findings);
    expect(findings).toContain('warning SR-FLOW-003 $.steps["initial.statuscheck.empty"]');
    expect(findings).toContain('warning SR-FLOW-003 $.steps["continuation.statuscheck"]');
    expect(findings).toContain('error SR-TRANS-108 $.steps["initial.report"].transitions.next');
    expect(findings.some((entry) => entry.includes("SR-FLOW-005"))).toBe(false);
  });

  it("shows load errors and flow findings at once", async () => {
    const dir = installOriginalShape("considerer", path.join(root, "broken"));
    // A load error (an unknown name as variable, in the reachable entry step) and a flow
    // finding (a copy of that step nothing leads to) in the same registry.
    const registryFile = path.join(dir, "steps_registry.json");
    const registry = JSON.parse(readFileSync(registryFile, "utf8")) as {
      steps: Record<string, { stepId: string; uvVariables: string[] }>;
    };
    const consider = registry.steps.consider as { stepId: string; uvVariables: string[] };
    consider.uvVariables = [...consider.uvVariables, "no_such_parameter"];
    registry.steps["consider.orphan"] = { ...consider, stepId: "consider.orphan", uvVariables: [] };
    writeFileSync(registryFile, JSON.stringify(registry));
    const { code, stdout } = await spawnCli(["validate", "considerer", "--json"], {
      cwd: path.join(root, "broken"),
    });
    expect(code).toBe(2);
    const report = onlyJson(stdout) as unknown as Report;
    expect(listed(report.problems)).toContain(
      `error SR-VALID-006 $.steps.consider.uvVariables[${consider.uvVariables.length - 1}]`,
    );
    expect(listed(report.findings)).toContain('warning SR-FLOW-003 $.steps["consider.orphan"]');
  });
});
