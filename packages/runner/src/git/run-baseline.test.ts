import path from "node:path";
import { describe, expect, it } from "vitest";
import { git, makeSampleRepo } from "../runner.test-helper.ts";
import { tempDirForFile } from "../temp-dirs.test-helper.ts";
import { recordRunBaseline } from "./run-baseline.ts";

describe("recordRunBaseline", () => {
  it("in place: the commit the run starts on, named by its branch", async () => {
    const repo = makeSampleRepo();
    const head = git(repo, "rev-parse", "HEAD");
    expect(await recordRunBaseline({ cwd: repo, worktree: null })).toEqual({
      ref: head,
      name: "main at the run's start",
      startBase: head,
    });
    git(repo, "checkout", "-q", "--detach");
    expect(await recordRunBaseline({ cwd: repo, worktree: null })).toMatchObject({
      name: "the run's start",
    });
  });

  it("in a worktree: the base branch, with the merge base at the start", async () => {
    const repo = makeSampleRepo();
    const base = git(repo, "rev-parse", "HEAD");
    const tree = path.join(tempDirForFile("climpt-baseline-wt-"), "wt");
    git(repo, "worktree", "add", "-q", "-b", "climpt/fix-bug/r1", tree, "main");
    git(tree, "commit", "-q", "--allow-empty", "-m", "work on the branch");
    const worktree = { path: tree, branch: "climpt/fix-bug/r1", baseBranch: "main" };
    expect(await recordRunBaseline({ cwd: tree, worktree })).toEqual({
      ref: "refs/heads/main",
      name: "main",
      startBase: base,
    });
    expect(
      await recordRunBaseline({ cwd: tree, worktree: { ...worktree, baseBranch: null } }),
    ).toEqual({
      unavailable: "the run's worktree was made from a detached HEAD, so it has no base branch",
    });
    git(repo, "worktree", "remove", "--force", tree);
  });

  it("says why there is none: no repository, no commit", async () => {
    const plain = tempDirForFile("climpt-baseline-plain-");
    expect(await recordRunBaseline({ cwd: plain, worktree: null })).toEqual({
      unavailable: "the run's working directory is not in a git repository",
    });
    git(plain, "init", "-q", "-b", "main");
    expect(await recordRunBaseline({ cwd: plain, worktree: null })).toEqual({
      unavailable: "the repository had no commit when the run started",
    });
  });
});
