import type { IterationRecord, VerdictStrategy } from "@climpt/completion-chain";
import type { JsonValue, StepKind } from "@climpt/model";
import type { StepEndEvent } from "../run-event.ts";
import type { InterpretedStep } from "./step-end.ts";

/**
 * What the verdict strategy is told about a step execution (count:iteration counts executions,
 * count:check counts checks, detect:* and custom verdicts read the output): one record, built by
 * one function from the fields a step end journals, so the live run (from the interpreted step,
 * before it routes) and resume (from each journaled `step_end`) feed the verdict the same
 * inputs and reach the same verdict.
 */

/** The fields of a step end the verdict sees; `InterpretedStep` and `step_end` both carry them. */
export interface ObservedStep {
  readonly iteration: number;
  readonly stepId: string;
  readonly intent: string | null;
  /** The step's output as journaled: its structured output, else its text. */
  readonly output: JsonValue;
  readonly checkResult: { readonly passed: boolean; readonly message: string } | null;
}

/**
 * The verdict's record of one execution. `text` is the journaled output when that is text (a
 * step without structured output), else empty: the journal keeps a structured step's output, not
 * the prose around it, and the verdict must see on resume what it saw live. The closure text
 * the completion chain decides on is passed to `decide` separately.
 */
export function verdictRecordOf(observed: ObservedStep, stepKind: StepKind): IterationRecord {
  return {
    iteration: observed.iteration,
    stepId: observed.stepId,
    stepKind,
    intent: observed.intent ?? undefined,
    output: observed.output,
    text: typeof observed.output === "string" ? observed.output : "",
    ...(observed.checkResult === null ? {} : { check: observed.checkResult }),
  };
}

/** Live: tells the verdict what the interpreted step said, before the flow routes on it. */
export function observeInterpreted(
  verdict: Pick<VerdictStrategy, "observe">,
  interpreted: InterpretedStep,
): void {
  verdict.observe(
    verdictRecordOf(
      {
        iteration: interpreted.iteration,
        stepId: interpreted.step.id,
        intent: interpreted.intent,
        output: interpreted.output,
        checkResult: interpreted.checkResult,
      },
      interpreted.step.kind,
    ),
  );
}

/**
 * Resume: tells the verdict what a journaled step end said, as the live run did. A schema
 * failure's step end carries no answer and was never shown to the verdict; a final one is the
 * step resume runs again.
 */
export function observeJournaledStepEnd(
  verdict: Pick<VerdictStrategy, "observe">,
  event: Pick<StepEndEvent, "iteration" | "stepId" | "output" | "history" | "final">,
  stepKind: StepKind,
): void {
  if (event.final || event.history.transition === "schema-failure") return;
  verdict.observe(
    verdictRecordOf(
      {
        iteration: event.iteration,
        stepId: event.stepId,
        intent: event.history.intent,
        output: event.output,
        checkResult: event.history.checkResult,
      },
      stepKind,
    ),
  );
}
