/** Fixtures of this package's tests (not exported from the package). */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { useTempDirs as useTempDirsAfter } from "@climpt/testing";
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
  return useTempDirsAfter(afterEach, "climpt-host-git-");
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
