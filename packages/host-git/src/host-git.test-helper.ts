/** Fixtures of this package's tests (not exported from the package). */
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

const IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t.invalid",
};

/** Plain git, as a user runs it (no fixed configuration): the tests' way to set things up. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...IDENTITY },
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** A fresh temporary directory (real path) per call, removed after the test. */
export function useTempDirs(): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-host-git-")));
    made.push(dir);
    return dir;
  };
}

/** A repository at `<dir>/repo` with one commit on main. */
export function makeRepo(dir: string): string {
  const repo = path.join(dir, "repo");
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  writeFileSync(path.join(repo, "README.md"), "hello\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "first");
  return repo;
}

/** A shell command that creates `canary` when it runs (as an fsmonitor or hook would). */
export function canaryCommand(canary: string): string {
  return `touch '${canary}'; false`;
}
