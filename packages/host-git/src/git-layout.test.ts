import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { findGitLayout, gitLayoutOf } from "./git-layout.ts";
import { git, makeRepo, useTempDirs } from "./host-git.test-helper.ts";

const codeOf = (action: () => unknown): string | undefined => {
  try {
    action();
    return undefined;
  } catch (error) {
    return ClimptError.isInstance(error) ? error.code : String(error);
  }
};

describe("findGitLayout", () => {
  const tempDir = useTempDirs();

  it("a repository's working tree, from any folder inside it", () => {
    const repo = makeRepo(tempDir());
    mkdirSync(path.join(repo, "src", "deep"), { recursive: true });
    const layout = {
      workTree: repo,
      gitDir: path.join(repo, ".git"),
      commonDir: path.join(repo, ".git"),
      dotGit: "directory",
    };
    expect(findGitLayout(repo)).toEqual(layout);
    expect(findGitLayout(path.join(repo, "src", "deep"))).toEqual(layout);
  });

  it("a linked worktree: its git directory under <common>/worktrees, the repository's common directory", () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const worktree = path.join(dir, "wt");
    git(repo, "worktree", "add", "-q", "-b", "feature", worktree);
    expect(findGitLayout(worktree, { expectCommonDir: path.join(repo, ".git") })).toEqual({
      workTree: worktree,
      gitDir: path.join(repo, ".git", "worktrees", "wt"),
      commonDir: path.join(repo, ".git"),
      dotGit: "file",
    });
  });

  it("ignores a commondir file in a .git directory (only a linked worktree's git directory has one)", () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const elsewhere = makeRepo(path.join(dir, "other"));
    writeFileSync(path.join(repo, ".git", "commondir"), path.join(elsewhere, ".git"));
    expect(findGitLayout(repo)?.commonDir).toBe(path.join(repo, ".git"));
  });

  it("refuses a .git file leading outside <common>/worktrees, or to another repository (GIT-HOST-004)", () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const worktree = path.join(dir, "wt");
    git(repo, "worktree", "add", "-q", "-b", "feature", worktree);
    // A copy of the worktree's git directory that names the repository as its common directory.
    const fake = path.join(worktree, "fake-gitdir");
    mkdirSync(fake);
    writeFileSync(path.join(fake, "HEAD"), "ref: refs/heads/feature\n");
    writeFileSync(path.join(fake, "commondir"), path.join(repo, ".git"));
    writeFileSync(path.join(worktree, ".git"), `gitdir: ${fake}\n`);
    expect(codeOf(() => findGitLayout(worktree))).toBe("GIT-HOST-004");

    const other = makeRepo(path.join(dir, "other"));
    expect(codeOf(() => findGitLayout(other, { expectCommonDir: path.join(repo, ".git") }))).toBe(
      "GIT-HOST-004",
    );
  });

  it("a worktree of a known repository: its commondir file is not read", () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const worktree = path.join(dir, "wt");
    git(repo, "worktree", "add", "-q", "-b", "feature", worktree);
    const other = makeRepo(path.join(dir, "other"));
    writeFileSync(
      path.join(repo, ".git", "worktrees", "wt", "commondir"),
      path.join(other, ".git"),
    );
    expect(codeOf(() => findGitLayout(worktree))).toBe("GIT-HOST-004");
    expect(findGitLayout(worktree, { expectCommonDir: path.join(repo, ".git") })?.commonDir).toBe(
      path.join(repo, ".git"),
    );
  });

  it("outside a repository: null, or GIT-HOST-001 from gitLayoutOf", () => {
    const dir = tempDir();
    expect(findGitLayout(dir)).toBeNull();
    expect(codeOf(() => gitLayoutOf(dir))).toBe("GIT-HOST-001");
    writeFileSync(path.join(dir, ".git"), "gitdir: /nowhere\n");
    expect(codeOf(() => gitLayoutOf(dir))).toBe("GIT-HOST-001");
  });
});
