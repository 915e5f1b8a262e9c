import type { JsonValue } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { parseLintErrors } from "../extractors/lint-errors.ts";
import { parseTestOutput } from "../extractors/test-output.ts";
import { parseTypeErrors } from "../extractors/type-errors.ts";
import { FIXTURE_ROOT, loadFixture } from "../fixtures.test-helper.ts";
import {
  compareFindings,
  failureFindings,
  introducedValues,
  namesFailures,
} from "./failure-findings.ts";

const json = (value: unknown): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;

function tap(results: Record<string, boolean>): string {
  const lines = ["TAP version 13"];
  Object.entries(results).forEach(([name, ok], index) => {
    lines.push(`${ok ? "ok" : "not ok"} ${index + 1} - ${name}`);
  });
  const failed = Object.values(results).filter((ok) => !ok).length;
  const total = Object.keys(results).length;
  lines.push(`1..${total}`, `# tests ${total}`, `# pass ${total - failed}`, `# fail ${failed}`);
  return `${lines.join("\n")}\n`;
}

describe("failureFindings", () => {
  it("names each failing test of a test report, by name and file", () => {
    const fixture = loadFixture("vitest-failures");
    const report = parseTestOutput(fixture.stdout, fixture.stderr, `${FIXTURE_ROOT}/vitest`);
    const found = failureFindings({ tests: "parseTestOutput" }, { tests: json(report) });
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    expect(found.findings.map((finding) => finding.label)).toEqual(
      report.failures.map((failure) =>
        failure.file === undefined ? failure.name : `${failure.name} (${failure.file})`,
      ),
    );
    expect(found.findings.length).toBe(2);
  });

  it("names type errors and lint errors with their place, and matches them without it", () => {
    const fixture = loadFixture("tsc-errors");
    const errors = parseTypeErrors(fixture.stdout, fixture.stderr);
    const head = failureFindings({ errors: "parseTypeErrors" }, { errors: json(errors) });
    // The same errors, two lines further down: the change added lines above them.
    const moved = errors.map((error) => ({ ...error, line: error.line + 2 }));
    const base = failureFindings({ errors: "parseTypeErrors" }, { errors: json(moved) });
    if (!head.ok || !base.ok) throw new Error("not ok");
    expect(head.findings[0]?.label).toBe(
      "src/math.ts:4:7 TS2322 Type 'number' is not assignable to type 'string'.",
    );
    expect(compareFindings(head.findings, base.findings).introduced).toEqual([]);

    const lint = loadFixture("eslint-unix");
    const problems = parseLintErrors(lint.stdout, lint.stderr, `${FIXTURE_ROOT}/eslint`);
    const linted = failureFindings({ lint: "parseLintErrors" }, { lint: json(problems) });
    if (!linted.ok) throw new Error("not ok");
    // Errors are the failure; the warning beside them is not counted.
    expect(linted.findings.map((finding) => finding.label)).toEqual([
      "src/app.js:1:7 no-unused-vars 'unused' is assigned a value but never used.",
      "src/app.js:3:9 eqeqeq Expected '===' and instead saw '=='.",
    ]);
  });

  it("is not ok when it cannot name every failure: no such extractor, a failed one, a count above the names", () => {
    expect(namesFailures({ changedFiles: "parseChangedFiles" })).toBe(false);
    expect(namesFailures({ tests: "parseTestOutput", output: "stdout" })).toBe(true);
    const none = failureFindings({ changedFiles: "parseChangedFiles" }, { changedFiles: [] });
    expect(none).toMatchObject({ ok: false });
    expect(none.ok ? "" : none.reason).toContain("names no extractor that names failures");
    expect(failureFindings({ tests: "parseTestOutput" }, { tests: null })).toMatchObject({
      ok: false,
    });
    const partial = {
      framework: "vitest",
      passed: 1,
      failed: 3,
      skipped: 0,
      failures: [{ name: "a" }],
    };
    const counted = failureFindings({ tests: "parseTestOutput" }, { tests: partial });
    expect(counted.ok ? "" : counted.reason).toContain("counts 3 failed tests but names 1");
  });
});

describe("compareFindings", () => {
  it("splits the head's failures into those the base has and those it does not, counting repeats", () => {
    const head = [
      { key: "a", label: "a:1" },
      { key: "b", label: "b" },
      { key: "a", label: "a:9" },
    ];
    const base = [
      { key: "a", label: "a:1" },
      { key: "c", label: "c" },
    ];
    expect(compareFindings(head, base)).toEqual({
      preExisting: ["a:1"],
      introduced: ["b", "a:9"],
    });
    expect(compareFindings(head, [])).toEqual({ preExisting: [], introduced: ["a:1", "b", "a:9"] });
  });
});

describe("introducedValues", () => {
  it("leaves only the introduced failures in the failure-naming params, and the rest as it is", () => {
    const output = tap({ "keeps a": false, "breaks b": false, "passes c": true });
    const report = json(parseTestOutput(output, ""));
    const values = introducedValues(
      { testResults: "parseTestOutput", output: "stdout" },
      { testResults: report, output },
      ["breaks b"],
    );
    expect(values.output).toBe(output);
    expect(values.testResults).toMatchObject({ failed: 1, failures: [{ name: "breaks b" }] });
  });
});
