// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${context.*} is the reference syntax under test
import { describe, expect, it } from "vitest";
import { contextKeysOf, findContextRefs, substituteContextRefs } from "./context-refs.ts";

describe(`\${context.*} references`, () => {
  it("lists the keys, trimmed, in order of first appearance", () => {
    expect(findContextRefs(`--pr=\${context.prNumber}/\${context. repo }`)).toEqual([
      "prNumber",
      "repo",
    ]);
    expect(contextKeysOf([`\${context.a}`, `x\${context.b}\${context.a}`, "plain"])).toEqual([
      "a",
      "b",
    ]);
  });

  it("substitutes strings, numbers and booleans, once", () => {
    const result = substituteContextRefs(
      ["merge", "--pr", `\${context.prNumber}`, `--dry=\${context.dry}`, `\${context.note}`],
      { prNumber: 42, dry: false, note: `\${context.prNumber}` },
    );
    expect(result).toEqual({
      ok: true,
      value: ["merge", "--pr", "42", "--dry=false", `\${context.prNumber}`],
    });
  });

  it("names every key without a usable value instead of running with a hole", () => {
    const result = substituteContextRefs(
      [`\${context.a}`, `\${context.b}`, `\${context.c}`, `\${context.a}`],
      {
        b: null,
        c: { nested: true },
      },
    );
    expect(result).toEqual({ ok: false, issues: ["a", "b", "c"] });
  });

  it("does not read inherited properties", () => {
    expect(substituteContextRefs([`\${context.toString}`], {})).toEqual({
      ok: false,
      issues: ["toString"],
    });
  });
});
