import { findGitLayout } from "@climpt/host-git";
import { pushRunSnapshots } from "@climpt/runner";

/**
 * Pushes run `runId`'s snapshot refs (`refs/climpt/<runId>/*`, forced within that namespace
 * only) from the issue's worktree to the fleet's remote, so `climpt fork <runId> --queue …
 * --remote …` on another clone finds them: a fleet's workers do not share a repository. Called
 * with the push of the issue's branch at each step end; no branch or tag is ever pushed here.
 */
export async function pushIssueRunSnapshots(
  worktree: string,
  remote: string,
  runId: string,
  repoDir?: string,
): Promise<void> {
  const commonDir =
    repoDir === undefined ? undefined : (findGitLayout(repoDir)?.commonDir ?? undefined);
  const layout = findGitLayout(
    worktree,
    commonDir === undefined ? {} : { expectCommonDir: commonDir },
  );
  if (layout === null) throw new Error(`${worktree} is not inside a git repository`);
  try {
    await pushRunSnapshots(layout, remote, runId);
  } catch (error) {
    throw new Error(
      `the push of run ${runId}'s snapshots to ${remote} failed: ${(error as Error).message}`,
    );
  }
}
