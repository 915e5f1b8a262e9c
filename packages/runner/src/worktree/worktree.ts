import { existsSync } from "node:fs";
import path from "node:path";
import { findGitLayout, type GitLayout, runHostGit } from "@climpt/host-git";
import { ClimptError } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import { removeRunSnapshots } from "../git/run-snapshot.ts";
import { RunnerError } from "../runner-error.ts";

/** Local git commands only; a bound so a wedged git (a lock held elsewhere) cannot hang a run. */
const GIT_TIMEOUT_MS = 120_000;

const NEEDS_A_REPOSITORY =
  "Worktree mode needs the working directory to be inside a git repository with at least one commit.";

/**
 * The repository holding `dir`, as host git is told it (@climpt/host-git: found from the file
 * system, never from a `commondir` file): `RUN-WORKTREE-001` outside one. With `expectCommonDir`,
 * `dir` must be a working tree of that repository.
 */
export function repositoryOf(dir: string, expectCommonDir?: string): GitLayout {
  let layout: GitLayout | null;
  try {
    layout = findGitLayout(dir, expectCommonDir === undefined ? {} : { expectCommonDir });
  } catch (error) {
    if (!ClimptError.isInstance(error)) throw error;
    throw new RunnerError({
      code: RUNNER_CODES.worktreeGitFailed,
      message: error.message,
      hint: error.hint ?? NEEDS_A_REPOSITORY,
    });
  }
  if (layout === null) {
    throw new RunnerError({
      code: RUNNER_CODES.worktreeGitFailed,
      message: `${dir} is not inside a git repository.`,
      hint: NEEDS_A_REPOSITORY,
    });
  }
  return layout;
}

/**
 * Host git in `repo` (@climpt/host-git: explicit directories, no fsmonitor, no hooks), its
 * trimmed stdout; a failure is `RUN-WORKTREE-001` with git's stderr, and the result as `cause`.
 */
export async function git(
  repo: GitLayout,
  args: readonly string[],
  options: {
    readonly cwd?: string;
    readonly env?: Readonly<Record<string, string | undefined>>;
    readonly timeoutMs?: number;
    readonly signal?: AbortSignal;
  } = {},
): Promise<string> {
  const cwd = options.cwd ?? repo.workTree;
  const result = await runHostGit(repo, args, {
    cwd,
    timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
    ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (result.exitCode === 0) return result.stdout.trim();
  const stderr = result.stderr.trim() || (result.timedOut ? "timed out" : result.spawnError);
  throw new RunnerError({
    code: RUNNER_CODES.worktreeGitFailed,
    message: `git ${args.join(" ")} failed in ${cwd}${stderr ? `: ${stderr}` : ""}.`,
    hint: NEEDS_A_REPOSITORY,
    cause: result,
  });
}

export interface RunWorktree {
  readonly path: string;
  readonly branch: string;
  /**
   * The branch the worktree was made from, which a successful run merges back into; null when
   * the repository was on a detached HEAD (nothing to merge into) or the journal predates it.
   */
  readonly baseBranch?: string | null;
  /** The run made the branch (it did not exist before). */
  readonly createdBranch?: boolean;
}

/** `--branch` / `--base-branch` (and their agent.json-free defaults). */
export interface WorktreeBranches {
  /** The run's branch; default `climpt/<agent>/<runId>`. An existing branch is checked out. */
  readonly branch?: string;
  /** The branch to start from and merge back into; default the repository's current branch. */
  readonly baseBranch?: string;
}

async function branchExists(repo: GitLayout, branch: string): Promise<boolean> {
  try {
    await git(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
    return true;
  } catch {
    return false;
  }
}

/**
 * One issue = one branch = one worktree = one agent (docs/design.md#many-issues): a fresh `git
 * worktree` on its own branch, made from the base branch (default: the repository's current
 * branch, or its HEAD when that is detached). It lives next to the repository (default
 * `../climpt-worktrees/<agent>-<runId>`), not inside it, so the repository's own status stays
 * clean. A `branch` that exists already is checked out as it is (continuing an issue's branch); a
 * new one starts at the base.
 */
export async function createRunWorktree(options: {
  readonly repoDir: string;
  readonly root?: string;
  readonly agentName: string;
  readonly runId: string;
  readonly branches?: WorktreeBranches;
}): Promise<RunWorktree> {
  const repo = repositoryOf(options.repoDir);
  const top = repo.workTree;
  const root = path.resolve(top, options.root ?? "../climpt-worktrees");
  const worktreePath = path.join(root, `${options.agentName}-${options.runId}`);
  const branch = options.branches?.branch ?? `climpt/${options.agentName}/${options.runId}`;
  let baseBranch: string | null = options.branches?.baseBranch ?? null;
  if (baseBranch === null) {
    const current = await git(repo, ["rev-parse", "--abbrev-ref", "HEAD"]);
    baseBranch = current === "HEAD" ? null : current;
  } else if (!(await branchExists(repo, baseBranch))) {
    throw new RunnerError({
      code: RUNNER_CODES.noBaseBranch,
      message: `The base branch "${baseBranch}" does not exist in ${top}.`,
      hint: "Pass --base-branch an existing local branch, or leave it out to start from the current branch.",
    });
  }
  const existed = await branchExists(repo, branch);
  if (existed) {
    await git(repo, ["worktree", "add", worktreePath, branch]);
  } else {
    await git(repo, ["worktree", "add", "-b", branch, worktreePath, baseBranch ?? "HEAD"]);
  }
  return { path: worktreePath, branch, baseBranch, createdBranch: !existed };
}

/**
 * Removes the worktree folder; the branch and its commits stay (the run's work is on it). Called
 * after a successful run; a failed run keeps its worktree so `--resume` continues in it.
 */
export async function removeRunWorktree(options: {
  readonly repoDir: string;
  readonly worktree: RunWorktree;
}): Promise<void> {
  if (!existsSync(options.worktree.path)) return;
  await git(repositoryOf(options.repoDir), [
    "worktree",
    "remove",
    "--force",
    options.worktree.path,
  ]);
}

/**
 * A run that ended before anything ran in its worktree: the folder goes, and so does the
 * branch when the run created it (it holds nothing but the base's commits).
 */
export async function discardRunWorktree(options: {
  readonly repoDir: string;
  readonly worktree: RunWorktree;
  /** The run whose snapshot refs go with it (`refs/climpt/<runId>/`). */
  readonly runId?: string;
}): Promise<void> {
  await removeRunWorktree(options);
  const repo = repositoryOf(options.repoDir);
  if (options.worktree.createdBranch === true)
    await git(repo, ["branch", "-D", options.worktree.branch]);
  if (options.runId !== undefined) await removeRunSnapshots(repo, options.runId);
}
