import { problem } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import type { RunError } from "../run-result.ts";
import type { RunContext } from "./run-context.ts";

/**
 * The token and cost budgets, checked before each iteration against the run's usage so far (the
 * run's options win over the agent's limits). A spent budget ends the run with
 * `AGENT_BUDGET_EXCEEDED` and a journal that resumes with a larger budget.
 */
export function budgetError(ctx: RunContext): RunError | undefined {
  const totals = ctx.usage.totals;
  const tokens = totals.inputTokens + totals.outputTokens;
  const maxTokens = ctx.budgets?.maxTokens ?? ctx.agent.limits.maxTokens;
  const maxCost = ctx.budgets?.maxCostUsd ?? ctx.agent.limits.maxCostUsd;
  const hint = `Raise the budget (--max-tokens, --max-cost) and continue with \`${ctx.resumeCommand}\`.`;
  if (maxTokens !== undefined && tokens >= maxTokens) {
    return problem(
      RUNNER_CODES.budgetExceeded,
      `The token budget is spent: ${tokens} tokens used, budget ${maxTokens}.`,
      { hint },
    );
  }
  if (maxCost !== undefined && totals.costUsd >= maxCost) {
    return problem(
      RUNNER_CODES.budgetExceeded,
      `The cost budget is spent: $${totals.costUsd.toFixed(4)} used, budget $${maxCost}.`,
      { hint },
    );
  }
  return undefined;
}
