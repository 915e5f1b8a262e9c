import { fail, ok, problem, type Registry, type Result, stepPath } from "@climpt/model";
import { contractViolation } from "./problems.ts";
import { currentStep } from "./route.ts";
import type { ClosingDecision } from "./route-decision.ts";
import { type RouterState, recordExecution } from "./router-state.ts";

/**
 * The current step is a closure step that carries no intent (no `structuredGate`, or a step
 * that runs a program instead of the model): every execution of it is a completion attempt, and
 * the verdict alone decides whether the job is done (docs/design.md#the-completion-chain).
 * Records the execution and returns the `closing` decision that starts the completion chain; a
 * refusal continues with `returnAfterFailedValidation` as after any closing.
 *
 * A step that is not a closure step is refused with `SR-TRANS-019`: only a closure step may end
 * the flow without an intent.
 */
export function closeWithoutIntent(
  registry: Registry,
  state: RouterState,
): Result<ClosingDecision> {
  if (state.awaitingCheck) {
    throw contractViolation(
      `closeWithoutIntent was called on step "${state.stepId}" while its check is pending.`,
      "A check-dialect step completes through routeCheck.",
    );
  }
  const found = currentStep(registry, state);
  if (!found.ok) return found;
  const step = found.value;
  if (step.kind !== "closure") {
    return fail([
      problem(
        "SR-TRANS-019",
        `Step "${step.id}" is a ${step.kind} step without an intent: only a closure step may hand its result to the completion chain without saying "closing".`,
        {
          path: stepPath(step.id, "structuredGate"),
          hint: `Give step "${step.id}" a structuredGate and transitions, or make it a closure step (stepKind "closure").`,
        },
      ),
    ]);
  }
  return ok({ kind: "closing", stepId: step.id, state: recordExecution(state) });
}
