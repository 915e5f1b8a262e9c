import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findAgentDir, listAgents } from "./find-agent-dir.ts";

function project(): string {
  const root = mkdtempSync(path.join(tmpdir(), "climpt-find-"));
  mkdirSync(path.join(root, ".agent", "fixer"), { recursive: true });
  writeFileSync(path.join(root, ".agent", "fixer", "agent.json"), "{}");
  mkdirSync(path.join(root, "elsewhere", "tool"), { recursive: true });
  writeFileSync(path.join(root, "elsewhere", "tool", "agent.json"), "{}");
  return root;
}

describe("findAgentDir", () => {
  it("finds a name under .agent/, a name under --agent-dir, and a path", () => {
    const root = project();
    expect(findAgentDir("fixer", { cwd: root })).toEqual({
      ok: true,
      value: path.join(root, ".agent", "fixer"),
    });
    expect(findAgentDir("tool", { cwd: root, agentDir: "elsewhere" })).toEqual({
      ok: true,
      value: path.join(root, "elsewhere", "tool"),
    });
    expect(findAgentDir("./elsewhere/tool", { cwd: root })).toEqual({
      ok: true,
      value: path.join(root, "elsewhere", "tool"),
    });
  });

  it("names every folder it looked in when there is no agent", () => {
    const root = project();
    const result = findAgentDir("missing", { cwd: root });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]?.code).toBe("SR-LOAD-001");
    expect(result.issues[0]?.message).toContain(path.join(root, ".agent", "missing"));
    expect(result.issues[0]?.hint).toContain("climpt init");
  });
});

describe("listAgents", () => {
  it("lists each agent folder with its count of load errors", async () => {
    const root = project();
    const listed = await listAgents({ cwd: root });
    expect(listed.map((agent) => agent.name)).toEqual(["fixer"]);
    // "{}" is not a valid agent.json: it is listed, with its errors counted.
    expect(listed[0]?.problems).toBeGreaterThan(0);
  });
});
