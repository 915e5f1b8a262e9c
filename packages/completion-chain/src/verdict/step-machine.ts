import type { JsonValue } from "@climpt/model";
import { IterationTracker } from "./iteration-tracker.ts";
import type {
  AfterIterationAnswer,
  DecideContext,
  IterationRecord,
  VerdictDecision,
  VerdictStrategy,
} from "./types.ts";

/**
 * `detect:graph` (`stepMachine`, also spelt `stepFlow`): the step graph reaching its closure is
 * the signal. The chain calls `decide` only after a closure step's `closing` passed validation,
 * so the answer is done; there is no budget.
 */
export class StepMachineVerdict implements VerdictStrategy {
  readonly type = "detect:graph";
  private readonly tracker = new IterationTracker();

  observe(record: IterationRecord): void {
    this.tracker.observe(record);
  }

  async afterIteration(): Promise<AfterIterationAnswer | undefined> {
    return undefined;
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    if (!ctx.validation.passed) {
      return { done: false, reason: `closure step "${ctx.closureStepId}" did not pass validation` };
    }
    return { done: true, reason: `closure step "${ctx.closureStepId}" reached and validated` };
  }

  uvVariables(): Record<string, JsonValue> {
    return this.tracker.uvVariables();
  }
}
