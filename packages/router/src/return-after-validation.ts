import { fail, jsonPath, ok, problem, type Registry, type Result } from "@climpt/model";
import { advance } from "./advance.ts";
import { contractViolation } from "./problems.ts";
import type { StepDecision } from "./route-decision.ts";
import { countOf, hasStep, lookup, type RouterState, withEntry } from "./router-state.ts";
import { exceededMaxAttempts, findValidationStep } from "./validation-step.ts";

export interface ReturnAfterValidationInput {
  /** The closure step whose validation failed (the `closing` or `complete` decision's step). */
  readonly closureStepId: string;
  readonly cap: number;
  /** The agent's verdict type, for the `validationSteps` lookup (see `findValidationStep`). */
  readonly verdictType?: string | undefined;
}

/** A step decision for the retry iteration; `attempt` counts failed validations of the closure. */
export interface ValidationRetryDecision extends StepDecision {
  readonly via: "validation-retry";
  readonly attempt: number;
}

/**
 * Where a failed validation of `closureStepId` sends the flow: the step that led into it
 * (`closureLeadIn`), else the closure step itself (the run started there, or a check-dialect
 * step completed). The completion chain builds its retry prompt for this step.
 */
export function returnStepFor(state: RouterState, closureStepId: string): string {
  return lookup(state.closureLeadIn, closureStepId) ?? closureStepId;
}

/**
 * After the completion chain's validators (or its verdict) refused a closure step: the flow
 * returns to the step that led into the closure step (usually the work step that handed off),
 * and the runner uses the failure pattern's retry prompt for that iteration. A closure step the
 * flow started at has no lead-in: the closure step itself runs again. More failed validations
 * than the closure step's `validationSteps` entry allows (`onFailure.maxAttempts`, found with
 * `findValidationStep`) end the run with `AGENT_VALIDATION_ABORT`.
 */
export function returnAfterFailedValidation(
  registry: Registry,
  state: RouterState,
  input: ReturnAfterValidationInput,
): Result<ValidationRetryDecision> {
  const closure = input.closureStepId;
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
  const found = findValidationStep(registry, closure, input.verdictType);
  const maxAttempts = exceededMaxAttempts(found?.entry, attempt);
  if (maxAttempts !== undefined) {
    const key = found?.entry.id ?? closure;
    return fail([
      problem(
        "AGENT_VALIDATION_ABORT",
        `Validation of closure step "${closure}" failed ${attempt} times; onFailure.maxAttempts is ${maxAttempts}, so the run stops.`,
        {
          path: `${jsonPath(jsonPath("$", "validationSteps"), key)}.onFailure.maxAttempts`,
          hint: `Read the validator output in the journal and fix what it reports, or raise validationSteps[${JSON.stringify(key)}].onFailure.maxAttempts.`,
        },
      ),
    ]);
  }
  const target = returnStepFor(state, closure);
  const counted: RouterState = {
    ...state,
    validationAttempts: withEntry(state.validationAttempts, closure, attempt),
  };
  const next = advance(registry, counted, target, { newVisit: true, cap: input.cap });
  if (!next.ok) return next;
  return ok({ kind: "step", stepId: target, via: "validation-retry", state: next.value, attempt });
}
