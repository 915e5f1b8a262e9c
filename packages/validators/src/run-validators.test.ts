// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${param} is the validator placeholder syntax under test
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runValidators } from "./run-validators.ts";
import { validator } from "./validator.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 5 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "climpt-validators-"));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

// A validator that only passes once another one has run: proves two really ran at the same time
// without timing anything.
const waitsForFlag = validator(
  "i=0; while [ ! -f flag ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; test -f flag",
  "exitCode:0",
  { id: "waits-for-flag" },
);
const setsFlag = validator("touch flag", "exitCode:0", { id: "sets-flag" });

describe("runValidators", () => {
  it("runs one after another by default, in declared order", async () => {
    const outcome = await runValidators([waitsForFlag, setsFlag], { cwd });
    expect(outcome.results.map((result) => [result.id, result.passed])).toEqual([
      ["waits-for-flag", false],
      ["sets-flag", true],
    ]);
  });

  it("runs validators at the same time with concurrency", async () => {
    const outcome = await runValidators([waitsForFlag, setsFlag], { cwd }, { concurrency: 2 });
    expect(outcome.passed).toBe(true);
    expect(outcome.results.map((result) => result.id)).toEqual(["waits-for-flag", "sets-flag"]);
    expect(outcome.firstFailure).toBeUndefined();
  });

  it("reports in declared order and picks the first failure in that order, not in finishing order", async () => {
    const slowFailure = validator("sleep 0.4; echo slow; exit 1", "exitCode:0", {
      id: "slow",
      failurePattern: "slow-failed",
    });
    const fastFailure = validator("exit 1", "exitCode:0", {
      id: "fast",
      failurePattern: "fast-failed",
    });
    const pass = validator("true", "exitCode:0", { id: "pass" });
    const outcome = await runValidators(
      [pass, slowFailure, fastFailure],
      { cwd },
      { concurrency: 3 },
    );
    expect(outcome.results.map((result) => result.id)).toEqual(["pass", "slow", "fast"]);
    expect(outcome.passed).toBe(false);
    expect(outcome.firstFailure?.id).toBe("slow");
    expect(outcome.firstFailure?.failurePattern).toBe("slow-failed");
    expect(outcome.recoverable).toBe(true);
  });

  it("runs every validator even after a failure", async () => {
    const fails = validator("exit 1", "exitCode:0", { id: "fails" });
    const outcome = await runValidators([fails, setsFlag], { cwd });
    expect(outcome.results).toHaveLength(2);
    expect(existsSync(join(cwd, "flag"))).toBe(true);
  });

  it("is not recoverable when any failure is not", async () => {
    const missing = validator("climpt-no-such-tool", "exitCode:0", { id: "missing" });
    const fails = validator("exit 1", "exitCode:0", { id: "fails" });
    const outcome = await runValidators([fails, missing], { cwd }, { concurrency: 2 });
    expect(outcome.firstFailure?.id).toBe("fails");
    expect(outcome.recoverable).toBe(false);
  });

  it("merges a condition's own params over the run's params", async () => {
    const echo = validator("printf '%s-%s' ${a} ${b}", "exitCode:0", { id: "echo" });
    const outcome = await runValidators([{ definition: echo, params: { b: "own" } }, echo], {
      cwd,
      params: { a: "run", b: "run" },
    });
    expect(outcome.results.map((result) => result.stdout)).toEqual(["run-own", "run-run"]);
  });

  it("passes with no validators", async () => {
    expect(await runValidators([], { cwd })).toEqual({
      passed: true,
      results: [],
      recoverable: true,
    });
  });
});
