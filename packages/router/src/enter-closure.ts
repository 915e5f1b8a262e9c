import type { Registry } from "@climpt/model";
import type { StepDecision } from "./route-decision.ts";
import { lookup, withEntry } from "./router-state.ts";

/** The closure step a budget sends the flow to: the registry's first closure step, if any. */
export function firstClosureStep(registry: Registry): string | undefined {
  return Object.values(registry.steps).find((step) => step.kind === "closure")?.id;
}

/**
 * A budget verdict (`count:iteration`, `count:check`) asked the flow to stop working and close:
 * the decision's move goes to the registry's first closure step instead of `decision.stepId`,
 * as the same iteration (the decision already checked it against the cap), `via:
 * "enter-closure"`. Like every move into a closure step it records the work step that led in
 * (`closureLeadIn`), so a failed validation returns to work, not to the closure step itself.
 *
 * The decision comes back unchanged when the step that just ran is a closure step, when the
 * decision already goes to that closure step, or when the registry has no closure step.
 */
export function enterClosure(registry: Registry, decision: StepDecision): StepDecision {
  const from = decision.state.previousStepId;
  const closure = firstClosureStep(registry);
  if (closure === undefined || closure === decision.stepId) return decision;
  if (from === null || lookup(registry.steps, from)?.kind === "closure") return decision;
  const leadIn = decision.state.lastWorkStepId ?? from;
  return {
    kind: "step",
    stepId: closure,
    via: "enter-closure",
    state: {
      ...decision.state,
      stepId: closure,
      visitExecutions: 0,
      checkRetries: 0,
      closureLeadIn: withEntry(decision.state.closureLeadIn, closure, leadIn),
    },
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
  };
}
