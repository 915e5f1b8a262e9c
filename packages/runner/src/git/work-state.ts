/**
 * What the completion ledger and the per-step changes read of the run's working tree: the
 * commit, its tree and whether the tree is clean, and snapshots of the working tree as git tree
 * objects. Every git runs on the host through @climpt/host-git (pinned git directories, no
 * hooks, no fsmonitor), never `git` from PATH in the model's folder with its configuration.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findGitLayout, type GitLayout, type HostGitResult, runHostGit } from "@climpt/host-git";
import type { LedgerCommit, StepFileChange } from "@climpt/protocol";

/** A git read for the ledger must not hold a run up: a lock held elsewhere ends it. */
const WORK_GIT_TIMEOUT_MS = 60_000;

/** A step's change list keeps this many files; the event says when there were more. */
export const STEP_CHANGES_MAX_FILES = 200;

/** The run's working tree as host git sees it, or null outside a repository. */
export interface WorkGit {
  readonly layout: GitLayout;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * The working tree holding `cwd`; null outside a repository or where its layout cannot be read.
 * In worktree mode `originCwd` is the repository the run started from: the worktree must be one
 * of its own, whatever a `commondir` file says (as the run's git checks find it).
 */
export function workGitOf(
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = {},
  originCwd?: string,
): WorkGit | null {
  try {
    const origin = originCwd === undefined || originCwd === cwd ? null : findGitLayout(originCwd);
    const layout = findGitLayout(cwd, origin === null ? {} : { expectCommonDir: origin.commonDir });
    return layout === null ? null : { layout, env: { ...process.env, ...env } };
  } catch {
    // A broken .git file: the run's own git checks report it; the ledger records no commit.
    return null;
  }
}

function why(result: HostGitResult): string {
  if (result.refused !== undefined) return result.refused;
  if (result.spawnError !== undefined) return `git could not start (${result.spawnError})`;
  if (result.timedOut) return `git ${result.args.join(" ")} timed out`;
  return `git ${result.args.join(" ")} failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`;
}

function run(work: WorkGit, args: readonly string[], indexFile?: string): Promise<HostGitResult> {
  return runHostGit(work.layout, args, {
    env: work.env,
    timeoutMs: WORK_GIT_TIMEOUT_MS,
    ...(indexFile === undefined ? {} : { indexFile }),
  });
}

/**
 * The commit the working tree is at, its tree, its branch, and whether `git status` is clean.
 * `error` says why there is no commit (none yet, git failed).
 */
export async function readWorkCommit(
  work: WorkGit,
): Promise<{ readonly commit: LedgerCommit | null; readonly error?: string }> {
  const heads = await run(work, ["rev-parse", "HEAD", "HEAD^{tree}"]);
  if (heads.exitCode !== 0) {
    return { commit: null, error: heads.refused ?? "the repository has no commit yet" };
  }
  const [sha = "", tree = ""] = heads.stdout.trim().split("\n");
  const status = await run(work, ["status", "--porcelain", "--untracked-files=normal"]);
  if (status.exitCode !== 0) return { commit: null, error: why(status) };
  const branch = await run(work, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  return {
    commit: {
      sha,
      tree,
      clean: status.stdout.trim() === "",
      branch: branch.exitCode === 0 ? branch.stdout.trim() : null,
    },
  };
}

/**
 * The working tree as a git tree object: every tracked and untracked file git does not ignore,
 * added to a copy of the index (so the user's index and staging stay untouched) and written with
 * `write-tree`. The objects land in the repository's object store unreferenced, as `git stash
 * create` leaves them; `git gc` prunes them. Undefined when git fails.
 */
export async function snapshotWorkTree(work: WorkGit): Promise<string | undefined> {
  const dir = mkdtempSync(path.join(tmpdir(), "climpt-snapshot-"));
  const index = path.join(dir, "index");
  try {
    try {
      // The real index's stat data lets `add -A` skip files that did not change.
      copyFileSync(path.join(work.layout.gitDir, "index"), index);
    } catch {
      // No index yet (a fresh repository): git builds one from nothing.
    }
    const added = await run(work, ["add", "--all", "--", "."], index);
    if (added.exitCode !== 0) return undefined;
    const written = await run(work, ["write-tree"], index);
    return written.exitCode === 0 ? written.stdout.trim() : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files that differ between two snapshots, with their line counts (`--numstat`). */
export async function diffSnapshots(
  work: WorkGit,
  from: string,
  to: string,
): Promise<{ readonly files: StepFileChange[]; readonly truncated: boolean } | undefined> {
  if (from === to) return { files: [], truncated: false };
  const diff = await run(work, ["diff-tree", "-r", "--numstat", "--no-renames", "-z", from, to]);
  if (diff.exitCode !== 0) return undefined;
  const files: StepFileChange[] = [];
  let total = 0;
  // -z: `added<TAB>removed<TAB>path<NUL>` per file; `-` counts for a binary file.
  for (const record of diff.stdout.split("\0")) {
    const match = /^(-|\d+)\t(-|\d+)\t([\s\S]+)$/.exec(record);
    if (match === null) continue;
    total += 1;
    if (files.length >= STEP_CHANGES_MAX_FILES) continue;
    const count = (text: string | undefined): number | null =>
      text === undefined || text === "-" ? null : Number(text);
    files.push({ path: match[3] as string, added: count(match[1]), removed: count(match[2]) });
  }
  return { files, truncated: total > files.length };
}
