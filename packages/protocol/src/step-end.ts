import type { JsonValue, RouterState, StepCount } from "@climpt/model";
import type { HistoryEntry, RunUsage } from "./run-result.ts";

/** A retry prompt the next iteration uses instead of its step prompt. */
export interface PendingRetry {
  readonly stepId: string;
  readonly text: string;
}

/**
 * A step finished and the flow decided where to go: the one record of it. The step's dialect
 * phase builds it where it interprets the step; the journal stores it as the `step_end` event
 * (with `type`, `runId`, `time` and `seq` added) and `applyStepEnd` folds it into the run state,
 * the live run and resume alike, so a folded journal is exactly the state the live run had.
 */
export interface StepEnd {
  readonly iteration: number;
  readonly stepId: string;
  readonly history: HistoryEntry;
  /** The router state the next iteration starts from. */
  readonly routerState: RouterState;
  /** This execution's full structured output (or text), kept for the journal and completion. */
  readonly output: JsonValue;
  /** This execution's handoff by short key. */
  readonly handoff: Readonly<Record<string, JsonValue>>;
  /** This execution's handoff by full dot path (gate handoffFields). */
  readonly handoffPaths: Readonly<Record<string, JsonValue>>;
  /** A retry prompt the next iteration uses instead of its step prompt. */
  readonly pendingRetry: PendingRetry | null;
  readonly consecutiveSchemaFailures: number;
  /** The run's usage after this step. */
  readonly totals: RunUsage;
  /** Set when this step ended the run (success or failure): the run_end follows. */
  readonly final: boolean;
}

/**
 * The journal's format, recorded in `run_start.journalFormat` (absent in a journal of format 1).
 *
 * - 1: each `step_end.routerState` holds the router's whole `stepCounts`, one entry per step
 *   run so far, so a line grew with the run.
 * - 2: `step_end.routerState` has no `stepCounts`; `step_end.stepCountChanges` holds the entries
 *   this step changed (the step that ran), and resume rebuilds the list by folding them.
 *
 * Both are read: a step_end is recognised by its own shape, whatever the run_start says.
 */
export const JOURNAL_FORMAT = 2;

/** The router state as a format-2 `step_end` stores it: everything but the per-step totals. */
export type JournaledRouterState = Omit<RouterState, "stepCounts"> & {
  /** Only in a journal of format 1: the whole list. */
  readonly stepCounts?: readonly StepCount[];
};

/** A `StepEnd` as the journal stores it (docs/design.md#the-journal-and-resume). */
export interface StepEndRecord extends Omit<StepEnd, "routerState"> {
  readonly routerState: JournaledRouterState;
  /**
   * Format 2: the `stepCounts` entries that differ from the previous step end's (new or
   * changed), in list order. Absent in format 1.
   */
  readonly stepCountChanges?: readonly StepCount[];
  /**
   * The commit recording the working tree as this step left it, committed and uncommitted
   * files alike, under `refs/climpt/<runId>/<iteration>-<stepId>` (the user's branches and
   * index untouched): what `climpt fork` starts a fork's working tree from. Absent in journals
   * from before snapshots, outside a repository, and when the snapshot failed (a notice says so).
   */
  readonly snapshot?: string;
  /**
   * Set on a fork's copies of the step ends it did not run (`run_start.forkedFrom`): the id of
   * the run that ran the step (the source, or the source's own source for a fork of a fork).
   */
  readonly inheritedFrom?: string;
}
