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
 * `count:check` (`checkBudget`): the job is done once `maxChecks` status checks ran
 * (docs/design.md#verdicts). A status check is every completion check of a closure step (each
 * `decide` call, whether the step said `closing` or carries no intent) and every check-dialect
 * check the runner reports through `observe` (a record with `check`). A closure before the
 * budget is used is not done: the flow goes on to the next check. Once `maxChecks` are used,
 * `afterIteration` asks for the closure step.
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
    if (!ctx.validation.passed) {
      return { done: false, reason: `closure step "${ctx.closureStepId}" did not pass validation` };
    }
    this.checks += 1;
    if (this.checks < this.maxChecks) {
      return {
        done: false,
        reason: `status check ${this.checks} of ${this.maxChecks} done`,
        retryHint: `Status check ${this.checks} of ${this.maxChecks} is recorded; the run ends after ${this.maxChecks}. Perform the next status check.`,
      };
    }
    return {
      done: true,
      reason: `completed ${this.checks} of ${this.maxChecks} status checks (closure step "${ctx.closureStepId}" validated)`,
    };
  }

  uvVariables(): Record<string, JsonValue> {
    return { ...this.tracker.uvVariables(), check_count: this.checks, max_checks: this.maxChecks };
  }
}
