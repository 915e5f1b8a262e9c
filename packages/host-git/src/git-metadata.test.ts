import { chmodSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitLayoutOf } from "./git-layout.ts";
import { gitMetadataChanges, readGitMetadata } from "./git-metadata.ts";
import { git, makeRepo, useTempDirs } from "./host-git.test-helper.ts";

describe("git metadata: recorded, then compared", () => {
  const tempDir = useTempDirs();

  it("a plain repository: a commondir or config.worktree appearing is a change", () => {
    const repo = makeRepo(tempDir());
    const recorded = readGitMetadata(gitLayoutOf(repo));
    expect(recorded).toMatchObject({
      commondir: null,
      configWorktree: null,
      repository: "present",
    });
    expect(gitMetadataChanges(recorded)).toEqual([]);
    writeFileSync(path.join(repo, ".git", "commondir"), "/tmp/evil\n");
    writeFileSync(path.join(repo, ".git", "config.worktree"), "[core]\n\tfsmonitor = x\n");
    expect(gitMetadataChanges(recorded)).toEqual([
      {
        what: "the commondir file",
        file: path.join(repo, ".git", "commondir"),
        before: "absent",
        after: "/tmp/evil",
      },
      expect.objectContaining({ what: "config.worktree (its SHA-256)", before: "absent" }),
    ]);
  });

  it("an empty file, as a sandbox leaves for an absent path it protects, counts as absent", () => {
    const repo = makeRepo(tempDir());
    const recorded = readGitMetadata(gitLayoutOf(repo));
    writeFileSync(path.join(repo, ".git", "config.worktree"), "", { mode: 0o444 });
    writeFileSync(path.join(repo, ".git", "commondir"), "");
    expect(gitMetadataChanges(recorded)).toEqual([]);
    chmodSync(path.join(repo, ".git", "config.worktree"), 0o644);
    writeFileSync(path.join(repo, ".git", "config.worktree"), "[core]\n");
    expect(gitMetadataChanges(recorded).map((change) => change.what)).toEqual([
      "config.worktree (its SHA-256)",
    ]);
  });

  it("a linked worktree: its .git file rewritten, or the repository removed, is a change", () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    const worktree = path.join(dir, "wt");
    git(repo, "worktree", "add", "-q", "-b", "feature", worktree);
    const recorded = readGitMetadata(gitLayoutOf(worktree));
    expect(recorded.dotGit).toBe(`file:gitdir: ${path.join(repo, ".git", "worktrees", "wt")}\n`);
    writeFileSync(path.join(worktree, ".git"), "gitdir: /tmp/evil\n");
    expect(gitMetadataChanges(recorded).map((change) => change.what)).toEqual([
      "the working tree's .git",
    ]);
    rmSync(path.join(repo, ".git", "objects"), { recursive: true });
    expect(gitMetadataChanges(recorded).map((change) => change.what)).toEqual([
      "the working tree's .git",
      "the repository",
    ]);
  });
});
