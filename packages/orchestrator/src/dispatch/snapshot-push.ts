import { isSnapshotRunId } from "@climpt/runner";

/**
 * The refspec that pushes run `runId`'s snapshot refs (`refs/climpt/<runId>/*`, forced within that
 * namespace only) with the issue's branch at each step end, in the same `git push`, so
 * `climpt fork <runId> --queue … --remote …` on another clone finds them (a fleet's workers do
 * not share a repository) and a step end still costs one push. No other branch, tag or run's ref
 * is ever named. The run id comes from the run's own notice; it is checked before it reaches
 * git's command line all the same.
 */
export function runSnapshotRefspec(runId: string): string {
  if (!isSnapshotRunId(runId)) throw new Error(`"${runId}" is not a run id`);
  const refs = `refs/climpt/${runId}/*`;
  return `+${refs}:${refs}`;
}
