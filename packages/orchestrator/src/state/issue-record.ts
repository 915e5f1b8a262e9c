import type { TransitionRecord } from "../phase-machine/cycle-rules.ts";

/** Which issue, of which repository, under which workflow. */
export interface IssueKey {
  /** `owner/name`, or the checkout's path when gh picks the repository from its remote. */
  readonly repo: string;
  readonly issue: number;
  readonly workflowId: string;
}

/** A transition decided from a run's outcome and being applied (comment, labels, close). */
export interface PendingTransition {
  readonly from: string;
  readonly to: string;
  readonly agent: string;
  readonly outcome: string;
  readonly runId: string | null;
  readonly add: readonly string[];
  readonly remove: readonly string[];
  /** The comment to post (with its marker), or null. */
  readonly comment: string | null;
  readonly marker: string | null;
  readonly close: boolean;
}

/** A dispatch that started and has not been fully applied yet. */
export interface InFlightDispatch {
  readonly phase: string;
  readonly agent: string;
  readonly startedAt: string;
  /** Known once the runner started the run; null if the crash came before. */
  readonly runId: string | null;
  readonly journalPath: string | null;
  /** The issue's worktree, where the run's journal lives. */
  readonly worktree: string | null;
  /** Set once the run's outcome is known, before anything is changed on GitHub. */
  readonly transition: PendingTransition | null;
}

/**
 * What the orchestrator remembers about an issue between passes: the transitions it made (for
 * the cycle rules) and the dispatch in flight (to recover a crash from the run's journal instead
 * of dispatching again). GitHub's labels stay the truth about the phase.
 */
export interface IssueRecord extends IssueKey {
  readonly history: readonly TransitionRecord[];
  readonly inFlight: InFlightDispatch | null;
}

export function emptyRecord(key: IssueKey): IssueRecord {
  return { ...key, history: [], inFlight: null };
}

/** Holds one issue for one orchestrator until released. */
export interface IssueLock {
  release(): Promise<void>;
}

/**
 * Where issue records live: a folder of JSON files on one machine, Redis for a fleet. `read`
 * throws a coded ClimptError (`ORC-STATE-001`) for a record it cannot read; `lock` returns null
 * when another orchestrator holds the issue.
 */
export interface IssueStateStore {
  read(key: IssueKey): Promise<IssueRecord | null>;
  write(record: IssueRecord): Promise<void>;
  lock(key: IssueKey): Promise<IssueLock | null>;
}
