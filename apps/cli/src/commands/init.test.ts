import { execSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIo } from "../cli-io.ts";
import { GIT_IDENTITY, git } from "../e2e/project.test-helper.ts";
import { tempDir } from "../e2e/spawn-cli.test-helper.ts";
import { main } from "../main.ts";

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

async function climpt(cwd: string, argv: readonly string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    stdout: { write: (text) => void stdout.push(text) },
    stderr: { write: (text) => void stderr.push(text), isTTY: false },
    env: {},
    cwd,
  };
  const code = await main(argv, io);
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

/** The indented command lines init printed under its advice, run in `cwd` as a user would. */
function followAdvice(cwd: string, stderr: string): void {
  const advice = stderr.slice(stderr.lastIndexOf("\n\n", stderr.indexOf("git ")));
  for (const line of advice.split("\n")) {
    if (line.startsWith("  git ")) {
      execSync(line.trim(), { cwd, env: { ...process.env, ...GIT_IDENTITY }, stdio: "ignore" });
    }
  }
}

describe("climpt init says what the first run needs", () => {
  it("outside a git repository: git init and a commit, after which validate finds nothing in the way", async () => {
    const cwd = tempDir("init-nogit");
    temps.push(cwd);
    const created = await climpt(cwd, ["init", "my-agent"]);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain("is not inside a git repository");
    expect(created.stderr).toContain("  git init\n  git add .agent/my-agent\n");
    const before = await climpt(cwd, ["validate", "my-agent", "--json"]);
    expect(before.stdout).toContain("RUN-CWD-002");

    followAdvice(cwd, created.stderr);
    expect(git(cwd, "status", "--porcelain")).toBe("");
    const after = await climpt(cwd, ["validate", "my-agent", "--json"]);
    expect(after.code).toBe(0);
    expect(after.stdout).not.toContain("RUN-CWD-002");
  });

  it("in a git repository: commit the new, untracked agent folder", async () => {
    const cwd = tempDir("init-git");
    temps.push(cwd);
    git(cwd, "init", "-q", "-b", "main");
    const created = await climpt(cwd, ["init", "my-agent"]);
    expect(created.stderr).toContain("Commit the agent before the first run");
    expect(git(cwd, "status", "--porcelain")).not.toBe("");
    followAdvice(cwd, created.stderr);
    expect(git(cwd, "status", "--porcelain")).toBe("");
  });
});
