import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitLayoutOf } from "./git-layout.ts";
import { canaryCommand, git, makeRepo, useTempDirs } from "./host-git.test-helper.ts";
import { HostGitError, hostGit, hostGitSync, runHostGit, runHostGitSync } from "./host-git.ts";
import { hostGitEnvironment } from "./host-git-env.ts";

/** What a user's own `git status` would do there: the fixture really is an attack. */
function plainStatus(cwd: string): void {
  try {
    execFileSync("git", ["status"], { cwd, stdio: "ignore" });
  } catch {
    // A failing status still ran what it ran.
  }
}

describe("host git: what the repository's files cannot make it do", () => {
  const tempDir = useTempDirs();

  it("runs no core.fsmonitor command, from the repository's config or a config.worktree", async () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const layout = gitLayoutOf(repo);
    const canary = path.join(dir, "fsmonitor-ran");
    git(repo, "config", "core.fsmonitor", canaryCommand(canary));
    writeFileSync(path.join(repo, "new.txt"), "x\n");
    expect(await hostGit(layout, ["status", "--porcelain"])).toBe("?? new.txt\n");
    expect(existsSync(canary)).toBe(false);
    plainStatus(repo);
    expect(existsSync(canary)).toBe(true);
  });

  it("refuses to run where a commondir file was written into .git (the issue's attack): GIT-HOST-004", async () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const layout = gitLayoutOf(repo);
    const canary = path.join(dir, "commondir-ran");
    const evil = path.join(repo, ".evil");
    mkdirSync(evil);
    for (const part of ["objects", "refs", "HEAD"]) {
      cpSync(path.join(repo, ".git", part), path.join(evil, part), { recursive: true });
    }
    writeFileSync(
      path.join(evil, "config"),
      `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "${canaryCommand(canary)}"\n`,
    );
    writeFileSync(path.join(repo, ".git", "commondir"), evil);
    // git would take its refs from the copy even with GIT_COMMON_DIR set (its files ref backend
    // reads the file): host git does not run at all.
    const refused = await hostGit(layout, ["status", "--porcelain"]).catch((error) => error);
    expect(refused).toMatchObject({ code: "GIT-HOST-004" });
    expect(refused.message).toContain(`${path.join(repo, ".git", "commondir")} appeared`);
    expect(runHostGitSync(layout, ["log"]).refused).toContain("appeared");
    expect(existsSync(canary)).toBe(false);
    plainStatus(repo);
    expect(existsSync(canary)).toBe(true);
  });

  it("refuses a linked worktree whose commondir no longer names the repository", async () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const worktree = path.join(dir, "wt");
    git(repo, "worktree", "add", "-q", "-b", "feature", worktree);
    const layout = gitLayoutOf(worktree);
    expect(await hostGit(layout, ["rev-parse", "--abbrev-ref", "HEAD"])).toBe("feature\n");
    const other = makeRepo(path.join(dir, "other"));
    writeFileSync(path.join(layout.gitDir, "commondir"), path.join(other, ".git"));
    expect((await runHostGit(layout, ["rev-parse", "HEAD"])).refused).toContain(
      `names ${path.join(other, ".git")}, not the repository's`,
    );
  });

  it("runs no hook, wherever core.hooksPath points", async () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const canary = path.join(dir, "hook-ran");
    mkdirSync(path.join(repo, "hooks"));
    for (const hook of ["pre-commit", "commit-msg", "post-commit"]) {
      writeFileSync(path.join(repo, "hooks", hook), `#!/bin/sh\n${canaryCommand(canary)}\n`);
      chmodSync(path.join(repo, "hooks", hook), 0o755);
    }
    git(repo, "config", "core.hooksPath", "hooks");
    await hostGit(gitLayoutOf(repo), ["commit", "-q", "--allow-empty", "-m", "host"], {
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
      },
    });
    expect(existsSync(canary)).toBe(false);
  });

  it("does not step into a submodule, whose own git would read the submodule's config", async () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const canary = path.join(dir, "submodule-ran");
    const sub = path.join(repo, "sub");
    git(repo, "init", "-q", "-b", "main", "sub");
    git(sub, "commit", "-q", "--allow-empty", "-m", "sub");
    git(
      repo,
      "update-index",
      "--add",
      "--cacheinfo",
      `160000,${git(sub, "rev-parse", "HEAD")},sub`,
    );
    git(sub, "config", "core.fsmonitor", canaryCommand(canary));
    writeFileSync(path.join(sub, "dirty.txt"), "x\n");
    await hostGit(gitLayoutOf(repo), ["status", "--porcelain"]);
    await hostGit(gitLayoutOf(repo), ["diff", "HEAD"]);
    expect(existsSync(canary)).toBe(false);
    plainStatus(repo);
    expect(existsSync(canary)).toBe(true);
  });

  it("ignores the caller's GIT_DIR, GIT_INDEX_FILE and GIT_CONFIG_* variables", async () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const other = makeRepo(path.join(dir, "other"));
    const canary = path.join(dir, "env-ran");
    const env = {
      ...process.env,
      GIT_DIR: path.join(other, ".git"),
      GIT_INDEX_FILE: path.join(dir, "index"),
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.fsmonitor",
      GIT_CONFIG_VALUE_0: canaryCommand(canary),
      GIT_EXTERNAL_DIFF: canaryCommand(canary),
    };
    writeFileSync(path.join(repo, "README.md"), "changed\n");
    expect(await hostGit(gitLayoutOf(repo), ["status", "--porcelain"], { env })).toBe(
      " M README.md\n",
    );
    await hostGit(gitLayoutOf(repo), ["diff"], { env });
    expect(existsSync(canary)).toBe(false);
    const built = hostGitEnvironment(gitLayoutOf(repo), env);
    expect(built.GIT_DIR).toBe(path.join(repo, ".git"));
    expect(built.GIT_INDEX_FILE).toBeUndefined();
  });
});

describe("host git: results and bounds", () => {
  const tempDir = useTempDirs();

  it("a failure is GIT-HOST-002 with git's message; the sync form too", async () => {
    const repo = makeRepo(tempDir());
    const layout = gitLayoutOf(repo);
    const error = await hostGit(layout, ["rev-parse", "--verify", "nope"]).catch((e) => e);
    expect(HostGitError.isInstance(error)).toBe(true);
    expect(error.code).toBe("GIT-HOST-002");
    expect(error.message).toContain("git rev-parse --verify nope failed (exit 128)");
    expect(() => hostGitSync(layout, ["rev-parse", "--verify", "nope"])).toThrow(
      /GIT-HOST-002|failed/,
    );
    expect(hostGitSync(layout, ["rev-parse", "--abbrev-ref", "HEAD"])).toBe("main\n");
  });

  it("a git that never ends is killed at its timeout", async () => {
    const repo = makeRepo(tempDir());
    // hash-object reads stdin until it closes; this input never closes.
    async function* forever(): AsyncGenerator<Uint8Array> {
      yield Buffer.from("x");
      await new Promise(() => undefined);
    }
    const result = await runHostGit(gitLayoutOf(repo), ["hash-object", "--stdin"], {
      input: forever(),
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ exitCode: null, timedOut: true });
  });

  it("reads stdin from a stream", async () => {
    const repo = makeRepo(tempDir());
    async function* parts(): AsyncGenerator<Uint8Array> {
      yield Buffer.from("hel");
      yield Buffer.from("lo\n");
    }
    const id = await hostGit(gitLayoutOf(repo), ["hash-object", "--stdin"], { input: parts() });
    expect(id.trim()).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
  });
});
