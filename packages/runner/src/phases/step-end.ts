// `StepEnd`: the in-memory record of one finished step and where the flow goes next, built by the
// step's dialect phase; journal/step-end-record.ts is its journal form, step-outcome.ts what a
// phase returns around it, run/announce-step-end.ts the caller's hook told about it.

import type { JsonValue, Step } from "@climpt/model";
import type { RouterState } from "@climpt/router";
import type { HistoryEntry, RunUsage } from "../run-result.ts";

/** The check-dialect check's verdict for one execution. */
export interface CheckResult {
  readonly passed: boolean;
  readonly message: string;
}

/** A retry prompt the next iteration uses instead of its step prompt. */
export interface PendingRetry {
  readonly stepId: string;
  readonly text: string;
}

/**
 * A step finished and the flow decided where to go: the one record of it. The step's dialect
 * phase builds it where it interprets the step; the journal stores it as the `step_end` event
 * (with `type`, `runId`, `time` and `seq` added) and `applyStepEnd` folds it into the run state,
 * the live run and resume alike, so a folded journal is exactly the state the live run had.
 */
export interface StepEnd {
  readonly iteration: number;
  readonly stepId: string;
  readonly history: HistoryEntry;
  /** The router state the next iteration starts from. */
  readonly routerState: RouterState;
  /** This execution's full structured output (or text), kept for the journal and completion. */
  readonly output: JsonValue;
  /** This execution's handoff by short key. */
  readonly handoff: Readonly<Record<string, JsonValue>>;
  /** This execution's handoff by full dot path (gate handoffFields). */
  readonly handoffPaths: Readonly<Record<string, JsonValue>>;
  /** A retry prompt the next iteration uses instead of its step prompt. */
  readonly pendingRetry: PendingRetry | null;
  readonly consecutiveSchemaFailures: number;
  /** The run's usage after this step. */
  readonly totals: RunUsage;
  /** Set when this step ended the run (success or failure): the run_end follows. */
  readonly final: boolean;
}

/** What one execution of a step said, as its dialect interpreted it. */
export interface InterpretedStep {
  readonly step: Step;
  readonly iteration: number;
  /** The intent the gate read (gate dialect), or null. */
  readonly intent: string | null;
  readonly output: JsonValue;
  readonly handoff: Readonly<Record<string, JsonValue>>;
  readonly handoffPaths: Readonly<Record<string, JsonValue>>;
  readonly checkResult: CheckResult | null;
}

/** Where the flow went after the step. */
export interface StepMove {
  /** The next step's id, `closing` / `complete`, `validation-retry:<step>`, `schema-failure`, `abort` or `error`. */
  readonly transition: string;
  readonly routerState: RouterState;
  readonly pendingRetry?: PendingRetry | null;
  readonly consecutiveSchemaFailures?: number;
  readonly final?: boolean;
}

/** An execution that produced nothing the flow could use (no output, or a refused one). */
export function unanswered(step: Step, iteration: number): InterpretedStep {
  return {
    step,
    iteration,
    intent: null,
    output: null,
    handoff: {},
    handoffPaths: {},
    checkResult: null,
  };
}

export function stepEnd(interpreted: InterpretedStep, move: StepMove, totals: RunUsage): StepEnd {
  const { step, iteration } = interpreted;
  return {
    iteration,
    stepId: step.id,
    history: {
      iteration,
      stepId: step.id,
      intent: interpreted.intent,
      transition: move.transition,
      checkResult: interpreted.checkResult,
    },
    routerState: move.routerState,
    output: interpreted.output,
    handoff: interpreted.handoff,
    handoffPaths: interpreted.handoffPaths,
    pendingRetry: move.pendingRetry ?? null,
    consecutiveSchemaFailures: move.consecutiveSchemaFailures ?? 0,
    totals,
    final: move.final ?? false,
  };
}
