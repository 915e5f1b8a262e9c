import { extractHandoff, interpretGate } from "@climpt/gate-interpreter";
import type { Step } from "@climpt/model";
import type { Toolbox } from "@climpt/tools";
import type { RunContext } from "../run/run-context.ts";
import { problemError } from "../run/run-errors.ts";
import type { RunState } from "../run/run-state.ts";
import type { StepAnswer } from "../step-executor.ts";
import { toJson } from "../to-json.ts";
import { followDecision } from "./follow-decision.ts";
import { type InterpretedStep, unanswered } from "./step-end.ts";
import { endAtStep, routeRefused, type StepOutcome } from "./step-outcome.ts";
import { observeInterpreted } from "./verdict-observation.ts";

/**
 * Gate dialect, after the step's model phase: the gate reads the intent (and handoff) from the
 * output and the router decides where it leads. A refused output or route ends the run at
 * this step. A closure step without a gate goes to the completion chain without an intent.
 */
export async function gateDialectStep(
  ctx: RunContext,
  state: RunState,
  step: Step,
  answer: StepAnswer,
  toolbox: Toolbox,
): Promise<StepOutcome> {
  const iteration = state.routerState.iteration;
  if (step.gate === undefined && step.kind === "closure") {
    return closureWithoutIntent(ctx, state, step, answer, toolbox);
  }
  const gate = interpretGate(step, answer.output, { iteration });
  if (!gate.ok) {
    return endAtStep(
      state,
      unanswered(step, iteration),
      problemError(gate.issues),
      ctx.usage.totals,
    );
  }
  const interpretation = gate.value;
  ctx.events.emit({
    type: "gate",
    iteration,
    stepId: step.id,
    intent: interpretation.intent,
    usedFallback: interpretation.usedFallback,
    reason: interpretation.reason ?? null,
    target: interpretation.target ?? null,
    handoff: interpretation.handoff,
  });
  const interpreted: InterpretedStep = {
    step,
    iteration,
    intent: interpretation.intent,
    output: toJson(answer.output ?? answer.text),
    handoff: interpretation.handoff,
    handoffPaths: interpretation.handoffPaths,
    checkResult: null,
  };
  observeInterpreted(ctx.verdict, interpreted);
  const decision = ctx.router.route(state.routerState, interpretation, {
    handoff: { ...state.flatHandoff, ...interpretation.handoff },
  });
  if (!decision.ok) {
    return routeRefused(state, interpreted, problemError(decision.issues), ctx.usage.totals);
  }
  return followDecision(ctx, state, decision.value, {
    interpreted,
    text: answer.text,
    toolbox,
  });
}

/**
 * A closure step without a gate (the original's single-step agents that label issues from Bash):
 * it says no intent, so each execution goes to the completion chain and the verdict alone decides
 * whether the job is done (docs/design.md#the-completion-chain). Not done runs it again, as the
 * next iteration, within the run's cap.
 */
async function closureWithoutIntent(
  ctx: RunContext,
  state: RunState,
  step: Step,
  answer: StepAnswer,
  toolbox: Toolbox,
): Promise<StepOutcome> {
  const iteration = state.routerState.iteration;
  const interpreted: InterpretedStep = {
    ...unanswered(step, iteration),
    output: toJson(answer.output ?? answer.text),
    handoff: extractHandoff(step, answer.output ?? null).handoff,
  };
  observeInterpreted(ctx.verdict, interpreted);
  const decision = ctx.router.closeWithoutIntent(state.routerState);
  if (!decision.ok) {
    return routeRefused(state, interpreted, problemError(decision.issues), ctx.usage.totals);
  }
  return followDecision(ctx, state, decision.value, {
    interpreted,
    text: answer.text,
    toolbox,
    withoutIntent: true,
  });
}
