import type { JsonValue } from "@climpt/model";
import type { RouterState } from "@climpt/router";
import type { StepEndEvent } from "./run-event.ts";
import type { HistoryEntry, RunUsage } from "./run-result.ts";

export const ZERO_TOTALS: RunUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  costUsd: 0,
});

/**
 * What the flow loop carries from one iteration to the next. It changes only at the end of a
 * step (`applyStepEnd`), from the same `step_end` event the journal stores, so folding a journal
 * gives exactly the state the live run had (resume depends on it).
 */
export interface RunState {
  readonly routerState: RouterState;
  /**
   * Step id → its latest execution's handoff by short key (seed 002: `uv-<id>_<key>`). Every
   * execution's full output is in the journal (`step_end.output`), not held in memory, so a long
   * run does not grow.
   */
  readonly handoff: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  /** Step id → its latest execution's handoff by full dot path. */
  readonly handoffPaths: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  /** Key → the value most recently handed off under it, by any step (conditional transitions). */
  readonly flatHandoff: Readonly<Record<string, JsonValue>>;
  readonly history: readonly HistoryEntry[];
  readonly totals: RunUsage;
  readonly pendingRetry: { readonly stepId: string; readonly text: string } | null;
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
    totals: ZERO_TOTALS,
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

/** The state after a step ended, as recorded by its `step_end` event. */
export function applyStepEnd(state: RunState, event: StepEndEvent): RunState {
  const hasHandoff = Object.keys(event.handoff).length > 0;
  let flatHandoff = state.flatHandoff;
  for (const [key, value] of Object.entries(event.handoff)) {
    flatHandoff = withKey(flatHandoff, key, value);
  }
  return {
    routerState: event.routerState,
    handoff: hasHandoff ? withKey(state.handoff, event.stepId, event.handoff) : state.handoff,
    handoffPaths:
      Object.keys(event.handoffPaths).length > 0
        ? withKey(state.handoffPaths, event.stepId, event.handoffPaths)
        : state.handoffPaths,
    flatHandoff,
    history: [...state.history, event.history],
    totals: event.totals,
    pendingRetry: event.pendingRetry,
    consecutiveSchemaFailures: event.consecutiveSchemaFailures,
    previousSummary: summaryOf(event.output) || state.previousSummary,
  };
}
