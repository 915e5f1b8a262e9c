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
 * `count:check` (`checkBudget`): counts status checks, i.e. every `decide` call (a completion
 * check of the closure) and every check-dialect check the runner reports through `observe`
 * (a record with `check`). Once `maxChecks` are used, `afterIteration` asks for the closure
 * step; a validated closure is done.
 */
export class CheckBudgetVerdict implements VerdictStrategy {
  readonly type = "count:check";
  private readonly tracker = new IterationTracker();
  private checks = 0;

  constructor(readonly maxChecks: number) {}

  get checkCount(): number {
    return this.checks;
  }

  observe(record: IterationRecord): void {
    this.tracker.observe(record);
    if (record.check !== undefined) this.checks += 1;
  }

  async afterIteration(): Promise<AfterIterationAnswer | undefined> {
    if (this.checks < this.maxChecks) return undefined;
    return {
      enterClosure: true,
      reason: `check budget used: ${this.checks} of ${this.maxChecks} status checks`,
    };
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    this.checks += 1;
    if (!ctx.validation.passed) {
      return { done: false, reason: `closure step "${ctx.closureStepId}" did not pass validation` };
    }
    return {
      done: true,
      reason: `closure step "${ctx.closureStepId}" validated after ${this.checks} of ${this.maxChecks} status checks`,
    };
  }

  uvVariables(): Record<string, JsonValue> {
    return { ...this.tracker.uvVariables(), check_count: this.checks, max_checks: this.maxChecks };
  }
}
