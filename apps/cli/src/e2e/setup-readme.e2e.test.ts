/**
 * The root README's "Set it up on your repository" commands, run as written through `sh -c` in
 * a sample Node project whose `origin` is a local bare repository. The first line (`npm i -D
 * climpt`) is checked as text and stands for the workspace's CLI linked as node_modules/climpt
 * (the registry install is the release test's); `gh` is the fake gh, with `gh secret set` recorded
 * by a shim in front of it (the fake does not model secrets): the name and the length of the
 * value read from stdin, never the value.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { installFakeGh } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { REPO_ROOT, tempDir } from "./spawn-cli.test-helper.ts";
import { sampleProject } from "./starter.test-helper.ts";

vi.setConfig({ testTimeout: 300_000 });

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

function readmeCommands(heading: string): string[] {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const block = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`no sh block under ${heading}`);
  return block.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

describe("the root README's 'Set it up on your repository'", () => {
  const commands = readmeCommands("## Set it up on your repository");

  it("is at most five runnable lines, the first the install", () => {
    expect(commands.length).toBeLessThanOrEqual(5);
    expect(commands[0]).toBe("npm i -D climpt");
    expect(commands.filter((line) => /<[a-zA-Z]+>/.test(line.replace(/#.*$/, "")))).toEqual([]);
  });

  it("runs as written: the starter set committed and pushed, the secrets set, the labels synced, an issue labelled", () => {
    const cwd = sampleProject("setup-readme");
    const origin = tempDir("setup-origin");
    const gh = installFakeGh({
      repo: "acme/sample",
      issues: [{ number: 1, title: "Say what sum does" }],
    });
    cleanups.push(
      () => rmSync(cwd, { recursive: true, force: true }),
      () => rmSync(origin, { recursive: true, force: true }),
      () => gh.remove(),
    );
    git(origin, "init", "-q", "--bare", "-b", "main");
    git(cwd, "remote", "add", "origin", origin);
    git(cwd, "push", "-q", "-u", "origin", "main");
    // `npm i -D climpt`, as the linked workspace package.
    mkdirSync(path.join(cwd, "node_modules", ".bin"), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, "apps", "cli"), path.join(cwd, "node_modules", "climpt"));
    symlinkSync("../climpt/bin/climpt.mjs", path.join(cwd, "node_modules", ".bin", "climpt"));
    const shimDir = path.join(gh.dir, "shim");
    mkdirSync(shimDir);
    const secrets = path.join(gh.dir, "secrets.log");
    writeFileSync(
      path.join(shimDir, "gh"),
      `#!/bin/sh\nif [ "$1" = secret ] && [ "$2" = set ]; then IFS= read -r value; printf '%s %s\\n' "$3" "\${#value}" >> '${secrets}'; exit 0; fi\nexec '${gh.ghPath}' "$@"\n`,
    );
    chmodSync(path.join(shimDir, "gh"), 0o755);

    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (!key.startsWith("ANTHROPIC_") && !key.startsWith("GIT_")) env[key] = value;
    }
    Object.assign(env, GIT_IDENTITY, gh.env);
    env.PATH = `${shimDir}${path.delimiter}${gh.env.PATH}`;
    for (const line of commands.slice(1)) {
      const result = spawnSync("sh", ["-c", line], {
        cwd,
        env,
        encoding: "utf8",
        input: "sk-ant-typed-by-the-user\ngithub_pat_typed_by_the_user\n",
      });
      expect(result.status, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
    }
    expect(existsSync(path.join(cwd, ".github", "workflows", "climpt.yml"))).toBe(true);
    expect(git(origin, "ls-tree", "-r", "--name-only", "main")).toContain(".agent/workflow.json");
    expect(readFileSync(secrets, "utf8")).toBe(
      `ANTHROPIC_API_KEY ${"sk-ant-typed-by-the-user".length}\nCLIMPT_GITHUB_TOKEN ${"github_pat_typed_by_the_user".length}\n`,
    );
    const labels = gh.state().repos["acme/sample"]?.labels.map((label) => label.name) ?? [];
    expect(labels).toEqual(
      expect.arrayContaining(["climpt:triage", "climpt:blocked", "climpt:done"]),
    );
    expect(gh.issue(1)?.labels).toEqual(["climpt:triage"]);
  });
});
