import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { useTempDirs } from "@climpt/testing";
import { afterAll, describe, expect, it } from "vitest";
import { findAgentDir, listAgents } from "./find-agent-dir.ts";

const tempDir = useTempDirs(afterAll, "climpt-find-");

function project(): string {
  const root = tempDir();
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

/** A repository (`.git` at its root) with `.agent/hello`, inside a folder with its own `.agent/outer`. */
function nestedRepository(): { outside: string; root: string; deep: string } {
  const outside = tempDir("climpt-find-up-");
  const root = path.join(outside, "repo");
  const deep = path.join(root, "packages", "app", "src");
  mkdirSync(deep, { recursive: true });
  mkdirSync(path.join(root, ".git"));
  for (const agent of [path.join(root, ".agent", "hello"), path.join(outside, ".agent", "outer")]) {
    mkdirSync(agent, { recursive: true });
    writeFileSync(path.join(agent, "agent.json"), "{}");
  }
  return { outside, root, deep };
}

describe("findAgentDir from a subfolder of the repository", () => {
  it("finds the repository's .agent/ as git finds .git, walking upward", () => {
    const { root, deep } = nestedRepository();
    expect(findAgentDir("hello", { cwd: deep })).toEqual({
      ok: true,
      value: path.join(root, ".agent", "hello"),
    });
    expect(findAgentDir("hello", { cwd: path.join(root, "packages") })).toEqual({
      ok: true,
      value: path.join(root, ".agent", "hello"),
    });
  });

  it("prefers the nearest .agent/ that has the name", () => {
    const { root, deep } = nestedRepository();
    const nearer = path.join(root, "packages", ".agent", "hello");
    mkdirSync(nearer, { recursive: true });
    writeFileSync(path.join(nearer, "agent.json"), "{}");
    expect(findAgentDir("hello", { cwd: deep })).toEqual({ ok: true, value: nearer });
  });

  it("stops at the repository root: an agent above it is not the repository's", () => {
    const { outside, root, deep } = nestedRepository();
    const result = findAgentDir("outer", { cwd: deep });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]?.message).toContain(path.join(root, ".agent", "outer"));
    expect(result.issues[0]?.message).not.toContain(path.join(outside, ".agent"));
  });

  it("for a name not there, names the agents of the .agent/ above and never a nested climpt init", () => {
    const { root, deep } = nestedRepository();
    const result = findAgentDir("helo", { cwd: deep });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const hint = result.issues[0]?.hint ?? "";
    expect(hint).toContain(`Did you mean "hello"? Agents in ${path.join(root, ".agent")}: hello.`);
    expect(hint).toContain(`cd ${root} && climpt init <name>`);
    expect(hint).not.toContain("Create one with `climpt init <name>`");
  });

  it("with --agent-dir, looks only there", () => {
    const { root, deep } = nestedRepository();
    expect(findAgentDir("hello", { cwd: deep, agentDir: "agents" }).ok).toBe(false);
    expect(findAgentDir("hello", { cwd: deep, agentDir: path.join(root, ".agent") }).ok).toBe(true);
  });
});

describe("listAgents", () => {
  it("lists the agents of the repository's .agent/ from a subfolder", async () => {
    const { deep } = nestedRepository();
    expect((await listAgents({ cwd: deep })).map((agent) => agent.name)).toEqual(["hello"]);
  });

  it("lists each agent folder with its count of load errors", async () => {
    const root = project();
    const listed = await listAgents({ cwd: root });
    expect(listed.map((agent) => agent.name)).toEqual(["fixer"]);
    // "{}" is not a valid agent.json: it is listed, with its errors counted.
    expect(listed[0]?.problems).toBeGreaterThan(0);
  });
});
