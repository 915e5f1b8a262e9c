import type { JsonValue, Problem } from "@climpt/model";
import type { LedgerAttempt } from "./ledger.ts";

/** One step execution, as the run result and the programmatic API report it. */
export interface HistoryEntry {
  readonly iteration: number;
  readonly stepId: string;
  /** The intent the gate read (gate dialect), or null (check dialect, failed steps). */
  readonly intent: string | null;
  /**
   * Where the flow went: the next step id, `closing` / `complete` (the completion chain ran),
   * `validation-retry:<step>` (validation failed, back to that step), `abort`, or `error`.
   */
  readonly transition: string;
  /** The check-dialect check's verdict for this execution, or null. */
  readonly checkResult: { readonly passed: boolean; readonly message: string } | null;
}

export interface RunUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadInputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly costUsd: number;
}

/**
 * Why a run failed: the one `Problem` shape every coded failure has (docs/design.md#errors).
 * `code` is the specific code (`SR-INTENT-007`, `AC-STEP-001`, `AGENT_MAX_ITERATIONS`); `family`
 * is the run-level code it belongs to when that is another one (`FAILED_STEP_ROUTING`,
 * `GATE_INTERPRETATION_ERROR`, `FAILED_SCHEMA_RESOLUTION`). A caller that routes on the
 * run-level outcome reads `family ?? code`.
 */
export type RunError = Problem;

/**
 * What a boundary hook did, as reported in the result (a failed hook is never swallowed):
 * every action with its command and output, and every problem with its code and reason.
 */
export interface BoundaryReport {
  readonly ok: boolean;
  readonly actions: readonly JsonValue[];
  readonly problems: readonly Problem[];
}

/**
 * What a run in worktree mode did with its worktree and branch when it ended
 * (docs/design.md#worktrees). After a failed run everything is kept (for `climpt resume`),
 * unless the run failed before anything ran in the worktree: then it is removed.
 */
export interface WorktreeReport {
  readonly path: string;
  readonly branch: string;
  /** The branch the worktree was made from and is merged back into; null on a detached HEAD. */
  readonly baseBranch: string | null;
  /** The branch was merged into the base branch (false with `--no-merge`, `--create-pr`, or nothing to merge). */
  readonly merged: boolean;
  /** Commits of the branch the merge brought into the base branch. */
  readonly commits: number;
  /** `<remote>/<ref>` that was pushed, or null. */
  readonly pushed: string | null;
  /** The pull request `gh pr create` opened, or null. */
  readonly pr: { readonly url: string; readonly base: string } | null;
  /** The worktree folder was removed. */
  readonly removed: boolean;
}

/**
 * A budget a run reached (docs/design.md#limits-and-budgets): the run's tokens, cost or
 * iteration cap, or one step's own `limits`. The numbers are what the journal had counted, so a
 * resumed or relocated run reaches it at the same point as the run would have without the stop.
 */
export interface BudgetReached {
  /** Which budget: `maxTokens` (input + output tokens), `maxCostUsd` or `maxIterations`. */
  readonly limit: "maxTokens" | "maxCostUsd" | "maxIterations";
  /** The step whose own `limits` were reached; absent for the run's budgets. */
  readonly stepId?: string;
  /** The budget. */
  readonly max: number;
  /** What was spent when it was checked (tokens, USD, or iterations / executions). */
  readonly spent: number;
  /** The step the run went to (the registry's `onBudget`); null when the agent declares none. */
  readonly onBudget: string | null;
}

/**
 * The run result (docs/design.md#the-run-result). `climpt run --json` prints exactly this object,
 * and `StepFlowRunner#run` returns it.
 */
export interface RunResult {
  readonly runId: string;
  readonly success: boolean;
  readonly finalStepId: string | null;
  readonly completionReason: string;
  readonly iterations: number;
  /**
   * The `verdict` string of the closure step's output the run ended with (what the orchestration
   * layer routes on, as the original runtime's result carries it); absent when there is none.
   */
  readonly verdict?: string;
  /**
   * The output of the last step the run recorded (`step_end.output`: the structured output, or
   * the text of a step without a schema): the closure step's for a run that completed, the step
   * it stopped at for one that failed. Absent when no step ended, and in results journaled
   * before it. A caller learns how the run ended from here, without reading the journal.
   */
  readonly output?: JsonValue;
  /** Only when success is false. */
  readonly error?: RunError;
  readonly state: {
    readonly history: readonly HistoryEntry[];
    /** Step id → the handoff values of its latest execution, by short key. */
    readonly handoff: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  };
  readonly usage: RunUsage;
  /**
   * The completion ledger: every validation attempt of the run (resumed sessions' too), with
   * the commit it ran against. Absent when no validation ran, and in results journaled before it.
   */
  readonly ledger?: readonly LedgerAttempt[];
  /** The boundary hook's report, when one ran. */
  readonly boundary?: BoundaryReport;
  /** Worktree mode: what happened to the worktree and its branch. */
  readonly worktree?: WorktreeReport;
  /**
   * The budget the run reached, when it ended because of one: through its `onBudget` step
   * (`error.code` `RUN-BUDGET-001`) or without one (`AGENT_BUDGET_EXCEEDED`). A caller that
   * routes on outcomes (the orchestrator) tells a budget ending from other failures by it.
   */
  readonly budget?: BudgetReached;
  /** Where the journal is; `climpt run --resume <runId>` continues from it. */
  readonly journalPath: string | null;
  /** Whether `--resume` can continue this run (it failed or was interrupted). */
  readonly resumable: boolean;
  readonly durationMs: number;
}
