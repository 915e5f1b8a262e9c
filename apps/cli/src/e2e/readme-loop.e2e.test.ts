/**
 * The root README's "Using it" commands, run as written: the shell block is read from README.md
 * and each line runs through `sh -c` in a fresh repository where `pnpm exec climpt` finds the
 * built CLI, as a workspace dependency is linked. Change the README or the CLI so they disagree
 * and this fails.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { REPO_ROOT, tempDir } from "./spawn-cli.test-helper.ts";

// Seven commands, each through pnpm (which alone took 12 s to start at load 33), one a run.
vi.setConfig({ testTimeout: 420_000 });

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The lines of the first `sh` block under a heading of README.md. */
function readmeCommands(readme: string, heading: string): string[] {
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const block = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`no sh block under ${heading}`);
  return block.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

/**
 * A user's repository with climpt installed as a dependency: package.json, node_modules/climpt
 * linked to the workspace's CLI and its bin in node_modules/.bin, node_modules ignored by git,
 * one commit.
 */
function userRepository(): string {
  const cwd = tempDir("readme");
  temps.push(cwd);
  writeFileSync(
    path.join(cwd, "package.json"),
    `${JSON.stringify({ name: "my-project", private: true, devDependencies: { climpt: "*" } }, null, 2)}\n`,
  );
  writeFileSync(path.join(cwd, ".gitignore"), "node_modules/\n");
  mkdirSync(path.join(cwd, "node_modules", ".bin"), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, "apps", "cli"), path.join(cwd, "node_modules", "climpt"));
  symlinkSync("../climpt/bin/climpt.mjs", path.join(cwd, "node_modules", ".bin", "climpt"));
  git(cwd, "init", "-q", "-b", "main");
  git(cwd, "add", ".");
  git(cwd, "commit", "-qm", "A project");
  return cwd;
}

describe("the root README's 'Using it' loop", () => {
  const commands = readmeCommands(
    readFileSync(path.join(REPO_ROOT, "README.md"), "utf8"),
    "## Using it",
  );

  it("is a block of runnable lines: no placeholders to fill in", () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
    expect(commands.filter((line) => /<[a-zA-Z]+>/.test(line.replace(/#.*$/, "")))).toEqual([]);
  });

  it("runs as written in a fresh repository: init, commit, validate, graph, a mock run, runs, view", () => {
    const cwd = userRepository();
    // No key: the loop must work offline. The git identity stands for the user's git config.
    const env: NodeJS.ProcessEnv = { ...GIT_IDENTITY };
    for (const [key, value] of Object.entries(process.env)) {
      if (!key.startsWith("ANTHROPIC_") && !key.startsWith("GIT_")) env[key] = value;
    }
    Object.assign(env, GIT_IDENTITY);
    const outputs: string[] = [];
    for (const line of commands) {
      const result = spawnSync("sh", ["-c", line], { cwd, env, encoding: "utf8" });
      expect(result.status, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
      outputs.push(result.stdout);
    }
    const all = outputs.join("\n");
    // The mock run completed, climpt runs lists it so, and the page holds it.
    expect(all).toMatch(/my-agent\s+completed/);
    const runId = /(\d{8}T\d{6}Z-[0-9a-f]{6})/.exec(all)?.[1];
    expect(runId).toBeDefined();
    expect(existsSync(path.join(cwd, "runs.html"))).toBe(true);
    expect(readFileSync(path.join(cwd, "runs.html"), "utf8")).toContain(runId as string);
  });
});
