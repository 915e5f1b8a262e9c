import type { JsonValue } from "@climpt/model";
import { IterationTracker } from "./iteration-tracker.ts";
import type {
  AfterIterationAnswer,
  AfterIterationContext,
  DecideContext,
  IterationRecord,
  VerdictDecision,
  VerdictStrategy,
} from "./types.ts";

/**
 * `count:iteration` (`iterationBudget`): after iteration `maxIterations` the runner is asked to
 * enter the closure step; the closure, once validated, is done. `remaining` counts the
 * iterations left including the one about to run.
 */
export class IterationBudgetVerdict implements VerdictStrategy {
  readonly type = "count:iteration";
  private readonly tracker = new IterationTracker();

  constructor(readonly maxIterations: number) {}

  observe(record: IterationRecord): void {
    this.tracker.observe(record);
  }

  async afterIteration(ctx: AfterIterationContext): Promise<AfterIterationAnswer | undefined> {
    if (ctx.iteration < this.maxIterations) return undefined;
    return {
      enterClosure: true,
      reason: `iteration budget used: ${ctx.iteration} of ${this.maxIterations} iterations`,
    };
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    if (!ctx.validation.passed) {
      return { done: false, reason: `closure step "${ctx.closureStepId}" did not pass validation` };
    }
    return {
      done: true,
      reason: `closure step "${ctx.closureStepId}" validated at iteration ${ctx.iteration} (budget ${this.maxIterations})`,
    };
  }

  uvVariables(): Record<string, JsonValue> {
    return {
      ...this.tracker.uvVariables(),
      max_iterations: this.maxIterations,
      remaining: Math.max(0, this.maxIterations - this.tracker.lastIteration),
    };
  }
}
