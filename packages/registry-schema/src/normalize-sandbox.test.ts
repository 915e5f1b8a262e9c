import type { Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { normalizeAgent } from "./normalize-agent.ts";

function nested(sandbox: unknown): unknown {
  return { name: "a", runner: { verdict: { type: "count:iteration" }, boundaries: { sandbox } } };
}

function issues(raw: unknown): readonly Problem[] {
  const result = normalizeAgent(raw, { file: "agent.json" });
  return result.ok ? [] : result.issues;
}

describe("runner.boundaries.sandbox", () => {
  it("is absent by default, which means required with no network", () => {
    const result = normalizeAgent({ name: "a", runner: { verdict: { type: "count:iteration" } } });
    expect(result.ok && result.value.sandbox).toBe(undefined);
  });

  it('reads the mode alone ("off", "required")', () => {
    for (const mode of ["off", "required"] as const) {
      const result = normalizeAgent(nested(mode));
      expect(result.ok && result.value.sandbox).toEqual({ mode, networkAllow: [], readable: [] });
    }
  });

  it("reads the object form with hosts and readable paths", () => {
    const result = normalizeAgent(
      nested({
        network: { allow: ["registry.npmjs.org", "*.githubusercontent.com:443", "[::1]:8080"] },
        readable: ["~/.sdkman", "/opt/toolchains"],
      }),
    );
    expect(result.ok && result.value.sandbox).toEqual({
      mode: "required",
      networkAllow: ["registry.npmjs.org", "*.githubusercontent.com:443", "[::1]:8080"],
      readable: ["~/.sdkman", "/opt/toolchains"],
    });
  });

  it("reads behavior.sandbox in the flat shape", () => {
    const result = normalizeAgent({ name: "a", behavior: { sandbox: "off" } });
    expect(result.ok && result.value.sandbox?.mode).toBe("off");
  });

  it("refuses an unknown mode with the file and JSON path", () => {
    const found = issues(nested("none"));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      code: "AC-VALID-001",
      file: "agent.json",
      path: "$.runner.boundaries.sandbox",
    });
  });

  it("refuses hosts written as URLs, with paths or bad ports, and relative readable paths", () => {
    const found = issues(
      nested({
        network: { allow: ["https://registry.npmjs.org", "example.com/x", "a.b:99999", "ok.com"] },
        readable: ["sdkman", "~/.cargo/bin"],
      }),
    );
    expect(found.map((p) => [p.code, p.path])).toEqual([
      ["AC-SANDBOX-001", "$.runner.boundaries.sandbox.network.allow[0]"],
      ["AC-SANDBOX-001", "$.runner.boundaries.sandbox.network.allow[1]"],
      ["AC-SANDBOX-001", "$.runner.boundaries.sandbox.network.allow[2]"],
      ["AC-SANDBOX-002", "$.runner.boundaries.sandbox.readable[0]"],
    ]);
    expect(found[0]?.message).toContain("has a scheme");
    expect(found[0]?.hint).toContain("registry.npmjs.org");
  });
});
