import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../tools.test-helper.ts";
import { resolveGitPushTarget } from "./git-push-target.ts";
import { repoWithRemote } from "./sandbox.test-helper.ts";

const env = { PATH: process.env.PATH ?? "" };
const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

describe("resolveGitPushTarget", () => {
  const tempDir = useTempDirs();

  it("plain mode: the branch checked out now, and each remote's default branch protected", async () => {
    const { work } = repoWithRemote(tempDir());
    // As a clone has it: origin/HEAD names the remote's default branch.
    git(work, "update-ref", "refs/remotes/origin/trunk", "HEAD");
    git(work, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk");
    git(work, "checkout", "-qb", "feature/x");
    mkdirSync(path.join(work, "sub"));
    const target = await resolveGitPushTarget({
      cwd: path.join(work, "sub"),
      branches: ["docs/*"],
      env,
    });
    expect(target).toEqual({
      gitDir: path.join(work, ".git"),
      commonDir: path.join(work, ".git"),
      workTree: work,
      runBranch: "feature/x",
      branches: ["docs/*"],
      protectedBranches: ["main", "master", "trunk"],
    });
  });

  it("worktree mode: the worktree's own git directory, its branch, its base protected", async () => {
    const dir = tempDir();
    const { work } = repoWithRemote(dir);
    git(work, "branch", "develop");
    const worktree = path.join(dir, "wt");
    git(work, "worktree", "add", "-q", "-b", "climpt/a/1", worktree, "develop");
    const target = await resolveGitPushTarget({
      cwd: worktree,
      runBranch: "climpt/a/1",
      baseBranch: "develop",
      env,
    });
    expect(target).toMatchObject({
      gitDir: realpathSync(path.join(work, ".git", "worktrees", "wt")),
      commonDir: realpathSync(path.join(work, ".git")),
      workTree: worktree,
      runBranch: "climpt/a/1",
      protectedBranches: ["main", "master", "develop"],
    });
  });

  it("a detached HEAD has no run branch; a folder outside git refuses every push", async () => {
    const { work } = repoWithRemote(tempDir());
    git(work, "checkout", "-q", "--detach");
    const detached = await resolveGitPushTarget({ cwd: work, env });
    expect(detached).not.toHaveProperty("runBranch");
    const outside = await resolveGitPushTarget({ cwd: tempDir(), env });
    expect(outside).toEqual({
      refused:
        "git push is not available in this run: its working directory is not in a git work tree.",
    });
  });
});
