// `StepEnd`: the in-memory record of one finished step and where the flow goes next, built by the
// step's dialect phase; journal/step-end-record.ts is its journal form, step-outcome.ts what a
// phase returns around it, run/announce-step-end.ts the caller's hook told about it.

import type { JsonValue, Step } from "@climpt/model";
import type { PendingRetry, StepEnd } from "@climpt/protocol";
import type { RouterState } from "@climpt/router";
import type { RunUsage } from "../run-result.ts";

export type { PendingRetry, StepEnd } from "@climpt/protocol";

/** The check-dialect check's verdict for one execution. */
export interface CheckResult {
  readonly passed: boolean;
  readonly message: string;
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
