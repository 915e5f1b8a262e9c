import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitDenyWrite } from "./git-protection.ts";
import { sandboxSettings } from "./session-env.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args], {
    cwd,
    stdio: "ignore",
  });
}

function repository(): { dir: string; repo: string } {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-cc-git-")));
  made.push(dir);
  const repo = path.join(dir, "repo");
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  writeFileSync(path.join(repo, "a.txt"), "a\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "a");
  git(repo, "tag", "v1");
  git(repo, "branch", "other");
  git(repo, "checkout", "-q", "-b", "feature");
  return { dir, repo };
}

describe("gitDenyWrite: the git paths Claude Code's sandbox keeps read-only", () => {
  it("a plain repository: configuration, hooks, HEAD, tags and every branch but the checked-out one", () => {
    const { repo } = repository();
    const git = path.join(repo, ".git");
    const listed = gitDenyWrite(repo);
    expect(listed).toEqual(
      expect.arrayContaining([
        path.join(git, "config"),
        path.join(git, "hooks"),
        path.join(git, "info"),
        path.join(git, "HEAD"),
        path.join(git, "objects", "pack"),
        path.join(git, "objects", "info"),
        path.join(git, "refs", "tags"),
        path.join(git, "refs", "heads", "main"),
        path.join(git, "refs", "heads", "other"),
      ]),
    );
    // What committing writes stays writable: the git directory, objects, the run's branch.
    expect(listed).not.toContain(git);
    expect(listed).not.toContain(path.join(git, "refs", "heads", "feature"));
    // Absent paths are not listed (the sandbox would make placeholders of them).
    expect(listed).not.toContain(path.join(git, "commondir"));
    expect(listed).not.toContain(path.join(git, "packed-refs"));
  });

  it("a linked worktree: its .git file, its commondir and gitdir files, the repository's branches", () => {
    const { dir, repo } = repository();
    const worktree = path.join(dir, "wt");
    git(repo, "worktree", "add", "-q", "-b", "climpt/run", worktree, "main");
    const gitDir = path.join(repo, ".git", "worktrees", "wt");
    const listed = gitDenyWrite(worktree);
    expect(listed).toEqual(
      expect.arrayContaining([
        path.join(worktree, ".git"),
        path.join(gitDir, "commondir"),
        path.join(gitDir, "gitdir"),
        path.join(gitDir, "HEAD"),
        path.join(repo, ".git", "config"),
        path.join(repo, ".git", "refs", "heads", "main"),
        path.join(repo, ".git", "refs", "heads", "feature"),
      ]),
    );
    expect(listed).not.toContain(path.join(repo, ".git", "refs", "heads", "climpt", "run"));
  });

  it("outside a repository: nothing; and the settings carry the list as filesystem.denyWrite", () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-cc-nogit-")));
    made.push(dir);
    expect(gitDenyWrite(dir)).toEqual([]);
    const { repo } = repository();
    expect(sandboxSettings({ denyWrite: gitDenyWrite(repo) }).filesystem?.denyWrite).toContain(
      path.join(repo, ".git", "config"),
    );
    expect(sandboxSettings({}).filesystem).toBeUndefined();
  });
});
