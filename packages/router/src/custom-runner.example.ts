import {
  checkSource,
  extractHandoff,
  interpretGate,
  interpretStepCheck,
} from "@climpt/gate-interpreter";
import {
  type JsonValue,
  ok,
  type Problem,
  type Registry,
  type Result,
  type Step,
} from "@climpt/model";
import { createRouter, type RouteDecision, type Router, type RouterState } from "@climpt/router";

/** One model call: the step's prompt, or (`check: true`) its check prompt. */
type CallModel = (
  step: Step,
  call: { handoff: Record<string, JsonValue>; retry: boolean; check: boolean },
) => Promise<unknown>;
/** Runs the closure step's validators; true when the work is done. */
type Validate = (closureStepId: string) => Promise<boolean>;

export interface FlowResult {
  readonly success: boolean;
  readonly iterations: number;
  readonly problem?: Problem;
}

export async function runFlow(
  registry: Registry,
  entryStepId: string,
  callModel: CallModel,
  validate: Validate,
  iterationCap = 50,
): Promise<FlowResult> {
  // The cap is given once; every call below is bounded by it.
  const router = createRouter(registry, { iterationCap });
  const start = router.start(entryStepId);
  if (!start.ok) return { success: false, iterations: 0, ...onlyProblem(start.issues[0]) };
  let state = start.value;
  const handoff: Record<string, JsonValue> = {};
  let retry = false;
  for (;;) {
    const step = registry.steps[state.stepId] as Step;
    const output = await callModel(step, { handoff, retry, check: false });
    retry = false;
    const decided =
      registry.dialect === "gate"
        ? routeGate(router, state, step, output, handoff)
        : await routeCheckStep(router, state, step, output, handoff, callModel);
    if (!decided.ok) return failed(state, decided.issues[0]);
    const decision = decided.value;
    state = decision.state;
    if (decision.kind === "abort") return failed(state); // AGENT_ABORTED: always a failure
    if (decision.kind === "closing" || decision.kind === "complete") {
      // Only the validators decide that the run is done.
      if (await validate(decision.stepId)) return { success: true, iterations: state.iteration };
      // Back to the work step that led in; the router reads onFailure.maxAttempts itself.
      const back = router.returnAfterFailedValidation(state, decision.stepId);
      if (!back.ok) return failed(state, back.issues[0]);
      state = back.value.state;
      retry = true; // this iteration's prompt is the failure pattern's retry prompt
    }
  }
}

/** Gate dialect: the intent in the step's output picks the transition. */
function routeGate(
  router: Router,
  state: RouterState,
  step: Step,
  output: unknown,
  handoff: Record<string, JsonValue>,
): Result<RouteDecision> {
  const gate = interpretGate(step, output, { iteration: state.iteration });
  if (!gate.ok) return gate;
  Object.assign(handoff, gate.value.handoff);
  return router.route(state, gate.value, { handoff });
}

/** Check dialect: the step runs until its check may run, then the check's verdict routes. */
async function routeCheckStep(
  router: Router,
  state: RouterState,
  step: Step,
  output: unknown,
  handoff: Record<string, JsonValue>,
  callModel: CallModel,
): Promise<Result<RouteDecision>> {
  Object.assign(handoff, extractHandoff(step, output).handoff);
  const before = router.beforeCheck(state);
  if (!before.ok) return before;
  if (before.value.kind === "step") return ok(before.value); // below iterations.min: again
  const checkOutput =
    checkSource(step) === "prompt"
      ? await callModel(step, { handoff, retry: false, check: true })
      : undefined;
  const verdict = interpretStepCheck(step, { stepOutput: output, checkOutput });
  return router.routeCheck(before.value.state, verdict);
}

function failed(state: RouterState, problem?: Problem): FlowResult {
  return { success: false, iterations: state.iteration, ...onlyProblem(problem) };
}

function onlyProblem(problem: Problem | undefined): { problem?: Problem } {
  return problem === undefined ? {} : { problem };
}
// A problem prints as one line with formatProblem(problem): "CODE at path: message Fix: hint".
