/**
 * Which files each step changed (the viewer's per-step diff-stat): the working tree is
 * snapshotted as a git tree before the first step and after each one, and a `step_changes`
 * event lists the difference just before the step's `step_end`. A resumed run starts from the
 * last snapshot its journal recorded, so the interrupted step's changes are not lost.
 */

import { diffSnapshots, snapshotWorkTree, type WorkGit } from "../git/work-state.ts";
import type { RunEvent } from "../run-event.ts";
import type { RunEventStream } from "../run-events.ts";

export class StepChanges {
  private last: string | undefined;

  /** `git` is null outside a repository: then no step records changes. */
  constructor(readonly git: WorkGit | null) {}

  /** A resumed run: the tree the journal's last `step_changes` recorded. */
  restore(events: readonly RunEvent[]): void {
    for (const event of events) if (event.type === "step_changes") this.last = event.tree;
  }

  /** The snapshot the first step is compared with, unless the journal gave one. */
  async begin(events: RunEventStream): Promise<void> {
    if (this.git === null || this.last !== undefined || !events.observed) return;
    this.last = await snapshotWorkTree(this.git);
  }

  /** Journals what the step changed since the previous snapshot (nothing when git fails). */
  async record(events: RunEventStream, stepId: string, iteration: number): Promise<void> {
    if (this.git === null || !events.observed) return;
    const tree = await snapshotWorkTree(this.git);
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
