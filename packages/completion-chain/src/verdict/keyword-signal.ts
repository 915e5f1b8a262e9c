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
 * `detect:keyword` (`keywordSignal`): done when the closure step's final text, or any string
 * value in its structured output, contains `completionKeyword` (case-sensitive). Earlier
 * iterations do not count: only a closure step ends a run (docs/design.md#intents).
 */
export class KeywordSignalVerdict implements VerdictStrategy {
  readonly type = "detect:keyword";
  private readonly tracker = new IterationTracker();

  constructor(readonly completionKeyword: string) {}

  observe(record: IterationRecord): void {
    this.tracker.observe(record);
  }

  async afterIteration(): Promise<AfterIterationAnswer | undefined> {
    return undefined;
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    const keyword = this.completionKeyword;
    const found =
      ctx.closureText.includes(keyword) ||
      stringLeaves(ctx.closureOutput).some((text) => text.includes(keyword));
    if (found) return { done: true, reason: `completion keyword "${keyword}" found` };
    return {
      done: false,
      reason: `completion keyword "${keyword}" not found in the closure output`,
      retryHint: `The run ends only when your closing answer contains the exact completion keyword "${keyword}". Finish the remaining work; when it is truly done, include "${keyword}" in your closing output.`,
    };
  }

  uvVariables(): Record<string, JsonValue> {
    return { ...this.tracker.uvVariables(), completion_keyword: this.completionKeyword };
  }
}

function stringLeaves(value: JsonValue): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (typeof value === "object" && value !== null)
    return Object.values(value).flatMap(stringLeaves);
  return [];
}
