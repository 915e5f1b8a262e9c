import { problem } from "@climpt/model";
import { stepCountOf } from "@climpt/router";
import { RUNNER_CODES } from "../codes.ts";
import type { BudgetReached, RunError, RunUsage } from "../run-result.ts";
import type { RunContext } from "./run-context.ts";
import type { RunState, StepSpend } from "./run-state.ts";

/** Input + output tokens: what a token budget counts. */
export function tokensOf(usage: RunUsage): number {
  return usage.inputTokens + usage.outputTokens;
}

/**
 * The budget reached before the next iteration, if any (docs/design.md#limits-and-budgets). Read
 * from what the journal counts, so a resumed, relocated or forked run reaches it where the run
 * would have: the run's usage (the totals every `model_response` and `step_end` records), the
 * router's iteration and per-step executions, and each step's spend (the difference of the
 * totals of its step ends, `RunState.stepSpend`). In order: the iteration cap (only passed by a
 * move into `onBudget`), the run's tokens, its cost, then the next step's own `limits`. The run's
 * options win over agent.json's limits.
 */
export function budgetReached(ctx: RunContext, state: RunState): BudgetReached | undefined {
  const onBudget = ctx.registry.onBudget ?? null;
  const { iteration, stepId } = state.routerState;
  const cap = ctx.router.iterationCap;
  if (iteration > cap) {
    return { limit: "maxIterations", max: cap, spent: iteration - 1, onBudget };
  }
  const totals = ctx.usage.totals;
  const maxTokens = ctx.budgets?.maxTokens ?? ctx.agent.limits.maxTokens;
  if (maxTokens !== undefined && tokensOf(totals) >= maxTokens) {
    return { limit: "maxTokens", max: maxTokens, spent: tokensOf(totals), onBudget };
  }
  const maxCost = ctx.budgets?.maxCostUsd ?? ctx.agent.limits.maxCostUsd;
  if (maxCost !== undefined && totals.costUsd >= maxCost) {
    return { limit: "maxCostUsd", max: maxCost, spent: totals.costUsd, onBudget };
  }
  const limits = ctx.registry.steps[stepId]?.limits;
  if (limits === undefined) return undefined;
  const executions = stepCountOf(state.routerState, stepId).executions;
  if (limits.maxIterations !== undefined && executions >= limits.maxIterations) {
    return {
      limit: "maxIterations",
      stepId,
      max: limits.maxIterations,
      spent: executions,
      onBudget,
    };
  }
  // What the step spent at its step ends, plus what was spent since the last step end: on a
  // resumed run, the interrupted attempt of this very step.
  const spent = stepSpendOf(state, stepId);
  const since = ctx.usage.totals;
  const tokens = spent.tokens + tokensOf(since) - tokensOf(state.lastTotals);
  const cost = spent.costUsd + since.costUsd - state.lastTotals.costUsd;
  if (limits.maxTokens !== undefined && tokens >= limits.maxTokens) {
    return { limit: "maxTokens", stepId, max: limits.maxTokens, spent: tokens, onBudget };
  }
  if (limits.maxCostUsd !== undefined && cost >= limits.maxCostUsd) {
    return { limit: "maxCostUsd", stepId, max: limits.maxCostUsd, spent: cost, onBudget };
  }
  return undefined;
}

export function stepSpendOf(state: RunState, stepId: string): StepSpend {
  return Object.hasOwn(state.stepSpend, stepId)
    ? (state.stepSpend[stepId] as StepSpend)
    : { tokens: 0, costUsd: 0 };
}

/** "the cost budget ($0.0312 spent, budget $0.03)", "step "x"'s iteration budget (3 of 3)". */
export function describeBudget(reached: BudgetReached): string {
  const owner = reached.stepId === undefined ? "its" : `step "${reached.stepId}"'s`;
  switch (reached.limit) {
    case "maxCostUsd":
      return `${owner} cost budget ($${reached.spent.toFixed(4)} spent, budget $${reached.max})`;
    case "maxTokens":
      return `${owner} token budget (${reached.spent} tokens used, budget ${reached.max})`;
    case "maxIterations":
      return reached.stepId === undefined
        ? `its iteration cap of ${reached.max}`
        : `${owner} iteration budget (${reached.spent} executions, budget ${reached.max})`;
  }
}

/** How to raise the budget that was reached, for hints. */
function raiseHint(ctx: RunContext, reached: BudgetReached): string {
  const resume = `\`${ctx.resumeCommand}\``;
  if (reached.stepId !== undefined) {
    return `Raise the step's limits.${reached.limit} in steps_registry.json and continue with ${resume} --accept-changed-definition.`;
  }
  const flag =
    reached.limit === "maxCostUsd"
      ? "--max-cost"
      : reached.limit === "maxTokens"
        ? "--max-tokens"
        : "--max-iterations";
  return `Raise the budget (${flag}, or agent.json limits.${reached.limit}) and continue with ${resume}.`;
}

/**
 * A budget reached without an `onBudget` step: the run ends with `AGENT_BUDGET_EXCEEDED` and a
 * journal that resumes with a larger budget (the run's token and cost budgets keep the messages
 * they always had).
 */
export function budgetError(ctx: RunContext, reached: BudgetReached): RunError {
  const hint = raiseHint(ctx, reached);
  if (reached.stepId === undefined && reached.limit === "maxTokens") {
    return problem(
      RUNNER_CODES.budgetExceeded,
      `The token budget is spent: ${reached.spent} tokens used, budget ${reached.max}.`,
      { hint },
    );
  }
  if (reached.stepId === undefined && reached.limit === "maxCostUsd") {
    return problem(
      RUNNER_CODES.budgetExceeded,
      `The cost budget is spent: $${reached.spent.toFixed(4)} used, budget $${reached.max}.`,
      { hint },
    );
  }
  return problem(RUNNER_CODES.budgetExceeded, `The run reached ${describeBudget(reached)}.`, {
    hint,
  });
}

/** The run ended through its `onBudget` step, which closed (`RUN-BUDGET-001`). */
export function budgetClosedError(ctx: RunContext, reached: BudgetReached): RunError {
  return {
    ...problem(
      RUNNER_CODES.budgetClosed,
      `The run reached ${describeBudget(reached)} and ended through its onBudget step "${reached.onBudget}".`,
      { hint: `Read what the onBudget step reported. ${raiseHint(ctx, reached)}` },
    ),
    family: RUNNER_CODES.budgetExceeded,
  };
}

/** The `onBudget` step did not close in its one execution (`RUN-BUDGET-002`). */
export function budgetStepDidNotCloseError(
  ctx: RunContext,
  reached: BudgetReached,
  transition: string,
): RunError {
  return {
    ...problem(
      RUNNER_CODES.budgetStepDidNotClose,
      `The run reached ${describeBudget(reached)}; its onBudget step "${reached.onBudget}" did not close (${transition}). It has one execution after a budget is reached.`,
      {
        file: ctx.loaded.files.registry,
        path: "$.onBudget",
        hint: `Make the onBudget step's prompt end with "closing". ${raiseHint(ctx, reached)}`,
      },
    ),
    family: RUNNER_CODES.budgetExceeded,
  };
}
