import { type JsonValue, setEntry } from "@climpt/model";
import type {
  AfterIterationAnswer,
  AfterIterationContext,
  DecideContext,
  IterationRecord,
  UvContext,
  VerdictDecision,
  VerdictStrategy,
} from "./types.ts";

export type CompositeOperator = "and" | "or" | "first";

export const COMPOSITE_OPERATORS: readonly CompositeOperator[] = ["and", "or", "first"];

/**
 * `meta:composite` (`composite`): combines child strategies (`spec.conditions`, in order).
 * Every child sees every `observe`. `decide` and `afterIteration` ask the children:
 *
 * - `and`: asks every child; done (enter closure) only when all say so.
 * - `or`: asks every child (so each one's bookkeeping, e.g. a check count, stays true); done
 *   (enter closure) when any says so.
 * - `first`: asks the children in order and stops at the first that says done (enter closure);
 *   that child's answer decides, and later children are not asked. None → not done.
 *
 * A not-done answer carries every not-done child's retry hint. `uvVariables` merges the
 * children's; for a name two children supply, the earlier child wins.
 */
export class CompositeVerdict implements VerdictStrategy {
  readonly type = "meta:composite";
  private lastDecisions: (VerdictDecision | undefined)[] = [];

  constructor(
    readonly operator: CompositeOperator,
    readonly children: readonly VerdictStrategy[],
  ) {}

  observe(record: IterationRecord): void {
    for (const child of this.children) child.observe(record);
  }

  async afterIteration(ctx: AfterIterationContext): Promise<AfterIterationAnswer | undefined> {
    if (this.operator === "first") {
      for (const [index, child] of this.children.entries()) {
        const answer = await child.afterIteration(ctx);
        if (answer?.enterClosure === true)
          return { enterClosure: true, reason: this.label(index, answer.reason) };
      }
      return undefined;
    }
    const answers: (AfterIterationAnswer | undefined)[] = [];
    for (const child of this.children) answers.push(await child.afterIteration(ctx));
    const asking = answers
      .map((answer, index) => ({ answer, index }))
      .filter(({ answer }) => answer?.enterClosure === true);
    const enter =
      this.operator === "and" ? asking.length === this.children.length : asking.length > 0;
    if (!enter) return undefined;
    return {
      enterClosure: true,
      reason: asking.map(({ answer, index }) => this.label(index, answer?.reason)).join("; "),
    };
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    const decisions: (VerdictDecision | undefined)[] = this.children.map(() => undefined);
    if (this.operator === "first") {
      for (const [index, child] of this.children.entries()) {
        const decision = await child.decide(ctx);
        decisions[index] = decision;
        if (decision.done) {
          this.lastDecisions = decisions;
          return { ...decision, reason: this.label(index, decision.reason) };
        }
      }
      this.lastDecisions = decisions;
      return this.notDone(decisions, "no condition is done");
    }
    for (const [index, child] of this.children.entries())
      decisions[index] = await child.decide(ctx);
    this.lastDecisions = decisions;
    return this.combine(decisions);
  }

  async confirmAfterBoundary(ctx: {
    readonly signal?: AbortSignal | undefined;
  }): Promise<VerdictDecision> {
    const decisions = [...this.lastDecisions];
    for (const [index, child] of this.children.entries()) {
      const last = decisions[index];
      if (last?.awaitsBoundary === true && child.confirmAfterBoundary !== undefined) {
        decisions[index] = await child.confirmAfterBoundary(ctx);
      }
    }
    if (this.operator === "first") {
      const index = decisions.findIndex((decision) => decision?.done === true);
      const decision = index === -1 ? undefined : decisions[index];
      return decision === undefined
        ? this.notDone(decisions, "no condition is done after the boundary hook")
        : { ...decision, reason: this.label(index, decision.reason) };
    }
    return this.combine(decisions);
  }

  uvVariables(ctx?: UvContext): Record<string, JsonValue> {
    const merged: Record<string, JsonValue> = {};
    for (const child of this.children) {
      for (const [name, value] of Object.entries(child.uvVariables(ctx))) {
        if (!Object.hasOwn(merged, name)) setEntry(merged, name, value);
      }
    }
    return merged;
  }

  private combine(decisions: readonly (VerdictDecision | undefined)[]): VerdictDecision {
    const done = decisions
      .map((decision, index) => ({ decision, index }))
      .filter(({ decision }) => decision?.done === true);
    const isDone = this.operator === "and" ? done.length === this.children.length : done.length > 0;
    if (!isDone) {
      return this.notDone(
        decisions,
        this.operator === "and" ? "not every condition is done" : "no condition is done",
      );
    }
    return {
      done: true,
      reason: `${this.operator}: ${done.map(({ decision, index }) => this.label(index, decision?.reason)).join("; ")}`,
      ...(done.some(({ decision }) => decision?.awaitsBoundary === true)
        ? { awaitsBoundary: true }
        : {}),
    };
  }

  private notDone(
    decisions: readonly (VerdictDecision | undefined)[],
    headline: string,
  ): VerdictDecision {
    const open = decisions
      .map((decision, index) => ({ decision, index }))
      .filter(({ decision }) => decision !== undefined && !decision.done);
    const hints = open
      .map(({ decision }) => decision?.retryHint)
      .filter((hint): hint is string => hint !== undefined);
    return {
      done: false,
      reason: `${this.operator}: ${headline} (${open.map(({ decision, index }) => this.label(index, decision?.reason)).join("; ")})`,
      ...(hints.length === 0 ? {} : { retryHint: hints.join("\n") }),
    };
  }

  private label(index: number, reason: string | undefined): string {
    const child = this.children[index];
    return `[${index} ${child?.type ?? "?"}] ${reason ?? ""}`.trim();
  }
}
