import type { RunUsage } from "../run-result.ts";

export const ZERO_TOTALS: RunUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  costUsd: 0,
});

/** What one model call cost. */
export interface CallUsage {
  readonly usage: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cacheReadInputTokens: number;
    readonly cacheCreationInputTokens: number;
  };
  readonly costUsd: number;
}

/**
 * The run's usage, summed over every model call it made, a failed attempt's included. The one
 * place the totals change: budgets read them before each iteration, each `model_response` and
 * `step_end` records them, and the result reports them. A resumed run starts from the totals its
 * journal last recorded; a reply served from the journal adds nothing (it was paid for before).
 */
export class UsageMeter {
  private current: RunUsage;

  constructor(start: RunUsage = ZERO_TOTALS) {
    this.current = start;
  }

  get totals(): RunUsage {
    return this.current;
  }

  add(call: CallUsage): RunUsage {
    const totals = this.current;
    this.current = {
      inputTokens: totals.inputTokens + call.usage.inputTokens,
      outputTokens: totals.outputTokens + call.usage.outputTokens,
      cacheReadInputTokens: totals.cacheReadInputTokens + call.usage.cacheReadInputTokens,
      cacheCreationInputTokens:
        totals.cacheCreationInputTokens + call.usage.cacheCreationInputTokens,
      costUsd: totals.costUsd + call.costUsd,
    };
    return this.current;
  }
}
