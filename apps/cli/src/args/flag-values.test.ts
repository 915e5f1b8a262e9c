import { describe, expect, it } from "vitest";
import type { FlagSpec } from "./flag-spec.ts";
import { convertFlagValue, parseBooleanWord, parseDuration } from "./flag-values.ts";

const spec = (overrides: Partial<FlagSpec>): FlagSpec => ({
  name: "x",
  kind: "string",
  key: "x",
  description: "",
  ...overrides,
});

describe("parseDuration", () => {
  it("reads durations with units, also combined", () => {
    expect(parseDuration("1500ms")).toBe(1500);
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("1.5s")).toBe(1500);
  });

  it("refuses a bare number, because its unit would be a guess", () => {
    expect(parseDuration("30")).toBeUndefined();
    expect(parseDuration("")).toBeUndefined();
    expect(parseDuration("5 minutes")).toBeUndefined();
    expect(parseDuration("10s and more")).toBeUndefined();
  });
});

describe("convertFlagValue", () => {
  it("reads numbers strictly", () => {
    expect(convertFlagValue(spec({ kind: "number" }), "12.5")).toEqual({ ok: true, value: 12.5 });
    expect(convertFlagValue(spec({ kind: "number" }), "-3")).toEqual({ ok: true, value: -3 });
    expect(convertFlagValue(spec({ kind: "number" }), "12abc").ok).toBe(false);
    expect(convertFlagValue(spec({ kind: "number" }), "").ok).toBe(false);
    expect(convertFlagValue(spec({ kind: "number" }), "0x10").ok).toBe(false);
  });

  it("holds integers and limits to their range", () => {
    const iterations = spec({ name: "max-iterations", kind: "integer", min: 1 });
    expect(convertFlagValue(iterations, "7")).toEqual({ ok: true, value: 7 });
    expect(convertFlagValue(iterations, "2.5")).toMatchObject({
      ok: false,
      expected: "a whole number",
    });
    expect(convertFlagValue(iterations, "0")).toMatchObject({ ok: false, expected: "at least 1" });
    const cost = spec({ name: "max-cost", kind: "number", positive: true });
    expect(convertFlagValue(cost, "0")).toMatchObject({
      ok: false,
      expected: "a value greater than 0",
    });
    expect(convertFlagValue(cost, "0.25")).toEqual({ ok: true, value: 0.25 });
  });

  it("takes the usual words for booleans", () => {
    expect(parseBooleanWord("yes")).toBe(true);
    expect(parseBooleanWord("OFF")).toBe(false);
    expect(parseBooleanWord("maybe")).toBeUndefined();
    const verbose = spec({ name: "verbose", kind: "boolean", negatable: true });
    expect(convertFlagValue(verbose, "maybe")).toMatchObject({
      ok: false,
      hint: "Write --verbose or --no-verbose.",
    });
  });

  it("checks choices", () => {
    const format = spec({ name: "format", kind: "choice", choices: ["mermaid", "dot"] });
    expect(convertFlagValue(format, "dot")).toEqual({ ok: true, value: "dot" });
    expect(convertFlagValue(format, "svg")).toMatchObject({
      ok: false,
      expected: "one of mermaid, dot",
    });
  });
});
