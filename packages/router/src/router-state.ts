import {
  fail,
  ok,
  problem,
  type Registry,
  type Result,
  type RouterState,
  type StepCount,
} from "@climpt/model";

// The state's shape lives in @climpt/model (the journal carries it, and @climpt/protocol may
// depend on model alone); this package owns every function on it and re-exports it by name.
export type { RouterState, StepCount } from "@climpt/model";

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
