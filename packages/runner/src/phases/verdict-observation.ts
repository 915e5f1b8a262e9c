import type { Step } from "@climpt/model";
import type { RunContext } from "../run/run-context.ts";
import type { StepAnswer } from "../step-executor.ts";
import { toJson } from "../to-json.ts";
import type { CheckResult } from "./step-end.ts";

/**
 * Tells the verdict strategy what a step execution said (count:iteration counts executions,
 * count:check counts checks, detect:* read the output). Resume feeds it the same from each
 * journaled `step_end`.
 */
export function observeStep(
  ctx: RunContext,
  step: Step,
  iteration: number,
  answer: StepAnswer,
  intent: string | undefined,
  check?: CheckResult,
): void {
  ctx.verdict.observe({
    iteration,
    stepId: step.id,
    stepKind: step.kind,
    intent,
    output: toJson(answer.output ?? null),
    text: answer.text,
    ...(check === undefined ? {} : { check }),
  });
}
