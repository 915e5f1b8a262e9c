import { type Dirent, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { findGitLayout, type GitLayout } from "@climpt/host-git";

/** Loose refs listed one by one at most; beyond, only the rest of the list is protected. */
const MAX_PROTECTED_REFS = 200;

function branchOf(layout: GitLayout): string | null {
  try {
    const head = readFileSync(path.join(layout.gitDir, "HEAD"), "utf8").trim();
    return head.startsWith("ref: ") ? head.slice("ref: ".length) : null;
  } catch {
    return null;
  }
}

function looseRefs(dir: string, prefix: string, found: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (found.length >= MAX_PROTECTED_REFS) return;
    const name = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) looseRefs(dir, name, found);
    else if (entry.isFile()) found.push(name);
  }
}

/**
 * The repository paths Claude Code's sandbox keeps read-only (its `filesystem.denyWrite`) for a
 * session in `cwd`: what climpt's own sandbox makes read-only, as far as Claude Code's settings
 * can say it. Claude Code has no staging git directory, so committing needs the git directory,
 * the objects and the run's branch writable; what it may not change, and what exists, is listed:
 * the configuration (`config`, `config.worktree`, `commondir`, `gitdir`), hooks, `info/`, HEAD,
 * `packed-refs`, the object store's packs and alternates, every tag and every loose branch but the
 * checked-out one, and the working tree's `.git`. Paths that do not exist are not listed (the
 * sandbox would create placeholders for them in the repository); the host side covers those:
 * host git is not run where a `commondir` appeared, and the runner's git guard ends the run
 * (RUN-GIT-001). Empty outside a repository.
 */
export function gitDenyWrite(cwd: string): string[] {
  let layout: GitLayout | null;
  try {
    layout = findGitLayout(cwd);
  } catch {
    // A .git the host does not recognise: keep it as it is, whatever it is.
    const dotGit = path.join(cwd, ".git");
    return existsSync(dotGit) ? [dotGit] : [];
  }
  if (layout === null) return [];
  const { gitDir, commonDir } = layout;
  const candidates = [
    path.join(layout.workTree, ".git"),
    path.join(commonDir, "config"),
    path.join(gitDir, "config.worktree"),
    path.join(gitDir, "commondir"),
    path.join(gitDir, "gitdir"),
    path.join(commonDir, "hooks"),
    path.join(commonDir, "info"),
    path.join(gitDir, "HEAD"),
    path.join(commonDir, "packed-refs"),
    path.join(commonDir, "shallow"),
    path.join(commonDir, "objects", "pack"),
    path.join(commonDir, "objects", "info"),
    path.join(commonDir, "refs", "tags"),
  ];
  const branch = branchOf(layout);
  const refs: string[] = [];
  looseRefs(commonDir, "refs/heads", refs);
  for (const ref of refs) {
    if (ref !== branch) candidates.push(path.join(commonDir, ref));
  }
  // In a plain repository .git is the git directory itself: listed, it would make all of it
  // read-only, commits included.
  const dotGit = path.join(layout.workTree, ".git");
  return [...new Set(candidates)].filter(
    (file) => existsSync(file) && !(file === dotGit && layout.dotGit === "directory"),
  );
}
