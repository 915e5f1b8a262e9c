import { fail, ok, problem, type Registry, type Result, stepPath } from "@climpt/model";
import { advance, resolveIterationCap } from "./advance.ts";
import { contractViolation } from "./problems.ts";
import type { StepDecision } from "./route-decision.ts";
import { countOf, hasStep, lookup, type RouterState, withEntry } from "./router-state.ts";

export interface ReturnAfterValidationOptions {
  /** The closure step whose validation failed (the `closing` or `complete` decision's step). */
  readonly closureStepId: string;
  /**
   * `validationSteps[...].onFailure.maxAttempts`: how many times a failed validation may send
   * the flow back. Unlimited when absent (still bounded by the run cap).
   */
  readonly maxAttempts?: number;
  /** Run-wide iteration cap; `DEFAULT_RUN_ITERATION_CAP` (100) when absent. */
  readonly iterationCap?: number;
}

/** A step decision for the retry iteration; `attempt` counts failed validations of the closure. */
export interface ValidationRetryDecision extends StepDecision {
  readonly via: "validation-retry";
  readonly attempt: number;
}

/**
 * After the completion chain's validators failed for a closure step (seed 003 §14.8.3): the flow
 * returns to the step that led into the closure step (usually the work step that handed off),
 * and the runner uses the failure pattern's retry prompt for that iteration. A closure step the
 * flow started at has no lead-in: the closure step itself runs again. More failed validations
 * than `maxAttempts` end the run with `AGENT_VALIDATION_ABORT`.
 */
export function returnAfterFailedValidation(
  registry: Registry,
  state: RouterState,
  options: ReturnAfterValidationOptions,
): Result<ValidationRetryDecision> {
  const cap = resolveIterationCap(options.iterationCap);
  const closure = options.closureStepId;
  if (!hasStep(registry, closure)) {
    throw contractViolation(
      `returnAfterFailedValidation was called for "${closure}", which is not a step of the registry.`,
      "Pass the stepId of the closing (or complete) decision as closureStepId.",
    );
  }
  if (state.awaitingCheck) {
    throw contractViolation(
      `returnAfterFailedValidation was called while the check of step "${state.stepId}" is pending.`,
      "Finish the check with routeCheck first.",
    );
  }
  const attempt = countOf(state.validationAttempts, closure) + 1;
  if (options.maxAttempts !== undefined && attempt > options.maxAttempts) {
    return fail([
      problem(
        "AGENT_VALIDATION_ABORT",
        `Validation of closure step "${closure}" failed ${attempt} times; onFailure.maxAttempts is ${options.maxAttempts}, so the run stops.`,
        {
          path: `${stepPath(closure).replace("$.steps", "$.validationSteps")}.onFailure.maxAttempts`,
          hint: "Read the validator output in the journal and fix what it reports, or raise validationSteps.<closure>.onFailure.maxAttempts.",
        },
      ),
    ]);
  }
  const target = lookup(state.closureLeadIn, closure) ?? closure;
  const counted: RouterState = {
    ...state,
    validationAttempts: withEntry(state.validationAttempts, closure, attempt),
  };
  const next = advance(registry, counted, target, { newVisit: true, cap });
  if (!next.ok) return next;
  return ok({ kind: "step", stepId: target, via: "validation-retry", state: next.value, attempt });
}
