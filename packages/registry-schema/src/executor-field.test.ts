import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { closestExecutorName } from "./executor-field.ts";
import { normalizeAgent } from "./normalize-agent.ts";

function nested(flow: Record<string, unknown>): unknown {
  return { name: "demo", runner: { flow, verdict: { type: "detect:graph" } } };
}

describe("runner.flow.executor", () => {
  it("is absent unless agent.json names one, and kept when it does", () => {
    const plain = normalizeAgent(nested({}), { file: "agent.json" });
    expect(plain.ok && plain.value.executor).toBe(undefined);
    for (const executor of ["messages", "claude-code"] as const) {
      const result = normalizeAgent(nested({ executor }), { file: "agent.json" });
      expect(result.ok && result.value.executor).toBe(executor);
    }
  });

  it("refuses an unknown value with its path and the name it most likely meant", () => {
    const result = normalizeAgent(nested({ executor: "claude_code" }), { file: "agent.json" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      expect.objectContaining({
        code: "AC-VALID-001",
        file: "agent.json",
        path: "$.runner.flow.executor",
        message:
          '$.runner.flow.executor must be "messages" or "claude-code", but is "claude_code".',
      }),
    ]);
    expect(result.issues[0]?.hint).toMatch(/^Did you mean "claude-code"\?/);
  });

  it("refuses a value of the wrong type without a guess", () => {
    const result = normalizeAgent(nested({ executor: 3 }), { file: "agent.json" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]?.path).toBe("$.runner.flow.executor");
    expect(result.issues[0]?.hint).not.toContain("Did you mean");
  });

  it("guesses from case, separators, prefixes and typos, and not from unrelated words", () => {
    expect(closestExecutorName("ClaudeCode")).toBe("claude-code");
    expect(closestExecutorName("claude")).toBe("claude-code");
    expect(closestExecutorName("message")).toBe("messages");
    expect(closestExecutorName("mesages")).toBe("messages");
    expect(closestExecutorName("openai")).toBe(undefined);
  });

  it("is in the shipped JSON Schema with its two values", () => {
    const schema = JSON.parse(
      readFileSync(new URL("../agent.schema.json", import.meta.url), "utf8"),
    ) as unknown;
    expect(JSON.stringify(schema)).toContain('"enum":["messages","claude-code"]');
  });
});
