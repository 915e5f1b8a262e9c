import { problem, type Step } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import type { RunContext } from "../run/run-context.ts";
import { inFamily, problemError } from "../run/run-errors.ts";
import type { RunState } from "../run/run-state.ts";
import type { PhaseResult } from "./model-phase.ts";
import { stepEnd, unanswered } from "./step-end.ts";
import { continueWith, endAtStep, type StepOutcome } from "./step-outcome.ts";

/** Schema failures in a row that end the run with `FAILED_SCHEMA_RESOLUTION`. */
const SCHEMA_FAILURES_THAT_END_THE_RUN = 2;

/**
 * A step's model phase gave no usable output. A schema failure spends the iteration and the
 * step runs again as the next one (`router.skipIteration`, with the same prompt or pending retry
 * prompt); two in a row end the run with `FAILED_SCHEMA_RESOLUTION`. Anything else ends the run.
 */
export function afterFailedPhase(
  ctx: RunContext,
  state: RunState,
  step: Step,
  failure: Extract<PhaseResult, { ok: false }>,
): StepOutcome {
  const iteration = state.routerState.iteration;
  const nothing = unanswered(step, iteration);
  const totals = ctx.usage.totals;
  if (failure.kind === "fatal") {
    return endAtStep(state, nothing, failure.error, totals, { ran: failure.ran });
  }
  const consecutive = state.consecutiveSchemaFailures + 1;
  ctx.events.emit({
    type: "step_failed",
    iteration,
    stepId: step.id,
    error: failure.error,
    consecutiveSchemaFailures: consecutive,
  });
  if (consecutive >= SCHEMA_FAILURES_THAT_END_THE_RUN) {
    // The run-level code is the family; the last failure's code (AC-STEP-001 no JSON in the
    // reply, AC-STEP-002 JSON that does not match the schema) stays the specific one.
    const error = inFamily(
      problem(
        failure.error.code,
        `Step "${step.id}" failed to produce output matching its schema twice in a row. Last: ${failure.error.message}`,
        {
          hint: "Make the prompt say exactly which JSON object to return, or loosen the step's output schema.",
        },
      ),
      RUNNER_CODES.schemaResolution,
    );
    return endAtStep(state, nothing, error, totals, { ran: true, transition: "error" });
  }
  const next = ctx.router.skipIteration(state.routerState);
  if (!next.ok) return endAtStep(state, nothing, problemError(next.issues), totals);
  return continueWith(
    stepEnd(
      nothing,
      {
        transition: "schema-failure",
        routerState: next.value,
        pendingRetry: state.pendingRetry,
        consecutiveSchemaFailures: consecutive,
      },
      totals,
    ),
  );
}
