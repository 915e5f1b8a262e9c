/** Fixtures of the git attack tests (not exported from the package). */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { findGitLayout, type GitLayout, hostGitSync } from "@climpt/host-git";

const IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t.invalid",
};

/** Plain git as the user runs it: no fixed configuration, the repository's files followed. */
export function userGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...IDENTITY },
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** The same, for what it runs: a failure is fine, what it ran is what the tests look at. */
export function userGitRuns(cwd: string, ...args: string[]): void {
  try {
    userGit(cwd, ...args);
  } catch {
    // It ran what it ran.
  }
}

/**
 * A repository at `<dir>/repo` with its own identity (sandboxed git reads it), two commits on
 * `main`, a branch `feature` checked out at main's tip, a tag `v1` and an annotated tag `v1a`, all
 * refs packed, and one dangling blob (a dropped stash, say) that `git gc --prune=now` would delete.
 */
export function attackRepo(dir: string): { repo: string; dangling: string } {
  const repo = path.join(dir, "repo");
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  userGit(repo, "config", "user.name", "climpt-test");
  userGit(repo, "config", "user.email", "test@climpt.invalid");
  writeFileSync(path.join(repo, "README.md"), "hello\n");
  userGit(repo, "add", ".");
  userGit(repo, "commit", "-qm", "first");
  writeFileSync(path.join(repo, "a.txt"), "a\n");
  userGit(repo, "add", ".");
  userGit(repo, "commit", "-qm", "second");
  userGit(repo, "tag", "v1");
  userGit(repo, "tag", "-a", "v1a", "-m", "annotated");
  userGit(repo, "checkout", "-q", "-b", "feature");
  userGit(repo, "pack-refs", "--all");
  writeFileSync(path.join(dir, "dropped.txt"), "a dropped stash\n");
  const dangling = userGit(repo, "hash-object", "-w", path.join(dir, "dropped.txt"));
  return { repo, dangling };
}

/** What the attack tests compare: read through host git, which follows no file the model wrote. */
export interface RepoState {
  readonly refs: Map<string, string>;
  readonly head: string;
  readonly objects: Set<string>;
  readonly files: Map<string, string | null>;
}

const WATCHED = [
  "commondir",
  "config",
  "config.worktree",
  "packed-refs",
  "shallow",
  "objects/info/alternates",
  "info/exclude",
  "info/attributes",
];

export function repoState(layout: GitLayout): RepoState {
  const refs = new Map<string, string>();
  for (const line of hostGitSync(layout, ["for-each-ref", "--format=%(refname) %(objectname)"])
    .trim()
    .split("\n")) {
    const [name, value] = line.split(" ");
    if (name !== undefined && value !== undefined) refs.set(name, value);
  }
  const files = new Map<string, string | null>();
  const read = (file: string): string | null =>
    !existsSync(file)
      ? null
      : statSync(file).isDirectory()
        ? "(a directory)"
        : readFileSync(file, "utf8");
  for (const name of WATCHED) {
    files.set(`common/${name}`, read(path.join(layout.commonDir, name)));
    files.set(`gitdir/${name}`, read(path.join(layout.gitDir, name)));
  }
  files.set("workTree/.git", read(path.join(layout.workTree, ".git")));
  return {
    refs,
    head: readFileSync(path.join(layout.gitDir, "HEAD"), "utf8"),
    objects: new Set(
      hostGitSync(layout, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"])
        .trim()
        .split("\n"),
    ),
    files,
  };
}

/** The layout of a working tree, as the host computes it before a run. */
export function layoutOf(workTree: string): GitLayout {
  const layout = findGitLayout(workTree);
  if (layout === null) throw new Error(`${workTree} is not a git working tree`);
  return layout;
}

/** Whether `git fsck` finds the repository whole. */
export function fsckPasses(layout: GitLayout): boolean {
  try {
    hostGitSync(layout, ["fsck", "--no-progress"]);
    return true;
  } catch {
    return false;
  }
}
