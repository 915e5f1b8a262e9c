import { interpretGate } from "@climpt/gate-interpreter";
import type { JsonValue, Problem, Registry, Step } from "@climpt/model";
import { createRouterState, returnAfterFailedValidation, route } from "@climpt/router";

type CallModel = (
  step: Step,
  handoff: Record<string, JsonValue>,
  retry: boolean,
) => Promise<unknown>;
type Validate = (closureStepId: string) => Promise<boolean>;

export async function runFlow(
  registry: Registry,
  entryStepId: string,
  callModel: CallModel,
  validate: Validate,
): Promise<{ success: boolean; iterations: number; problem?: Problem }> {
  let state = createRouterState(registry, entryStepId);
  const handoff: Record<string, JsonValue> = {};
  let retry = false;
  for (;;) {
    const step = registry.steps[state.stepId] as Step;
    const output = await callModel(step, handoff, retry);
    const gate = interpretGate(step, output, { iteration: state.iteration });
    if (!gate.ok) return { success: false, iterations: state.iteration, problem: gate.issues[0] };
    Object.assign(handoff, gate.value.handoff);

    const decision = route(registry, state, gate.value, { handoff, iterationCap: 50 });
    if (!decision.ok) {
      return { success: false, iterations: state.iteration, problem: decision.issues[0] };
    }
    state = decision.value.state;
    retry = false;
    if (decision.value.kind === "abort") {
      // AGENT_ABORTED: always a failure.
      return { success: false, iterations: state.iteration };
    }
    if (decision.value.kind === "closing") {
      if (await validate(decision.value.stepId))
        return { success: true, iterations: state.iteration };
      const back = returnAfterFailedValidation(registry, state, {
        closureStepId: decision.value.stepId,
        maxAttempts: registry.validationSteps[decision.value.stepId]?.onFailure.maxAttempts,
      });
      if (!back.ok) return { success: false, iterations: state.iteration, problem: back.issues[0] };
      state = back.value.state;
      retry = true; // this iteration's prompt is the failure pattern's retry prompt
    }
  }
}
// A problem prints as one line with formatProblem(problem): "CODE at path: message Fix: hint".
