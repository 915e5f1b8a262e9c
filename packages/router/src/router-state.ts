import { fail, type GateIntent, ok, problem, type Registry, type Result } from "@climpt/model";

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
   * registry has hundreds of steps, where copying a large object does not (see the bench).
   * Read it with `stepCountOf`.
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

/** The totals of `stepId` (zeros for a step that has not run). */
export function stepCountOf(state: RouterState, stepId: string): StepCount {
  return (
    state.stepCounts.find((count) => count.stepId === stepId) ?? {
      stepId,
      executions: 0,
      retries: 0,
    }
  );
}

/** A copy of the counts with `stepId`'s entry changed by `update`. */
export function updateStepCount(
  counts: readonly StepCount[],
  stepId: string,
  update: (count: StepCount) => StepCount,
): StepCount[] {
  // From the end: the step that just ran is usually the one most recently added.
  let index = counts.length - 1;
  while (index >= 0 && (counts[index] as StepCount).stepId !== stepId) index -= 1;
  if (index === -1) return [...counts, update({ stepId, executions: 0, retries: 0 })];
  const copy = counts.slice();
  copy[index] = update(counts[index] as StepCount);
  return copy;
}

export function hasStep(registry: Registry, stepId: string): boolean {
  // Own keys only: a model-supplied jump target such as "constructor" is not a step.
  return Object.hasOwn(registry.steps, stepId);
}

export function countOf(record: Readonly<Record<string, number>>, key: string): number {
  return Object.hasOwn(record, key) ? (record[key] ?? 0) : 0;
}

export function lookup<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A copy of `record` with `key` set; defineProperty keeps any step id an ordinary own key. */
export function withEntry<T>(
  record: Readonly<Record<string, T>>,
  key: string,
  value: T,
): Record<string, T> {
  const copy: Record<string, T> = { ...record };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/**
 * The state at the start of a run: iteration 1 at the entry step (resolve it with
 * `resolveEntryStep` from `@climpt/registry-schema`). An entry step the registry lacks is
 * `SR-ENTRY-002` (static analysis reports it before a run starts), returned like every other
 * refusal of the router so a caller has one error channel.
 */
export function createRouterState(registry: Registry, entryStepId: string): Result<RouterState> {
  if (!hasStep(registry, entryStepId)) {
    return fail([
      problem("SR-ENTRY-002", `Entry step "${entryStepId}" does not exist in the registry.`, {
        path: "$.entryStep",
        hint: `Add step "${entryStepId}" to steps, or point entryStep / entryStepMapping at an existing step.`,
      }),
    ]);
  }
  return ok({
    iteration: 1,
    stepId: entryStepId,
    previousStepId: null,
    lastIntent: null,
    visitExecutions: 0,
    stepCounts: [],
    checkRetries: 0,
    validationAttempts: {},
    closureLeadIn: {},
    lastWorkStepId: null,
    awaitingCheck: false,
  });
}

/** The execution of the current step has finished: count it. */
export function recordExecution(state: RouterState): RouterState {
  return {
    ...state,
    visitExecutions: state.visitExecutions + 1,
    stepCounts: updateStepCount(state.stepCounts, state.stepId, (count) => ({
      ...count,
      executions: count.executions + 1,
    })),
  };
}
