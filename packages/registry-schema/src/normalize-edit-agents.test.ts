import { describe, expect, it } from "vitest";
import { normalizeAgent } from "./normalize-agent.ts";

function nested(editAgents: unknown): unknown {
  return {
    name: "a",
    runner: { verdict: { type: "count:iteration" }, boundaries: { editAgents } },
  };
}

describe("runner.boundaries.editAgents", () => {
  it("is absent unless written true: agent definitions are read-only to the model by default", () => {
    const plain = normalizeAgent({ name: "a", runner: { verdict: { type: "count:iteration" } } });
    expect(plain.ok && plain.value.editAgents).toBe(undefined);
    const off = normalizeAgent(nested(false));
    expect(off.ok && off.value.editAgents).toBe(undefined);
    const on = normalizeAgent(nested(true));
    expect(on.ok && on.value.editAgents).toBe(true);
  });

  it("reads behavior.editAgents in the flat shape", () => {
    const result = normalizeAgent({ name: "a", behavior: { editAgents: true } });
    expect(result.ok && result.value.editAgents).toBe(true);
  });

  it("refuses anything but true or false with its own code, file and JSON path (AC-AGENTS-001)", () => {
    for (const [raw, at] of [
      [nested("yes"), "$.runner.boundaries.editAgents"],
      [{ name: "a", behavior: { editAgents: 1 } }, "$.behavior.editAgents"],
    ] as const) {
      const result = normalizeAgent(raw, { file: "agent.json" });
      expect(result.ok).toBe(false);
      const issues = result.ok ? [] : result.issues;
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ code: "AC-AGENTS-001", file: "agent.json", path: at });
      expect(issues[0]?.message).toMatch(/must be a boolean/);
      expect(issues[0]?.hint).toMatch(/read-only to the model/);
    }
  });
});
