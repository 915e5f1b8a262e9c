import { problem } from "@climpt/model";
import type { RouteDecision } from "@climpt/router";
import { RUNNER_CODES } from "../codes.ts";
import { budgetClosedError } from "../run/budgets.ts";
import type { RunContext } from "../run/run-context.ts";
import type { RunState } from "../run/run-state.ts";
import { completionPhase } from "./completion-phase.ts";
import type { FinishedStep } from "./finished-step.ts";
import { stepEnd } from "./step-end.ts";
import { continueWith, endAtStep, type StepOutcome } from "./step-outcome.ts";

/**
 * Both dialects, once the router decided: a move to a step (which a budget verdict may turn
 * into a move into closure), an abort, or the start of the completion chain.
 */
export async function followDecision(
  ctx: RunContext,
  state: RunState,
  decision: RouteDecision,
  finished: FinishedStep,
): Promise<StepOutcome> {
  const { step, iteration } = finished.interpreted;
  switch (decision.kind) {
    case "step": {
      const forced = await ctx.verdict.afterIteration({
        iteration,
        stepId: step.id,
        stepKind: step.kind,
        intent: finished.interpreted.intent ?? undefined,
      });
      const move = forced?.enterClosure ? ctx.router.enterClosure(decision) : decision;
      ctx.events.emit({
        type: "route",
        iteration,
        from: step.id,
        decision: "step",
        to: move.stepId,
        via: move.via,
      });
      return continueWith(
        stepEnd(
          finished.interpreted,
          { transition: move.stepId, routerState: move.state },
          ctx.usage.totals,
        ),
      );
    }
    case "abort":
      ctx.events.emit({
        type: "route",
        iteration,
        from: step.id,
        decision: "abort",
        to: null,
        via: null,
      });
      return endAtStep(
        state,
        finished.interpreted,
        problem(
          RUNNER_CODES.aborted,
          `Step "${step.id}" chose abort: ${decision.reason || "no reason given"}.`,
        ),
        ctx.usage.totals,
        { ran: true, transition: "abort" },
      );
    case "closing":
    case "complete":
      ctx.events.emit({
        type: "route",
        iteration,
        from: step.id,
        decision: decision.kind,
        to: null,
        via: null,
      });
      // The onBudget step closing ends the run: it is not the job done, so neither the
      // validators nor the verdict nor the boundary hook run (what it asked to close or merge is
      // dropped with them); its comments and labels went out through the gh broker already.
      if (state.budget !== undefined) {
        return {
          kind: "end",
          ending: {
            finalStepId: step.id,
            error: budgetClosedError(ctx, state.budget),
            stepEnd: stepEnd(
              finished.interpreted,
              { transition: decision.kind, routerState: decision.state, final: true },
              ctx.usage.totals,
            ),
            budget: state.budget,
          },
        };
      }
      // The closure step's record is on disk before the validators' commands act on it.
      await ctx.events.durable();
      return completionPhase(ctx, state, decision, finished);
  }
}
