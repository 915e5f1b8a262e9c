import type { JsonValue } from "@climpt/model";
import type { OrchestratorError } from "../codes.ts";
import type { IssueArtifact, Landed } from "../dispatch/dispatcher.ts";
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
  /**
   * What the transition's handoffs emitted: the issue's payload from now on (undefined: the
   * payload is unchanged) and the artifacts to write into its worktree before its next runs.
   */
  readonly payload?: Readonly<Record<string, JsonValue>> | null;
  readonly artifacts?: readonly IssueArtifact[];
  /** Where the run's work went before the transition (absent: nothing was landed). */
  readonly landed?: Landed;
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
  /**
   * How many times this dispatch was started (absent: once). Each start beyond the first follows
   * an interruption (a stop, a kill, the model API out of reach); past `maxInterruptions` the run
   * fails instead of being resumed again.
   */
  readonly attempts?: number;
  /** Why the last attempt stopped without an outcome. */
  readonly lastInterruption?: OrchestratorError;
}

/**
 * An issue held in its phase: a run's outcome there had no phase to go to (no fallback, no
 * blocking phase). It is not dispatched again while its labels still put it in that phase.
 */
export interface HaltedIssue {
  readonly phase: string;
  readonly error: OrchestratorError;
  readonly at: string;
}

/**
 * An issue in a `checks` phase following its pull request's checks: what a later pass (after a
 * kill, on another worker) needs to go on waiting instead of starting over.
 */
export interface ChecksWait {
  readonly phase: string;
  /** The pull request's URL and number. */
  readonly pullRequest: string;
  readonly number: number;
  /** The head commit whose checks are awaited. */
  readonly headSha: string;
  /** When the wait for this head began: its `timeoutMinutes` count from here. */
  readonly since: string;
  /** Runs of the fix agent in the phase so far (bounded by `maxFixAttempts`). */
  readonly attempts: number;
  /** The fix run's arguments while it is in flight, so a resumed run gets the same ones. */
  readonly fix?: Readonly<Record<string, string>> | null;
}

/**
 * What the orchestrator remembers about an issue between passes: the transitions it made (for
 * the cycle rules) and the dispatch in flight (to recover a crash from the run's journal instead
 * of dispatching again). GitHub's labels stay the truth about the phase.
 */
export interface IssueRecord extends IssueKey {
  readonly history: readonly TransitionRecord[];
  readonly inFlight: InFlightDispatch | null;
  /**
   * The issue's payload: what its artifact handoffs (`persistPayloadTo: "subjectStore"`) or
   * `--payload` put there; the next agents get the keys they declare as parameters.
   */
  readonly payload?: Readonly<Record<string, JsonValue>> | null;
  /** The artifacts its handoffs emitted, written into its worktree before each run. */
  readonly artifacts?: readonly IssueArtifact[];
  readonly halted?: HaltedIssue | null;
  /** The wait on the pull request's checks, while the issue is in a `checks` phase. */
  readonly checksWait?: ChecksWait | null;
}

export function emptyRecord(key: IssueKey): IssueRecord {
  return { ...key, history: [], inFlight: null };
}

/**
 * Holds one issue for one orchestrator until released. A lock with a lease (Redis) can be lost
 * while its holder still runs: the lease was not renewed in time (a stalled event loop, Redis out
 * of reach) and ran out, or another worker took the issue. The holder must then stop at once and
 * write nothing more for the issue; `lost` says so, and `confirm` checks it right before a write.
 */
export interface IssueLock {
  /** Aborted once the lock is known to be no longer this holder's; its reason says why. */
  readonly lost: AbortSignal;
  /**
   * True when the lock is still this holder's, extending its lease, so a write made right after
   * happens inside a lease it holds. False (and `lost` aborted) when it is not, or cannot be shown.
   */
  confirm(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * Where issue records live: a folder of JSON files on one machine, Redis for a fleet. `read`
 * throws a coded ClimptError (`ORC-STATE-001`) for a record it cannot read; `lock` returns null
 * when another orchestrator holds the issue. `write` with the lock the writer took writes only
 * while that lock is still its holder's, else throws `ORC-STATE-003` and aborts `lock.lost`.
 */
export interface IssueStateStore {
  read(key: IssueKey): Promise<IssueRecord | null>;
  write(record: IssueRecord, held?: IssueLock): Promise<void>;
  lock(key: IssueKey): Promise<IssueLock | null>;
}
