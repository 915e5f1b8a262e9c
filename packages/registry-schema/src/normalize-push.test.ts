import type { Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { normalizeAgent } from "./normalize-agent.ts";

function nested(push: unknown): unknown {
  return { name: "a", runner: { verdict: { type: "count:iteration" }, boundaries: { push } } };
}

function issues(raw: unknown): readonly Problem[] {
  const result = normalizeAgent(raw, { file: "agent.json" });
  return result.ok ? [] : result.issues;
}

describe("runner.boundaries.push", () => {
  it("is absent by default, which means the run's branch only", () => {
    const result = normalizeAgent({ name: "a", runner: { verdict: { type: "count:iteration" } } });
    expect(result.ok && result.value.push).toBe(undefined);
  });

  it('reads "off" and the declared branches (names and <prefix>/*), each once', () => {
    expect(normalizeAgent(nested("off"))).toMatchObject({
      ok: true,
      value: { push: { enabled: false, branches: [] } },
    });
    const result = normalizeAgent(
      nested({ branches: ["gh-pages", "docs/*", "release/next", "gh-pages"] }),
    );
    expect(result.ok && result.value.push).toEqual({
      enabled: true,
      branches: ["gh-pages", "docs/*", "release/next"],
    });
  });

  it("reads behavior.push in the flat shape", () => {
    const result = normalizeAgent({ name: "a", behavior: { push: { branches: ["x"] } } });
    expect(result.ok && result.value.push).toEqual({ enabled: true, branches: ["x"] });
  });

  it("refuses entries that are not branch names, with the file and JSON path (AC-PUSH-001)", () => {
    const found = issues(
      nested({
        branches: ["ok", "has space", "a..b", "*", "docs/*/x", "-x", "refs/heads/x:y", "HEAD"],
      }),
    );
    expect(found.map((p) => [p.code, p.path])).toEqual([
      ["AC-PUSH-001", "$.runner.boundaries.push.branches[1]"],
      ["AC-PUSH-001", "$.runner.boundaries.push.branches[2]"],
      ["AC-PUSH-001", "$.runner.boundaries.push.branches[3]"],
      ["AC-PUSH-001", "$.runner.boundaries.push.branches[4]"],
      ["AC-PUSH-001", "$.runner.boundaries.push.branches[5]"],
      ["AC-PUSH-001", "$.runner.boundaries.push.branches[6]"],
      ["AC-PUSH-001", "$.runner.boundaries.push.branches[7]"],
    ]);
    expect(found[0]).toMatchObject({ file: "agent.json", severity: "error" });
    expect(found[0]?.message).toBe(
      'Declared branch "has space" is neither a branch name nor "<prefix>/*".',
    );
    expect(found[0]?.hint).toContain("docs/*");
  });

  it("refuses another shape with the shape code", () => {
    const found = issues(nested("on"));
    expect(found.map((p) => [p.code, p.path])).toEqual([
      ["AC-VALID-001", "$.runner.boundaries.push"],
    ]);
    expect(issues(nested({ branches: "gh-pages" })).map((p) => p.code)).toEqual(["AC-VALID-001"]);
  });
});
