// When a run takes snapshots of its working tree, and how a step end gets its own
// (git/run-snapshot.ts takes them).

import { findGitLayout, type GitLayout } from "@climpt/host-git";
import type { RunGit } from "../git/run-git.ts";
import { RunSnapshots, snapshotLabel } from "../git/run-snapshot.ts";
import type { RunEventStream } from "../run-events.ts";
import type { RunnerOptions } from "./run-options.ts";

/** The label of the snapshot a run takes before its first step. */
export const START_SNAPSHOT = "0-start";

/**
 * The run's snapshot taker, or null when it takes none: `RunnerOptions.snapshots: false`, no
 * journal to record them in, or a working folder outside a repository. In worktree mode the
 * worktree must belong to the repository the run started from (as `recordRunGit` checks).
 */
export async function openRunSnapshots(options: {
  readonly runnerOptions: RunnerOptions;
  readonly runId: string;
  readonly cwd: string;
  /** Worktree mode: the repository the run was started from. */
  readonly originCwd?: string;
  readonly journaled: boolean;
  readonly git: RunGit | null;
}): Promise<RunSnapshots | null> {
  if (options.runnerOptions.snapshots === false || !options.journaled || options.git === null)
    return null;
  let layout: GitLayout | null;
  try {
    const origin = options.originCwd === undefined ? null : findGitLayout(options.originCwd);
    layout = findGitLayout(
      options.cwd,
      origin === null ? {} : { expectCommonDir: origin.commonDir },
    );
  } catch {
    // The run's git guard reports a layout that changed; a snapshot is not worth a second report.
    return null;
  }
  if (layout === null) return null;
  return RunSnapshots.open({
    layout,
    runId: options.runId,
    env: options.runnerOptions.env,
  });
}

/**
 * Takes the snapshot of `label` (`START_SNAPSHOT`, or a step end's), returning its commit. A
 * snapshot that fails does not fail the run: `warn` is told why (a notice in the journal), and
 * the record goes without one (a fork from that point is refused).
 */
export async function takeSnapshot(
  snapshots: RunSnapshots | null,
  label: string,
  warn: (message: string) => void,
): Promise<string | undefined> {
  if (snapshots === null) return undefined;
  const taken = await snapshots.take(label);
  if (taken.ok) return taken.commit;
  warn(
    `No snapshot of the working tree at ${label}: ${taken.reason}. A fork from this point is not possible.`,
  );
  return undefined;
}

/** A warning notice in the run's journal. */
export function snapshotWarning(events: RunEventStream): (message: string) => void {
  return (message) => events.emit({ type: "notice", level: "warning", message });
}

/** The label of a step end's snapshot. */
export function stepEndLabel(iteration: number, stepId: string): string {
  return snapshotLabel(iteration, stepId);
}
