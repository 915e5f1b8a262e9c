import { existsSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git } from "./project.test-helper.ts";
import { onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A fresh repository, as `climpt init` tells a user to have (git-clean needs one). */
function project(): string {
  const dir = tempDir("init");
  temps.push(dir);
  git(dir, "init", "-q");
  return dir;
}

describe("climpt init (gate dialect)", () => {
  const cwd = project();

  it("scaffolds .agent/<name>/ and says what to do next", async () => {
    const { code, stderr } = await spawnCli(["init", "my-agent"], { cwd });
    expect(code).toBe(0);
    const dir = path.join(cwd, ".agent", "my-agent");
    for (const file of [
      "agent.json",
      "steps_registry.json",
      "schemas/my-agent.schema.json",
      "mock.json",
      "prompts/system.md",
      "prompts/steps/initial/work/f_default.md",
      "prompts/steps/continuation/work/f_default.md",
      "prompts/steps/closure/done/f_default.md",
      "prompts/steps/retry/done/f_failed_git-dirty.md",
    ]) {
      expect(existsSync(path.join(dir, file)), file).toBe(true);
    }
    const registry = JSON.parse(readFileSync(path.join(dir, "steps_registry.json"), "utf8"));
    expect(Object.keys(registry.steps)).toEqual([
      "initial.work",
      "continuation.work",
      "closure.done",
    ]);
    expect(registry.validators["git-clean"].command).toBe("git status --porcelain");
    expect(stderr).toContain("climpt validate my-agent");
  });

  it("writes an agent that validates with no error and no warning once committed, as init says", async () => {
    const uncommitted = await spawnCli(["validate", "my-agent"], { cwd });
    expect(uncommitted.code).toBe(0);
    expect(uncommitted.stderr).toContain("warning RUN-CWD-003");
    git(cwd, "add", ".agent/my-agent");
    git(cwd, "commit", "-qm", "Add the agent");
    const { code, stderr } = await spawnCli(["validate", "my-agent"], { cwd });
    expect(stderr).toBe("my-agent: valid (0 errors, 0 warnings)\n");
    expect(code).toBe(0);
  });

  it("writes an agent whose graph draws the flow and the validation retry", async () => {
    const { code, stdout } = await spawnCli(["graph", "my-agent"], { cwd });
    expect(code).toBe(0);
    for (const step of [
      "initial.work",
      "continuation.work",
      "closure.done",
      "git-clean",
      "validation retry",
    ]) {
      expect(stdout).toContain(step);
    }
  });

  it("never overwrites an existing agent", async () => {
    const before = readFileSync(path.join(cwd, ".agent/my-agent/agent.json"), "utf8");
    const { code, stderr } = await spawnCli(["init", "my-agent"], { cwd });
    expect(code).toBe(2);
    expect(stderr).toContain("AC-CLI-010: .agent/my-agent already exists; init never overwrites.");
    expect(readFileSync(path.join(cwd, ".agent/my-agent/agent.json"), "utf8")).toBe(before);
  });

  it("refuses a name that cannot be a folder and an agent name", async () => {
    const { code, stderr } = await spawnCli(["init", "My Agent"], { cwd });
    expect(code).toBe(2);
    expect(stderr).toContain('"My Agent" is not a usable agent name.');
  });
});

describe("climpt init --dialect check", () => {
  it("writes a check-dialect agent that validates and draws", async () => {
    const cwd = project();
    const init = await spawnCli(["init", "reviewer", "--dialect", "check", "--json"], { cwd });
    expect(init.code).toBe(0);
    expect(onlyJson(init.stdout)).toMatchObject({ ok: true, name: "reviewer", dialect: "check" });
    const validate = await spawnCli(["validate", "reviewer"], { cwd });
    expect(validate.stderr).toBe("reviewer: valid (0 errors, 0 warnings)\n");
    expect(validate.code).toBe(0);
    const graph = await spawnCli(["graph", "reviewer", "--format", "dot"], { cwd });
    expect(graph.code).toBe(0);
    expect(graph.stdout).toContain("onPass");
  });

  it("writes under --agent-dir and points the next steps at that folder", async () => {
    const cwd = project();
    const { code, stderr } = await spawnCli(["init", "elsewhere", "--agent-dir", "agents"], {
      cwd,
    });
    expect(code).toBe(0);
    expect(existsSync(path.join(cwd, "agents/elsewhere/agent.json"))).toBe(true);
    expect(stderr).toContain("climpt validate agents/elsewhere");
    const validate = await spawnCli(["validate", "agents/elsewhere"], { cwd });
    expect(validate.code).toBe(0);
  });
});
