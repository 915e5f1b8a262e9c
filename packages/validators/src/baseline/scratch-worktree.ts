import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type GitLayout, runHostGit } from "@climpt/host-git";

/** Local git only (a checkout of one commit); a bound so a lock held elsewhere cannot hang it. */
const GIT_TIMEOUT_MS = 120_000;

/** A detached checkout of one commit, outside the repository's working tree. */
export interface ScratchWorktree {
  /** The checkout's top folder. */
  readonly path: string;
  /** Removes the checkout and its registration in the repository; never throws. */
  remove(): Promise<void>;
}

export type ScratchWorktreeResult =
  | { readonly ok: true; readonly worktree: ScratchWorktree }
  | { readonly ok: false; readonly reason: string };

/**
 * `git worktree add --detach` of `sha` in a fresh temporary folder, through @climpt/host-git (no
 * hook runs, no fsmonitor, the repository's directories given explicitly). The folder is outside
 * the repository's working tree, so the run's own `git status` never sees it; `remove()` takes
 * it away again (`git worktree remove --force`, then the folder, then `git worktree prune`).
 */
export async function addScratchWorktree(
  repo: GitLayout,
  sha: string,
  options: {
    readonly env?: Readonly<Record<string, string | undefined>>;
    readonly signal?: AbortSignal;
  } = {},
): Promise<ScratchWorktreeResult> {
  const folder = await realpath(await mkdtemp(path.join(tmpdir(), "climpt-baseline-")));
  const tree = path.join(folder, "tree");
  const run = (args: readonly string[]) =>
    runHostGit(repo, args, {
      timeoutMs: GIT_TIMEOUT_MS,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  const remove = async (): Promise<void> => {
    await run(["worktree", "remove", "--force", tree]).catch(() => undefined);
    await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    // A registration whose folder is gone (the remove above failed halfway) is dropped.
    await run(["worktree", "prune"]).catch(() => undefined);
  };
  const added = await run(["worktree", "add", "--detach", "--quiet", tree, sha]);
  if (added.exitCode !== 0) {
    await remove();
    const why =
      added.refused ??
      (added.stderr.trim() || added.spawnError || (added.timedOut ? "timed out" : "failed"));
    return { ok: false, reason: `git worktree add of ${sha} failed: ${why}` };
  }
  return { ok: true, worktree: { path: tree, remove } };
}
