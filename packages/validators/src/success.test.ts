import { describe, expect, it } from "vitest";
import { combinedOutput, evaluateSuccess } from "./success.ts";

const finished = { stdout: "", stderr: "", exitCode: 0, timedOut: false };

describe("evaluateSuccess", () => {
  it("never passes a timed-out or signal-killed command", () => {
    for (const condition of [
      { kind: "empty" },
      { kind: "exitCode", code: 0 },
      { kind: "contains", text: "" },
      { kind: "matches", pattern: "" },
    ] as const) {
      expect(evaluateSuccess(condition, { ...finished, timedOut: true })).toEqual({
        ok: true,
        passed: false,
      });
      expect(evaluateSuccess(condition, { ...finished, exitCode: null })).toEqual({
        ok: true,
        passed: false,
      });
    }
  });

  it("does not let the shell's own 'not found' text satisfy contains", () => {
    const outcome = { ...finished, stderr: "sh: 1: jest: not found", exitCode: 127 };
    expect(evaluateSuccess({ kind: "contains", text: "not found" }, outcome)).toEqual({
      ok: true,
      passed: false,
    });
  });

  it("strips colour codes before contains and matches", () => {
    const outcome = { ...finished, stdout: "\u001b[32mTests  3 passed\u001b[39m (3)\n" };
    expect(evaluateSuccess({ kind: "contains", text: "3 passed" }, outcome)).toEqual({
      ok: true,
      passed: true,
    });
    expect(evaluateSuccess({ kind: "matches", pattern: "^Tests\\s+3 passed" }, outcome)).toEqual({
      ok: true,
      passed: true,
    });
  });
});

describe("combinedOutput", () => {
  it("joins stdout and stderr with one line break", () => {
    expect(combinedOutput({ stdout: "a", stderr: "b" })).toBe("a\nb");
    expect(combinedOutput({ stdout: "a\n", stderr: "b" })).toBe("a\nb");
    expect(combinedOutput({ stdout: "", stderr: "b" })).toBe("b");
  });
});
