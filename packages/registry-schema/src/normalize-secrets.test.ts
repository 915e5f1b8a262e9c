import type { Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { normalizeAgent } from "./normalize-agent.ts";

function nested(secrets: unknown): unknown {
  return { name: "a", runner: { verdict: { type: "count:iteration" }, boundaries: { secrets } } };
}

function issues(raw: unknown): readonly Problem[] {
  const result = normalizeAgent(raw, { file: "agent.json" });
  return result.ok ? [] : result.issues;
}

describe("runner.boundaries.secrets", () => {
  it("is absent by default", () => {
    const result = normalizeAgent({ name: "a", runner: { verdict: { type: "count:iteration" } } });
    expect(result.ok && result.value.secretEnvNames).toBe(undefined);
  });

  it("reads the variable names, once each", () => {
    const result = normalizeAgent(nested(["DATABASE_URL", "pgpass", "_X1", "DATABASE_URL"]));
    expect(result.ok && result.value.secretEnvNames).toEqual(["DATABASE_URL", "pgpass", "_X1"]);
  });

  it("reads behavior.secrets in the flat shape", () => {
    const result = normalizeAgent({ name: "a", behavior: { secrets: ["SERVICE_PASS"] } });
    expect(result.ok && result.value.secretEnvNames).toEqual(["SERVICE_PASS"]);
  });

  it("refuses an entry that is not a variable name, without repeating it", () => {
    const pasted = "sk-live-0123456789abcdef";
    const found = issues(nested(["GOOD_NAME", pasted, "", "1ABC", "A-B"]));
    expect(found.map((p) => [p.code, p.path])).toEqual([
      ["AC-SECRETS-001", "$.runner.boundaries.secrets[1]"],
      ["AC-SECRETS-001", "$.runner.boundaries.secrets[2]"],
      ["AC-SECRETS-001", "$.runner.boundaries.secrets[3]"],
      ["AC-SECRETS-001", "$.runner.boundaries.secrets[4]"],
    ]);
    expect(found[0]).toMatchObject({ file: "agent.json", severity: "error" });
    expect(found[0]?.hint).toContain("never write a secret value");
    expect(JSON.stringify(found)).not.toContain(pasted);
  });

  it("refuses a value that is not an array of names, without repeating it", () => {
    const pasted = "sk-live-0123456789abcdef";
    expect(issues(nested(pasted)).map((p) => [p.code, p.path])).toEqual([
      ["AC-SECRETS-001", "$.runner.boundaries.secrets"],
    ]);
    expect(JSON.stringify(issues(nested(pasted)))).not.toContain(pasted);
    expect(issues(nested([42])).map((p) => [p.code, p.path])).toEqual([
      ["AC-SECRETS-001", "$.runner.boundaries.secrets[0]"],
    ]);
    expect(
      issues({ name: "a", behavior: { secrets: { DB: pasted } } }).map((p) => [p.code, p.path]),
    ).toEqual([["AC-SECRETS-001", "$.behavior.secrets"]]);
  });
});
