/**
 * The router's state and the reason it gives for each step, as the journal records them. They
 * live here rather than in @climpt/router because they are contracts other packages carry: the
 * journal's `step_end` and `route` events (@climpt/protocol) hold them, and protocol may depend
 * on this package alone. @climpt/router re-exports them by name and owns every function on them.
 */
import type { GateIntent } from "./intents.ts";

/**
 * Why the flow moves to a step: the intent that chose it (`next`, `repeat`, `jump`, `handoff`,
 * `escalate`), the `initial.X` → `continuation.X` default (`continuation`), a check-dialect
 * reason, the return after a failed validation (`validation-retry`), or a budget verdict that
 * sent the flow into closure (`enter-closure`). These are all the values there are.
 */
export type StepVia =
  | "next"
  | "repeat"
  | "jump"
  | "handoff"
  | "escalate"
  | "continuation"
  | "min-iterations"
  | "check-again"
  | "check-pass"
  | "check-retry"
  | "check-fallback"
  | "validation-retry"
  | "enter-closure";

/**
 * Everything the router needs to remember between decisions, as plain JSON: a journal stores it
 * and `JSON.parse(JSON.stringify(state))` gives back an equal state (no undefined, no Maps).
 * Handoff values are not in here: they belong to the runner's step context, and routing only
 * reads the ones a conditional transition names (passed in per call).
 *
 * Every function returns a new state; a state is never mutated.
 */
export interface RouterState {
  /**
   * The run iteration in progress, 1-based: the step at `stepId` runs (or ran) as this
   * iteration. A run that ends with this state made `iteration` step executions.
   */
  readonly iteration: number;
  /** The step that runs as `iteration`. */
  readonly stepId: string;
  /** The step the flow came from, or null at the entry step. */
  readonly previousStepId: string | null;
  /** The last intent `route` acted on (gate dialect), or null. */
  readonly lastIntent: GateIntent | null;
  /**
   * Executions of `stepId` recorded in the current visit. A visit starts when the flow enters
   * a step from another step (or a check-dialect `retry` starts a fresh one).
   */
  readonly visitExecutions: number;
  /**
   * Per-step totals over the whole run, one entry per step that has run, in order of first
   * execution. A list rather than a record keyed by step id: copying a list stays cheap when a
   * registry has hundreds of steps, where copying a large object does not (see the router's
   * bench). Read it with @climpt/router's `stepCountOf`.
   */
  readonly stepCounts: readonly StepCount[];
  /**
   * Check-dialect `onFail.retry` visits of `stepId` since the flow last entered it from another
   * step; compared with `maxRetries`.
   */
  readonly checkRetries: number;
  /** Failed validations per closure step that sent the flow back (`returnAfterFailedValidation`). */
  readonly validationAttempts: Readonly<Record<string, number>>;
  /**
   * Closure step id → the step that led into it (docs/design.md#transitions-and-the-router: a
   * failed validation returns to that step with the retry prompt).
   */
  readonly closureLeadIn: Readonly<Record<string, string>>;
  /**
   * The work step that ran most recently, or null. A verification step between work and closure
   * does not change where a failed validation returns: to this work step.
   */
  readonly lastWorkStepId: string | null;
  /** True between `beforeCheck` saying "run the check" and `routeCheck` (check dialect). */
  readonly awaitingCheck: boolean;
}

/** How often one step ran and repeated over the run. */
export interface StepCount {
  readonly stepId: string;
  /** Recorded executions. */
  readonly executions: number;
  /**
   * `repeat` intents it emitted (gate dialect), or executions its check's `onFail.retry`
   * started (check dialect: they are bounded by `maxRetries`, not by `iterations.max`).
   */
  readonly retries: number;
}
