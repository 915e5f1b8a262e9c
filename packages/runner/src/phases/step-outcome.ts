// `StepOutcome`: what a phase returns to the flow loop, either go on with a `StepEnd`
// (phases/step-end.ts) or end the run (`RunEnding`); the decision, not the record of the step.

import type { BoundaryRequest } from "@climpt/completion-chain";
import type { JsonValue } from "@climpt/model";
import { continuesMidStep } from "../run/run-errors.ts";
import type { RunState } from "../run/run-state.ts";
import type { BudgetReached, RunError, RunUsage } from "../run-result.ts";
import { type InterpretedStep, type StepEnd, stepEnd, unanswered } from "./step-end.ts";

/** The boundary hook a validated completion still has to run before the run ends. */
export interface PendingBoundary {
  readonly closureOutput: JsonValue;
  readonly boundaryRequests: readonly BoundaryRequest[];
  /** The verdict (poll:state) is met only once the hook acted: confirm it afterwards. */
  readonly awaitsBoundary: boolean;
}

/** How the run ends; `finishRun` turns it into the result. */
export interface RunEnding {
  /** The step the run ended at; null: the step the router state is at. */
  readonly finalStepId: string | null;
  /** Absent: the run succeeded. */
  readonly error?: RunError;
  readonly completionReason?: string;
  /** The closure output's `verdict`, when the run ended at a closure step that carries one. */
  readonly verdict?: string;
  /** The last step's record, written before the boundary hook and `run_end`. */
  readonly stepEnd?: StepEnd;
  /** Success only: the boundary hook to run. */
  readonly boundary?: PendingBoundary;
  /** The budget the run reached, when that is why it ends (`RunResult.budget`). */
  readonly budget?: BudgetReached;
}

/**
 * What each phase of an iteration returns: the run continues with the step's record (the loop
 * journals and folds it), or the run ends. Phases never journal a `step_end` or end the run
 * themselves.
 */
export type StepOutcome =
  | { readonly kind: "continue"; readonly stepEnd: StepEnd }
  | { readonly kind: "end"; readonly ending: RunEnding };

export function continueWith(record: StepEnd): StepOutcome {
  return { kind: "continue", stepEnd: record };
}

/** The run ends outside any step (a stop or a budget before it started, a missing step). */
export function endRun(error: RunError, finalStepId: string | null = null): StepOutcome {
  return { kind: "end", ending: { finalStepId, error } };
}

/**
 * The run ends at `interpreted.step` with `error`. The step's final `step_end` is recorded when
 * it ran and ended on what the model said (its output was refused, it aborted, it hit the cap):
 * the history shows it, and resume runs it again live. A step that never ran (its prompt did not
 * resolve) or was cut off (a stop, a budget, an API error) gets none: resume serves its recorded
 * replies from the journal instead.
 */
export function endAtStep(
  state: RunState,
  interpreted: InterpretedStep,
  error: RunError,
  totals: RunUsage,
  options: { readonly ran: boolean; readonly transition?: string } = { ran: true },
): StepOutcome {
  const record =
    options.ran && !continuesMidStep(error.code)
      ? stepEnd(
          interpreted,
          {
            transition: options.transition ?? "error",
            routerState: state.routerState,
            final: true,
          },
          totals,
        )
      : undefined;
  return {
    kind: "end",
    ending: {
      finalStepId: interpreted.step.id,
      error,
      ...(record === undefined ? {} : { stepEnd: record }),
    },
  };
}

/** The router's code for a move refused by the run's iteration cap (@climpt/router advance.ts). */
const RUN_CAP_REFUSED = "AGENT_MAX_ITERATIONS";

/**
 * The run ends at `interpreted.step` because the router refused the move the step chose. The
 * run's iteration cap refuses a move that was otherwise sound: the step's output and handoff are
 * what it found, so its record keeps them, and a run with an `onBudget` step hands them on to it
 * (run-session.ts turns this ending into the move there). Any other refusal (a move the flow
 * does not allow) records the step as unanswered: its output led nowhere.
 */
export function routeRefused(
  state: RunState,
  interpreted: InterpretedStep,
  error: RunError,
  totals: RunUsage,
): StepOutcome {
  const kept =
    error.code === RUN_CAP_REFUSED
      ? interpreted
      : {
          ...unanswered(interpreted.step, interpreted.iteration),
          checkResult: interpreted.checkResult,
        };
  return endAtStep(state, kept, error, totals);
}
