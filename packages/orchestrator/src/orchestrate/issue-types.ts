import type { JsonValue } from "@climpt/model";
import type { OrchestratorError } from "../codes.ts";
import type { Dispatcher, Landed } from "../dispatch/dispatcher.ts";
import type { GhClient } from "../github/gh-client.ts";
import type { TransitionRecord } from "../phase-machine/cycle-rules.ts";
import type { IssueStateStore } from "../state/issue-record.ts";
import type { LandingConfig, Workflow } from "../workflow-model.ts";

export type IssueStatus =
  /** A terminal phase. */
  | "completed"
  /** A blocking phase: a person must act. */
  | "blocked"
  /** Stopped by rules.maxCycles (and moved to the blocking phase). */
  | "cycle_exceeded"
  /** Stopped by rules.maxConsecutivePhases (and moved to the blocking phase). */
  | "phase_repetition_exceeded"
  /** None of its labels is a phase label of the workflow. */
  | "no_phase"
  /** A run that did not reach an outcome (stopped, the model API failing): resumed next pass. */
  | "interrupted"
  /** A `checks` phase: the pull request's checks are pending; read again after `retryAfterMs`. */
  | "waiting"
  /** Another orchestrator holds the issue. */
  | "locked"
  /** gh or the state store failed; the issue keeps its phase. */
  | "error"
  /** `--dry-run`: what would run. */
  | "dry-run";

export interface IssueResult {
  readonly issue: number;
  readonly status: IssueStatus;
  /** The phase the issue is in at the end (null: none). */
  readonly phase: string | null;
  /** The agent that would run (`dry-run`), or that ran last. */
  readonly agent: string | null;
  readonly closed: boolean;
  /** Transitions made in this pass. */
  readonly transitions: readonly TransitionRecord[];
  /** Runs dispatched or resumed in this pass. */
  readonly runs: readonly string[];
  /** Runs this pass resumed from a journal instead of starting. */
  readonly resumed: readonly string[];
  /** The issue's payload at the end (what its next agent would be given), when it has one. */
  readonly payload?: Readonly<Record<string, JsonValue>>;
  /** Where this pass landed the work of the issue's runs (merged, pushed, proposed). */
  readonly landed?: readonly Landed[];
  /** `waiting`: when to look at the issue again (its checks' `pollSeconds`, within the timeout). */
  readonly retryAfterMs?: number;
  readonly error?: OrchestratorError;
}

export type ProgressEvent =
  | {
      readonly kind: "dispatch";
      readonly issue: number;
      readonly phase: string;
      readonly agent: string;
      readonly resume: boolean;
    }
  | { readonly kind: "run-started"; readonly issue: number; readonly runId: string }
  | {
      readonly kind: "run-ended";
      readonly issue: number;
      readonly agent: string;
      readonly runId: string | null;
      readonly success: boolean;
      readonly interrupted: boolean;
      readonly verdict: string | null;
      readonly error?: OrchestratorError;
    }
  | { readonly kind: "landed"; readonly issue: number; readonly landed: Landed }
  | {
      readonly kind: "handoff";
      readonly issue: number;
      readonly handoff: string;
      readonly path: string;
    }
  | {
      readonly kind: "transition";
      readonly issue: number;
      readonly record: TransitionRecord;
      readonly closed: boolean;
    }
  | {
      readonly kind: "stop";
      readonly issue: number;
      readonly status: IssueStatus;
      readonly phase: string | null;
      readonly error?: OrchestratorError;
    };

export interface OrchestratorContext {
  readonly workflow: Workflow;
  readonly gh: GhClient;
  readonly dispatcher: Dispatcher;
  readonly store: IssueStateStore;
  /** Names the repository in issue records and job ids (`owner/name`, or the checkout path). */
  readonly repo: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Where a successful run's work goes (`--land`); null/absent: the workflow's `land`, else the dispatcher's default. */
  readonly landing?: LandingConfig | null;
  /**
   * How many times in a row an issue's run may be interrupted (stopped, killed, the model API out
   * of reach) and resumed; the next time it fails and takes the fallback phase. Default 5.
   */
  readonly maxInterruptions?: number;
}

export const DEFAULT_MAX_INTERRUPTIONS = 5;
