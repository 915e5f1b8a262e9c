import type { JsonValue } from "@climpt/model";
import type { RouterState } from "@climpt/router";
import type { HistoryEntry } from "./run-result.ts";
import type { PendingRetry, StepEnd } from "./step-end.ts";

/**
 * What the flow loop carries from one iteration to the next. It changes only at the end of a
 * step, by `applyStepEnd` of the same `StepEnd` record the journal stores, so folding a journal
 * gives exactly the state the live run had (resume depends on it). The run's usage is not in
 * here: it changes with every model call, so the `UsageMeter` holds it.
 */
export interface RunState {
  readonly routerState: RouterState;
  /**
   * Step id → its latest execution's handoff by short key (prompts read it as
   * `uv-<id>_<key>`). Every execution's full output is in the journal (`step_end.output`), not
   * held in memory, so a long run does not grow.
   */
  readonly handoff: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  /** Step id → its latest execution's handoff by full dot path. */
  readonly handoffPaths: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  /** Key → the value most recently handed off under it, by any step (conditional transitions). */
  readonly flatHandoff: Readonly<Record<string, JsonValue>>;
  readonly history: readonly HistoryEntry[];
  readonly pendingRetry: PendingRetry | null;
  readonly consecutiveSchemaFailures: number;
  /** The `summary` field (or text) of the previous execution: UV `previous_summary`. */
  readonly previousSummary: string;
}

export function initialRunState(routerState: RouterState): RunState {
  return {
    routerState,
    handoff: {},
    handoffPaths: {},
    flatHandoff: {},
    history: [],
    pendingRetry: null,
    consecutiveSchemaFailures: 0,
    previousSummary: "",
  };
}

function withKey<T>(record: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const copy: Record<string, T> = { ...record };
  // defineProperty: a step id like "__proto__" stays an ordinary own key.
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function summaryOf(output: JsonValue): string {
  if (typeof output === "string") return output.slice(0, 2000);
  if (output !== null && typeof output === "object" && !Array.isArray(output)) {
    const summary = output.summary;
    if (typeof summary === "string") return summary;
  }
  return "";
}

/** The state after a step ended, as its `StepEnd` (a journal's `step_end` event is one) says. */
export function applyStepEnd(state: RunState, end: StepEnd): RunState {
  const hasHandoff = Object.keys(end.handoff).length > 0;
  let flatHandoff = state.flatHandoff;
  for (const [key, value] of Object.entries(end.handoff)) {
    flatHandoff = withKey(flatHandoff, key, value);
  }
  return {
    routerState: end.routerState,
    handoff: hasHandoff ? withKey(state.handoff, end.stepId, end.handoff) : state.handoff,
    handoffPaths:
      Object.keys(end.handoffPaths).length > 0
        ? withKey(state.handoffPaths, end.stepId, end.handoffPaths)
        : state.handoffPaths,
    flatHandoff,
    history: [...state.history, end.history],
    pendingRetry: end.pendingRetry,
    consecutiveSchemaFailures: end.consecutiveSchemaFailures,
    previousSummary: summaryOf(end.output) || state.previousSummary,
  };
}
