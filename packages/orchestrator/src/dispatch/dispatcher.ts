import type { JsonValue } from "@climpt/model";
import type { OrchestratorError } from "../codes.ts";
import type { LandingConfig, LandingMode, WorkflowAgent } from "../workflow-model.ts";

/** The issue a run works on. */
export interface DispatchIssue {
  /** `owner/name`, or the checkout path when the repository is gh's default. */
  readonly repo: string;
  readonly number: number;
  readonly title: string;
}

/** What the run looks like once it has started: enough to find it again after a crash. */
export interface StartedRun {
  readonly runId: string;
  readonly journalPath: string | null;
  readonly worktree: string | null;
}

export interface DispatchRequest {
  readonly issue: DispatchIssue;
  readonly phase: string;
  readonly agent: WorkflowAgent;
  /**
   * Continue this unfinished run instead of starting one: its completed model calls are served
   * from its journal, not repeated. `runId` null: the crash came before the orchestrator learnt
   * the run's id; the dispatcher looks for the agent's newest run in the issue's worktree
   * started at or after `startedAt`.
   */
  readonly resume?: { readonly runId: string | null; readonly startedAt: string };
  /** Called once the run has an id, before its first model call completes. */
  readonly onRunStarted?: (run: StartedRun) => void;
  /** Stops the run (resumably): the orchestrator stopping, or the issue's lock lost. */
  readonly signal?: AbortSignal;
  /**
   * The issue's payload (from artifact handoffs, or `--payload`): keys the agent declares as
   * parameters are passed as its arguments, as the original passes it.
   */
  readonly payload?: Readonly<Record<string, JsonValue>> | null;
  /** Files the issue's handoffs emitted: written into the worktree before the run. */
  readonly artifacts?: readonly IssueArtifact[];
  /**
   * Whether the orchestrator still holds the issue, asked right before a write the run makes
   * where other workers see it (the step-end push of the issue's branch): a run whose lock was
   * lost pushes nothing. Absent: always.
   */
  readonly holds?: () => Promise<boolean>;
}

export interface DispatchOutcome {
  /** The run completed (the completion chain said done). */
  readonly success: boolean;
  /** The run's verdict: what a validator's `outputPhases` are keyed by. */
  readonly verdict: string | null;
  /** Why the run failed, when it did. */
  readonly error: OrchestratorError | null;
  readonly runId: string | null;
  readonly journalPath: string | null;
  /**
   * True when the run did not reach an outcome of the agent's own: it could not start, was
   * stopped by a signal, or the model API kept failing. The issue then stays in its phase and the
   * run is resumed on the next pass, instead of sending the issue to its fallback phase.
   */
  readonly interrupted: boolean;
  /**
   * The run ended because it reached a budget: through the agent's `onBudget` step
   * (`RunResult.budget`) or without one (`AGENT_BUDGET_EXCEEDED`). The phase machine knows it as
   * the outcome `budget`.
   */
  readonly budget?: boolean;
  /** Values for the comment templates: the run's handoff and final output, as text. */
  readonly values: Readonly<Record<string, string>>;
  /** The issue's worktree branch, when the run had one. */
  readonly branch: string | null;
  /**
   * The run's final structured output (the closure step's, for a run that completed): what a
   * handoff's `$.agent.result.*` expressions read. Null when there is none.
   */
  readonly output?: JsonValue | null;
  /**
   * The run's completion ledger as markdown (its last passing validation: validator, command,
   * result, commit, time, and the `climpt verify` line): handoff comments carry it, and
   * templates may place it with `{ledger}`. Absent when no validation passed on a commit.
   */
  readonly evidence?: string | null;
}

/** A handoff's artifact: a file written into the issue's worktree before its next runs. */
export interface IssueArtifact {
  readonly handoff: string;
  /** Relative to the issue's worktree. */
  readonly path: string;
  /** The file's text (the payload as JSON). */
  readonly content: string;
}

/** Where a successful run's work goes (see `LandingConfig`), as the dispatcher is asked for it. */
export interface LandRequest {
  readonly issue: DispatchIssue;
  /** The issue's branch the run worked on. */
  readonly branch: string;
  /** The workflow's `land` (or the command line's); null: the dispatcher's default. */
  readonly landing: LandingConfig | null;
  readonly signal?: AbortSignal;
  /** Asked right before a write others see (a merge, a push, a pull request). */
  readonly holds?: () => Promise<boolean>;
  /**
   * The run's completion ledger as markdown (`DispatchOutcome.evidence`): a pull request the
   * landing opens carries it in its body, so the reviewer sees what was checked on which commit.
   */
  readonly evidence?: string;
}

export interface Landed {
  readonly mode: LandingMode;
  /** The branch merged into or targeted. */
  readonly base: string | null;
  /** Commits of the issue's branch the base did not have (0: nothing to land). */
  readonly commits: number;
  /** `<remote>/<branch>` once pushed. */
  readonly pushed: string | null;
  /** The pull request's URL (mode `pull-request`). */
  readonly pullRequest: string | null;
}

/** The prioritizer's run: it orders a batch. */
export interface PrioritizeRequest {
  readonly agent: WorkflowAgent;
  readonly issues: readonly DispatchIssue[];
  readonly signal?: AbortSignal;
}

export interface PrioritizeOutcome {
  readonly success: boolean;
  /** The run's final output, where the order is read from. */
  readonly output: unknown;
  readonly error: OrchestratorError | null;
  readonly runId: string | null;
}

/**
 * How a phase's agent is run for an issue. The orchestrator decides what to run and what the
 * outcome means; a dispatcher only runs it: `RunnerDispatcher` as a climpt run in the issue's
 * worktree, a test double in unit tests.
 */
export interface Dispatcher {
  dispatch(request: DispatchRequest): Promise<DispatchOutcome>;
  prioritize?(request: PrioritizeRequest): Promise<PrioritizeOutcome>;
  /**
   * Makes a successful run's work reachable before the issue moves on: merges the issue's branch
   * into the base, or pushes it and opens a pull request. A dispatcher without it (a test double)
   * lands nothing.
   */
  land?(
    request: LandRequest,
  ): Promise<{ ok: true; value: Landed } | { ok: false; error: OrchestratorError }>;
}
