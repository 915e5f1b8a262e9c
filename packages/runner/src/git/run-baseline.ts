import { findGitLayout, type GitLayout, runHostGit } from "@climpt/host-git";
import type { RunBaseline } from "@climpt/protocol";
import type { RunWorktree } from "../worktree/worktree.ts";

const GIT_TIMEOUT_MS = 60_000;

/**
 * The run's base for comparing failures (docs/design.md#the-completion-chain), fixed before the
 * model acts and recorded in `run_start`: in worktree mode the base branch the worktree was made
 * from (the merge base of HEAD and it is what the change is measured against), otherwise the
 * commit the run started on. The merge base at the start is recorded with it, so the model
 * cannot move the comparison to an older commit by rewriting its branch.
 */
export async function recordRunBaseline(options: {
  /** Where the run works (the worktree in worktree mode). */
  readonly cwd: string;
  readonly worktree: RunWorktree | null;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): Promise<RunBaseline> {
  let repo: GitLayout | null;
  try {
    repo = findGitLayout(options.cwd);
  } catch (error) {
    return { unavailable: `the run's repository cannot be read: ${(error as Error).message}` };
  }
  if (repo === null)
    return { unavailable: "the run's working directory is not in a git repository" };
  const git = async (args: readonly string[]): Promise<string | undefined> => {
    const result = await runHostGit(repo, args, {
      timeoutMs: GIT_TIMEOUT_MS,
      ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
    });
    return result.exitCode === 0 ? result.stdout.trim() : undefined;
  };
  if (options.worktree !== null) {
    const baseBranch = options.worktree.baseBranch;
    if (baseBranch === null || baseBranch === undefined) {
      return {
        unavailable: "the run's worktree was made from a detached HEAD, so it has no base branch",
      };
    }
    const ref = `refs/heads/${baseBranch}`;
    const startBase = await git(["merge-base", "--end-of-options", "HEAD", ref]);
    if (startBase === undefined) {
      return { unavailable: `the run's branch and ${baseBranch} had no merge base at its start` };
    }
    return { ref, name: baseBranch, startBase };
  }
  const head = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  if (head === undefined) {
    return { unavailable: "the repository had no commit when the run started" };
  }
  const branch = await git(["symbolic-ref", "--quiet", "--short", "HEAD"]);
  return {
    ref: head,
    name: branch === undefined ? "the run's start" : `${branch} at the run's start`,
    startBase: head,
  };
}
