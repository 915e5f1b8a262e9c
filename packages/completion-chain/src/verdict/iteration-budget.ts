import type { JsonValue } from "@climpt/model";
import { IterationTracker } from "./iteration-tracker.ts";
import type {
  AfterIterationAnswer,
  AfterIterationContext,
  DecideContext,
  IterationRecord,
  UvContext,
  VerdictDecision,
  VerdictStrategy,
} from "./types.ts";

/**
 * `count:iteration` (`iterationBudget`): the job is done once `maxIterations` iterations ran
 * (docs/design.md#verdicts).
 *
 * - A closure step that says `closing` is done (after validation) whatever the count.
 * - A closure step without an intent (no gate, or a program) is done once its iteration
 *   reaches the budget; before that it is not done and runs again.
 * - The budget moves the flow into the closure step so that the closure fits inside it: after
 *   iteration `maxIterations - 1` (or later) the next step is the closure step, which then runs
 *   as iteration `maxIterations` at the latest.
 */
export class IterationBudgetVerdict implements VerdictStrategy {
  readonly type = "count:iteration";
  private readonly tracker = new IterationTracker();

  constructor(readonly maxIterations: number) {}

  observe(record: IterationRecord): void {
    this.tracker.observe(record);
  }

  async afterIteration(ctx: AfterIterationContext): Promise<AfterIterationAnswer | undefined> {
    // The next iteration is the last one the budget allows: it must be the closure step.
    if (ctx.iteration + 1 < this.maxIterations) return undefined;
    return {
      enterClosure: true,
      reason: `iteration budget: iteration ${ctx.iteration + 1} is the last of ${this.maxIterations}, so it runs the closure step`,
    };
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    if (!ctx.validation.passed) {
      return { done: false, reason: `closure step "${ctx.closureStepId}" did not pass validation` };
    }
    if (ctx.closing) {
      return {
        done: true,
        reason: `closure step "${ctx.closureStepId}" validated at iteration ${ctx.iteration} (budget ${this.maxIterations})`,
      };
    }
    if (ctx.iteration >= this.maxIterations) {
      return {
        done: true,
        reason: `completed ${ctx.iteration} of ${this.maxIterations} iterations`,
      };
    }
    return {
      done: false,
      reason: `completed ${ctx.iteration} of ${this.maxIterations} iterations`,
      retryHint: `This is iteration ${ctx.iteration + 1} of ${this.maxIterations}: continue the work.`,
    };
  }

  uvVariables(ctx?: UvContext): Record<string, JsonValue> {
    const iteration = ctx?.iteration ?? this.tracker.lastIteration + 1;
    return {
      ...this.tracker.uvVariables(),
      max_iterations: this.maxIterations,
      remaining: Math.max(0, this.maxIterations - iteration),
    };
  }
}
