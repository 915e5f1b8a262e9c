/**
 * Which files each step changed (the viewer's per-step diff-stat): the difference between the
 * working tree's snapshot before the step and after it, journaled as `step_changes` just before
 * the step's `step_end`. The snapshots are the run's own (git/run-snapshot.ts: the commits under
 * `refs/climpt/<runId>/` a fork starts from), so a step end snapshots the tree once; only a run
 * that takes none (`RunnerOptions.snapshots: false`, or a snapshot that failed) writes a tree of
 * its own here. A resumed run starts from the last snapshot its journal recorded, so the
 * interrupted step's changes are not lost.
 */

import { diffSnapshots, snapshotWorkTree, type WorkGit } from "../git/work-state.ts";
import type { RunEvent } from "../run-event.ts";
import type { RunEventStream } from "../run-events.ts";

export class StepChanges {
  private last: string | undefined;

  /** `git` is null outside a repository: then no step records changes. */
  constructor(readonly git: WorkGit | null) {}

  /** A resumed run: the snapshot the journal's last `step_changes` (or its start) recorded. */
  restore(events: readonly RunEvent[]): void {
    for (const event of events) {
      // The run's start snapshot, until a step's changes recorded a later one.
      if (event.type === "run_start" && event.snapshot !== undefined) this.last = event.snapshot;
      if (event.type === "step_changes") this.last = event.tree;
    }
  }

  /**
   * The snapshot the first step is compared with, unless the journal gave one: the run's start
   * snapshot (a commit) when it took one.
   */
  async begin(events: RunEventStream, snapshot?: string): Promise<void> {
    if (this.git === null || this.last !== undefined || !events.observed) return;
    this.last = snapshot ?? (await snapshotWorkTree(this.git));
  }

  /**
   * Journals what the step changed since the previous snapshot (nothing when git fails).
   * `snapshot` is the run's snapshot of the step's end, when it took one.
   */
  async record(
    events: RunEventStream,
    stepId: string,
    iteration: number,
    snapshot?: string,
  ): Promise<void> {
    if (this.git === null || !events.observed) return;
    const tree = snapshot ?? (await snapshotWorkTree(this.git));
    if (tree === undefined) return;
    const from = this.last;
    this.last = tree;
    if (from === undefined) return;
    const diff = await diffSnapshots(this.git, from, tree);
    if (diff === undefined) return;
    events.emit({
      type: "step_changes",
      iteration,
      stepId,
      tree,
      files: diff.files,
      ...(diff.truncated ? { truncated: true } : {}),
    });
  }
}
