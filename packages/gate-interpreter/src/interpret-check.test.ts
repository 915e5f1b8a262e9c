import { describe, expect, it } from "vitest";
import { checkSource, interpretCheck, interpretStepCheck } from "./interpret-check.ts";
import { checkStep } from "./steps.test-helper.ts";

describe("interpretCheck", () => {
  it("passes on ok, pass, true in any case and on boolean true", () => {
    for (const result of ["ok", "PASS", " True ", true]) {
      expect(interpretCheck({ result, message: "all green" })).toEqual({
        passed: true,
        recognized: true,
        message: "all green",
        result,
      });
    }
  });

  it("fails on ng, fail, false and on boolean false, keeping the check's message", () => {
    for (const result of ["ng", "Fail", "FALSE", false]) {
      const check = interpretCheck({ result, message: "2 test failures in test/auth.test.ts" });
      expect(check).toMatchObject({ passed: false, recognized: true });
      expect(check.message).toBe("2 test failures in test/auth.test.ts");
    }
  });

  it("fails on anything else and says why", () => {
    const unknown = interpretCheck({ result: "maybe", message: "unsure" });
    expect(unknown).toMatchObject({ passed: false, recognized: false, result: "maybe" });
    expect(unknown.message).toContain('"result" is "maybe"');
    expect(unknown.message).toContain("unsure");
    expect(interpretCheck({ result: 1 }).passed).toBe(false);
    const missing = interpretCheck({ message: "looks fine" });
    expect(missing).toMatchObject({ passed: false, recognized: false });
    expect(missing.message).toContain('no "result" field');
  });

  it("fails on output that is not JSON", () => {
    for (const output of ["Looks good to me!", "", null, 42, ["ok"]]) {
      const check = interpretCheck(output);
      expect(check.passed).toBe(false);
      expect(check.message).toMatch(/^Check treated as failed: the output is/);
    }
  });

  it("accepts a JSON string and JSON inside a ```json fence", () => {
    expect(interpretCheck('{"result": "ok", "message": "fine"}')).toMatchObject({
      passed: true,
      message: "fine",
    });
    const fenced = [
      "After verification:",
      "```json",
      '{ "result": "ng", "message": "2 test failures" }',
      "```",
    ].join("\n");
    expect(interpretCheck(fenced)).toMatchObject({ passed: false, recognized: true });
    expect(interpretCheck('```json { "result": "ok", "message": "inline" } ```')).toMatchObject({
      passed: true,
      message: "inline",
    });
    expect(interpretCheck(JSON.stringify(JSON.stringify({ result: "pass" }))).passed).toBe(true);
  });
});

describe("check sources", () => {
  const onPass = { kind: "next", target: "s_review" } as const;

  it("a check prompt's own output decides", () => {
    const step = checkStep("s_a8f3", {
      prompt: { kind: "c3l", c1: "checks", c2: "step", c3: "analyze", edition: "default" },
      responseFormat: { result: "ok|ng", message: "string" },
      onPass,
    });
    expect(checkSource(step)).toBe("prompt");
    const check = interpretStepCheck(step, {
      stepOutput: { result: "ok" },
      checkOutput: { result: "ng", message: "not yet" },
    });
    expect(check).toMatchObject({ passed: false, message: "not yet" });
  });

  it("without a check prompt, the step's own output carries result (like the original's s_impl)", () => {
    const step = checkStep("s_impl", { responseFormat: { result: "ok|ng" }, onPass });
    expect(checkSource(step)).toBe("stepOutput");
    expect(interpretStepCheck(step, { stepOutput: { plan: "p", result: "ok" } }).passed).toBe(true);
    expect(interpretStepCheck(step, { stepOutput: { plan: "p" } }).passed).toBe(false);
  });

  it("a check with neither prompt nor responseFormat passes (like the original's s_analysis)", () => {
    const step = checkStep("s_analysis", { onPass });
    expect(checkSource(step)).toBe("none");
    expect(interpretStepCheck(step, { stepOutput: "anything" })).toMatchObject({ passed: true });
    expect(checkSource(checkStep("s_plain", undefined))).toBe("none");
  });
});
