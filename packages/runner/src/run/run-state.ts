import { HandoffVariables } from "@climpt/c3l-resolver";
import type { JsonValue, Registry } from "@climpt/model";
import type { RouterState } from "@climpt/router";
import type { PendingRetry, StepEnd } from "../phases/step-end.ts";
import type { BudgetReached, HistoryEntry, RunUsage } from "../run-result.ts";
import { ZERO_TOTALS } from "./usage-meter.ts";

/**
 * What the flow loop carries from one iteration to the next. It changes only at the end of a
 * step, by `applyStepEnd` of the same `StepEnd` record the journal stores, so folding a journal
 * gives exactly the state the live run had (resume depends on it). The run's usage is not in
 * here: it changes with every model call, so the `UsageMeter` holds it.
 *
 * The collections (handoff, history) are updated in place, not copied, so a step end costs the
 * same at step 10,000 as at step 10 (docs/design.md#the-journal-and-resume). A state passed to
 * `applyStepEnd` is therefore superseded by the one it returns: read only the newest.
 */
export interface RunState {
  readonly routerState: RouterState;
  /**
   * Step id → its latest execution's handoff by short key (prompts read it as
   * `uv-<id>_<key>`). Every execution's full output is in the journal (`step_end.output`), not
   * held in memory, so a long run does not grow.
   */
  readonly handoff: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  /** The same handoff, indexed by UV variable name: what prompts read (`uv-<id>_<key>`). */
  readonly handoffVariables: HandoffVariables;
  /** Step id → its latest execution's handoff by full dot path. */
  readonly handoffPaths: Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;
  /** Key → the value most recently handed off under it, by any step (conditional transitions). */
  readonly flatHandoff: Readonly<Record<string, JsonValue>>;
  readonly history: readonly HistoryEntry[];
  readonly pendingRetry: PendingRetry | null;
  readonly consecutiveSchemaFailures: number;
  /** The `summary` field (or text) of the previous execution: UV `previous_summary`. */
  readonly previousSummary: string;
  /** The last step end's output: what the run result carries as `output`. */
  readonly lastOutput: JsonValue | undefined;
  /**
   * Step id → what its executions' model calls cost over the run: at each step end, the run's
   * totals minus those of the step end before (a resumed step's interrupted attempt included).
   * What a step's `limits.maxTokens` / `maxCostUsd` are checked against (run/budgets.ts).
   */
  readonly stepSpend: Readonly<Record<string, StepSpend>>;
  /** The run's usage totals at the last step end (zero before the first). */
  readonly lastTotals: RunUsage;
  /**
   * Set when a budget was reached and the run went to its `onBudget` step: that step's one
   * execution is under way, and the run ends after it. Never journaled as such: the session
   * finds the budget again from the counted totals, live and on resume.
   */
  readonly budget?: BudgetReached;
}

/** What one step's model calls have cost over the run so far. */
export interface StepSpend {
  readonly tokens: number;
  readonly costUsd: number;
}

/** `registry`: where the handoff's declared dot paths come from (UV names after the path). */
export function initialRunState(routerState: RouterState, registry: Registry): RunState {
  const handoffVariables = new HandoffVariables(registry);
  return {
    routerState,
    handoff: handoffVariables.byStep,
    handoffVariables,
    handoffPaths: {},
    flatHandoff: {},
    history: [],
    pendingRetry: null,
    consecutiveSchemaFailures: 0,
    previousSummary: "",
    lastOutput: undefined,
    stepSpend: Object.create(null) as Record<string, StepSpend>,
    lastTotals: ZERO_TOTALS,
  };
}

/** Sets `key` in place; defineProperty keeps a step id like "__proto__" an ordinary own key. */
function setKey<T>(record: Readonly<Record<string, T>>, key: string, value: T): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function summaryOf(output: JsonValue): string {
  if (typeof output === "string") return output.slice(0, 2000);
  if (output !== null && typeof output === "object" && !Array.isArray(output)) {
    const summary = output.summary;
    if (typeof summary === "string") return summary;
  }
  return "";
}

/**
 * The state after a step ended, as its `StepEnd` (a journal's `step_end` event is one) says.
 * Work proportional to this step's handoff only: the collections are updated in place.
 */
export function applyStepEnd(state: RunState, end: StepEnd): RunState {
  if (Object.keys(end.handoff).length > 0) {
    state.handoffVariables.set(end.stepId, end.handoff);
    for (const [key, value] of Object.entries(end.handoff)) setKey(state.flatHandoff, key, value);
  }
  if (Object.keys(end.handoffPaths).length > 0) {
    setKey(state.handoffPaths, end.stepId, end.handoffPaths);
  }
  (state.history as HistoryEntry[]).push(end.history);
  const before = state.stepSpend[end.stepId] ?? { tokens: 0, costUsd: 0 };
  setKey(state.stepSpend, end.stepId, {
    tokens:
      before.tokens +
      end.totals.inputTokens +
      end.totals.outputTokens -
      state.lastTotals.inputTokens -
      state.lastTotals.outputTokens,
    costUsd: before.costUsd + end.totals.costUsd - state.lastTotals.costUsd,
  });
  return {
    ...state,
    routerState: end.routerState,
    pendingRetry: end.pendingRetry,
    consecutiveSchemaFailures: end.consecutiveSchemaFailures,
    previousSummary: summaryOf(end.output) || state.previousSummary,
    lastOutput: end.output,
    lastTotals: end.totals,
  };
}

/**
 * The state in which the run's `onBudget` step runs as the next iteration instead of the step
 * that was next (docs/design.md#limits-and-budgets): a retry prompt meant for that step is
 * dropped, and `budget` marks the one execution the step has.
 */
export function enterOnBudget(state: RunState, onBudget: string, budget: BudgetReached): RunState {
  const router = state.routerState;
  const staying = router.stepId === onBudget;
  return {
    ...state,
    routerState: staying
      ? router
      : {
          ...router,
          stepId: onBudget,
          previousStepId: router.stepId,
          visitExecutions: 0,
          checkRetries: 0,
          awaitingCheck: false,
        },
    pendingRetry: null,
    consecutiveSchemaFailures: 0,
    budget,
  };
}
