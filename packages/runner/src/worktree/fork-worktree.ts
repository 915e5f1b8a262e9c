import path from "node:path";
import { RUNNER_CODES } from "../codes.ts";
import { RunnerError } from "../runner-error.ts";
import { git, type RunWorktree, removeRunWorktree, repositoryOf } from "./worktree.ts";

/**
 * The working tree of a fork (`climpt fork`): a new `git worktree` on a new branch
 * (`climpt/<agent>/<runId>`, next to the repository as in worktree mode), holding exactly what
 * the source run's snapshot recorded. The branch starts at the commit that was checked out when
 * the snapshot was taken (its first parent); the files are the snapshot's tree and the index is
 * what was staged then (its second parent, else that commit), so committed, staged, modified and
 * untracked files are each what they were. Nothing else moves: not the source's branch or
 * worktree, not the user's.
 */
export async function createForkWorktree(options: {
  readonly repoDir: string;
  readonly root?: string;
  readonly agentName: string;
  readonly runId: string;
  /** The snapshot commit (run-snapshot.ts). */
  readonly snapshot: string;
  /** The branch a successful fork would merge into, when asked to: the source's base. */
  readonly baseBranch: string | null;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): Promise<RunWorktree> {
  const repo = repositoryOf(options.repoDir);
  const env = options.env === undefined ? {} : { env: options.env };
  // `<commit> <parent> [<index parent>]`: read before anything is made.
  const parents = (
    await git(repo, ["rev-list", "--parents", "-n", "1", `${options.snapshot}^{commit}`], env)
  ).split(" ");
  const head = parents[1];
  if (parents[0] !== options.snapshot || head === undefined || parents.length > 3) {
    throw new RunnerError({
      code: RUNNER_CODES.forkNoSnapshot,
      message: `${options.snapshot} is not a snapshot commit of climpt (it has ${parents.length - 1} parents).`,
      hint: "The journal names another commit than the run recorded; fork from another point, or start a new run.",
    });
  }
  const staged = parents[2] ?? head;
  const root = path.resolve(repo.workTree, options.root ?? "../climpt-worktrees");
  const worktreePath = path.join(root, `${options.agentName}-${options.runId}`);
  const branch = `climpt/${options.agentName}/${options.runId}`;
  await git(repo, ["worktree", "add", "-b", branch, worktreePath, head], env);
  const worktree: RunWorktree = {
    path: worktreePath,
    branch,
    baseBranch: options.baseBranch,
    createdBranch: true,
  };
  try {
    const child = repositoryOf(worktreePath, repo.commonDir);
    // The snapshot's files (tracked ones it lacks are removed), then its index without the files.
    await git(child, ["read-tree", "--reset", "-u", `${options.snapshot}^{tree}`], env);
    await git(child, ["read-tree", "--reset", `${staged}^{tree}`], env);
  } catch (error) {
    await removeRunWorktree({ repoDir: options.repoDir, worktree }).catch(() => undefined);
    await git(repo, ["branch", "-D", branch], env).catch(() => undefined);
    throw error;
  }
  return worktree;
}
