import { existsSync } from "node:fs";
import path from "node:path";
import { findGitLayout, type GitLayout, runHostGit } from "@climpt/host-git";
import { ClimptError } from "@climpt/model";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";

export interface IssueWorktree {
  readonly path: string;
  readonly branch: string;
}

/** A fetch or push talks to a remote: bounded, so a stalled network cannot hang a dispatch. */
const REMOTE_TIMEOUT_MS = 300_000;

/**
 * Host git (@climpt/host-git): the repository's directories explicit, no fsmonitor, no hooks. An
 * issue's worktree is where earlier phases' models worked; nothing they left in it may decide
 * what this git runs. Rejects with git's stderr (as `stderr`) when git fails.
 */
async function git(
  repo: GitLayout,
  args: readonly string[],
  options: { readonly cwd?: string; readonly timeoutMs?: number } = {},
): Promise<string> {
  const result = await runHostGit(repo, args, options);
  if (result.exitCode === 0) return result.stdout.trim();
  const error = new Error(`git ${args.join(" ")} failed`) as Error & { stderr: string };
  error.stderr =
    result.refused ??
    (result.stderr || (result.timedOut ? "timed out" : (result.spawnError ?? "")));
  throw error;
}

/** The layout of `dir` (the repository, or one of its worktrees when `commonDir` is given). */
function layoutOf(dir: string, commonDir?: string): GitLayout {
  const layout = findGitLayout(dir, commonDir === undefined ? {} : { expectCommonDir: commonDir });
  if (layout === null) throw new Error(`${dir} is not inside a git repository`);
  return layout;
}

/** Git refuses concurrent changes to one repository with a `.lock` file; those are worth a retry. */
function isLockContention(error: unknown): boolean {
  const text = `${(error as { stderr?: string }).stderr ?? ""}${(error as Error).message ?? ""}`;
  return /\.lock\b|could not lock|Unable to create .*lock/i.test(text);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// One worktree change at a time per repository in this process; other processes are met with the
// bounded retry on git's own lock files.
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(key: string, action: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(action, action);
  queues.set(
    key,
    next.catch(() => undefined),
  );
  return next;
}

/** The branch of an issue's worktree: every phase of the issue works on it. */
export function issueBranch(issue: number): string {
  return `climpt/issue-${issue}`;
}

/**
 * The issue's own worktree and branch (`1 issue = 1 branch = 1 worktree`), made on first use
 * from the repository's HEAD and reused by every later phase, so the implementer finds what the
 * detailer left and the reviewer reviews the implementer's commits. It lives next to the
 * repository (`../climpt-worktrees/<repository>/issue-<n>`, or under `root`), not inside it.
 */
export function ensureIssueWorktree(options: {
  readonly repoDir: string;
  readonly issue: number;
  readonly root?: string;
  /**
   * The remote every worker of a fleet pushes issue branches to. When the issue's branch is
   * there, the worktree is made (or reset) to it: another machine may have taken the issue
   * further, and what the branch holds is what the run's journal says was done.
   */
  readonly remote?: string;
}): Promise<IssueWorktree> {
  return serialized(path.resolve(options.repoDir), async () => {
    let repo: GitLayout;
    try {
      repo = layoutOf(options.repoDir);
    } catch (error) {
      throw failure(`${options.repoDir} is not inside a git repository`, error);
    }
    const top = repo.workTree;
    const root = path.resolve(
      top,
      options.root ?? path.join("..", "climpt-worktrees", path.basename(top)),
    );
    const worktree = path.join(root, `issue-${options.issue}`);
    const branch = issueBranch(options.issue);
    const shared =
      options.remote === undefined ? null : await fetchIssueBranch(repo, options.remote, branch);
    if (existsSync(path.join(worktree, ".git"))) {
      if (shared !== null) {
        try {
          // The worktree's own git directory, checked to be one of this repository's.
          const tree = layoutOf(worktree, repo.commonDir);
          await git(tree, ["reset", "-q", "--hard", shared]);
          // Untracked files the last run left; ignored ones (the journals) stay.
          await git(tree, ["clean", "-qfd"]);
        } catch (error) {
          throw failure(`git reset --hard ${shared} in ${worktree} failed`, error);
        }
      }
      return { path: worktree, branch };
    }
    // The usual case takes one git: the add. A registration left by a worktree folder deleted by
    // hand (prune clears it) or the issue's branch already there (made by an earlier pass whose
    // worktree was removed) is learned from the add's refusal, not asked before every add.
    let pruned = false;
    let branchExists = false;
    for (let attempt = 1; ; attempt++) {
      try {
        await git(
          repo,
          shared !== null
            ? ["worktree", "add", "-B", branch, worktree, shared]
            : branchExists
              ? ["worktree", "add", worktree, branch]
              : ["worktree", "add", "-b", branch, worktree, "HEAD"],
        );
        return { path: worktree, branch };
      } catch (error) {
        const stderr = (error as { stderr?: string }).stderr ?? "";
        if (
          !pruned &&
          /already registered|already checked out|is already used by worktree/i.test(stderr)
        ) {
          pruned = true;
          await git(repo, ["worktree", "prune"]).catch(() => undefined);
          continue;
        }
        if (!branchExists && shared === null && /branch named .* already exists/i.test(stderr)) {
          branchExists = true;
          continue;
        }
        if (attempt < 6 && isLockContention(error)) {
          await sleep(50 * attempt);
          continue;
        }
        throw failure(`git worktree add ${worktree} (${branch}) failed`, error);
      }
    }
  });
}

/**
 * Fetches the issue's branch from the fleet's remote; returns the remote-tracking ref, or null
 * when the remote does not have the branch yet (no run of the issue has ended a step).
 */
async function fetchIssueBranch(
  repo: GitLayout,
  remote: string,
  branch: string,
): Promise<string | null> {
  const ref = `refs/remotes/${remote}/${branch}`;
  try {
    await git(repo, ["fetch", "-q", remote, `+refs/heads/${branch}:${ref}`], {
      timeoutMs: REMOTE_TIMEOUT_MS,
    });
    return ref;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    if (/couldn't find remote ref/i.test(stderr)) return null;
    throw failure(`git fetch ${remote} ${branch} failed`, error);
  }
}

/**
 * The layout of an issue's worktree: with `repoDir`, a worktree of that repository whatever its
 * git directory's `commondir` file says now.
 */
function worktreeLayout(worktree: string, repoDir: string | undefined): GitLayout {
  return layoutOf(worktree, repoDir === undefined ? undefined : layoutOf(repoDir).commonDir);
}

/** The commit the worktree's HEAD is at (`repoDir`: the repository it belongs to). */
export async function worktreeHead(worktree: string, repoDir?: string): Promise<string> {
  return git(worktreeLayout(worktree, repoDir), ["rev-parse", "HEAD"]);
}

/**
 * Pushes the issue's branch as the worktree has it to the fleet's remote (the step-end hook of a
 * fleet's runs). Not forced: a worker that lost the issue to another one cannot overwrite what
 * that one pushed since.
 */
export async function pushIssueBranch(
  worktree: string,
  remote: string,
  branch: string,
  repoDir?: string,
  /** More refs to push in the same process (the run's snapshot refs: @climpt/runner's `runSnapshotRefspec`). */
  alsoPush: readonly string[] = [],
): Promise<void> {
  try {
    await git(
      worktreeLayout(worktree, repoDir),
      ["push", "-q", remote, `HEAD:refs/heads/${branch}`, ...alsoPush],
      {
        timeoutMs: REMOTE_TIMEOUT_MS,
      },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`git push ${remote} ${branch} failed${stderr ? `: ${stderr}` : ""}`);
  }
}

function failure(what: string, cause: unknown): ClimptError {
  const stderr = (cause as { stderr?: string }).stderr?.trim();
  return new ClimptError({
    code: C.dispatchWorktree,
    message: `${what}${stderr ? `: ${stderr}` : ""}.`,
    hint: "The repository needs at least one commit; remove a stale worktree with `git worktree remove --force <path>`.",
    cause,
  });
}
