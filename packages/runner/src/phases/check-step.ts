import { extractHandoff, interpretStepCheck } from "@climpt/gate-interpreter";
import type { Step } from "@climpt/model";
import type { Toolbox } from "@climpt/tools";
import type { RunContext } from "../run/run-context.ts";
import { problemError } from "../run/run-errors.ts";
import type { RunState } from "../run/run-state.ts";
import type { PhaseReplay, StepAnswer } from "../step-executor.ts";
import { toJson } from "../to-json.ts";
import { followDecision } from "./follow-decision.ts";
import { runModelPhase } from "./model-phase.ts";
import { type InterpretedStep, stepEnd, unanswered } from "./step-end.ts";
import { continueWith, endAtStep, routeRefused, type StepOutcome } from "./step-outcome.ts";
import { observeInterpreted } from "./verdict-observation.ts";

/**
 * Check dialect (or a step with a check), after the step's model phase: the router says whether
 * the check runs now (else the step runs again, below `iterations.min`); the check is its own
 * model phase when the step names a check prompt, else it reads the step's output; its verdict
 * routes the flow.
 */
export async function checkDialectStep(
  ctx: RunContext,
  state: RunState,
  step: Step,
  answer: StepAnswer,
  toolbox: Toolbox,
  checkReplay: PhaseReplay | undefined,
): Promise<StepOutcome> {
  const iteration = state.routerState.iteration;
  const interpreted: InterpretedStep = {
    ...unanswered(step, iteration),
    output: toJson(answer.output ?? answer.text),
    handoff: extractHandoff(step, answer.output ?? null).handoff,
  };
  const before = ctx.router.beforeCheck(state.routerState);
  if (!before.ok) {
    return routeRefused(state, interpreted, problemError(before.issues), ctx.usage.totals);
  }
  if (before.value.kind === "step") {
    observeInterpreted(ctx.verdict, interpreted);
    const { stepId: to, via, state: next } = before.value;
    ctx.events.emit({ type: "route", iteration, from: step.id, decision: "step", to, via });
    return continueWith(
      stepEnd(interpreted, { transition: to, routerState: next }, ctx.usage.totals),
    );
  }

  let checkOutput: unknown;
  if (step.check?.prompt !== undefined) {
    const phase = await runModelPhase(ctx, state, step, "check", { toolbox, replay: checkReplay });
    if (phase.ok) {
      checkOutput = phase.answer.output ?? phase.answer.text;
    } else {
      // A check that gives no usable answer is a failed check, not a failed run; only a stop,
      // a budget or an API failure (no AC-STEP-* code) ends the run.
      if (phase.kind === "fatal" && !phase.error.code.startsWith("AC-STEP-")) {
        return endAtStep(state, unanswered(step, iteration), phase.error, ctx.usage.totals);
      }
      checkOutput = {
        result: "ng",
        message: `The check gave no usable answer: ${phase.error.message}`,
      };
    }
  }
  const check = interpretStepCheck(step, { stepOutput: answer.output ?? answer.text, checkOutput });
  const checkResult = { passed: check.passed, message: check.message ?? "" };
  ctx.events.emit({
    type: "check",
    iteration,
    stepId: step.id,
    passed: check.passed,
    message: checkResult.message,
  });
  observeInterpreted(ctx.verdict, { ...interpreted, checkResult });
  const decision = ctx.router.routeCheck(before.value.state, check);
  if (!decision.ok) {
    const refused = { ...interpreted, checkResult };
    return routeRefused(state, refused, problemError(decision.issues), ctx.usage.totals);
  }
  return followDecision(ctx, state, decision.value, {
    interpreted: { ...interpreted, checkResult },
    text: answer.text,
    toolbox,
  });
}
