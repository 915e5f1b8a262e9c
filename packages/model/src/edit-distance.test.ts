import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestMatch, editDistance } from "./edit-distance.ts";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and neighbour swaps as one edit each", () => {
    expect(editDistance("issue", "issue")).toBe(0);
    expect(editDistance("isue", "issue")).toBe(1);
    expect(editDistance("issues", "issue")).toBe(1);
    expect(editDistance("isste", "issue")).toBe(1);
    expect(editDistance("isuse", "issue")).toBe(1);
    expect(editDistance("", "json")).toBe(4);
    expect(editDistance("model", "")).toBe(5);
  });

  it("is symmetric and zero only for equal strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const distance = editDistance(a, b);
        expect(distance).toBe(editDistance(b, a));
        expect(distance === 0).toBe(a === b);
        expect(distance).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(distance).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
  });
});

describe("closestMatch", () => {
  const flags = [
    "agent-dir",
    "cwd",
    "param",
    "model",
    "max-iterations",
    "max-tokens",
    "json",
    "issue",
  ];

  it("suggests the flag a typo was meant to be", () => {
    expect(closestMatch("isue", flags)).toBe("issue");
    expect(closestMatch("max-iteration", flags)).toBe("max-iterations");
    expect(closestMatch("jsno", flags)).toBe("json");
    expect(closestMatch("modle", flags)).toBe("model");
    expect(closestMatch("agentdir", flags)).toBe("agent-dir");
  });

  it("completes a unique prefix", () => {
    expect(closestMatch("max-it", flags)).toBe("max-iterations");
  });

  it("names a handoff name from its key without the step, the shortest when several end so", () => {
    const handoffs = [
      "task",
      "initial_plan_approach",
      "initial_plan_plan_approach",
      "continuation_write_files",
    ];
    expect(closestMatch("plan_approach", handoffs)).toBe("initial_plan_approach");
    expect(closestMatch("write_files", handoffs)).toBe("continuation_write_files");
    // Only after a separator, and never when two equally short candidates end so.
    expect(closestMatch("report", ["alpha_report", "bravo_report"])).toBeUndefined();
    expect(closestMatch("report", ["alphareport"])).toBeUndefined();
    expect(closestMatch("an_approach", handoffs)).toBeUndefined();
  });

  it("suggests nothing for a word unlike every candidate", () => {
    expect(closestMatch("frobnicate", flags)).toBeUndefined();
    expect(closestMatch("x", flags)).toBeUndefined();
    expect(closestMatch("issue", [])).toBeUndefined();
  });
});
