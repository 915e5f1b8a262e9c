import {
  ClimptError,
  defaultRunIterationCap,
  fail,
  ok,
  problem,
  type Registry,
  type Result,
  stepPath,
} from "@climpt/model";
import { contractViolation } from "./problems.ts";
import { lookup, type RouterState, withEntry } from "./router-state.ts";

/**
 * The run-wide cap: the option when given, else the registry dialect's default from
 * `defaultRunIterationCap` (the same default `resolveRunIterationCap` gives a run). A cap that is
 * not a positive integer is a caller's mistake, thrown as `AGENT_MAX_ITERATIONS`.
 */
export function resolveIterationCap(
  iterationCap: number | undefined,
  registry: Pick<Registry, "dialect">,
): number {
  const cap = iterationCap ?? defaultRunIterationCap(registry);
  if (!Number.isInteger(cap) || cap < 1) {
    throw new ClimptError({
      code: "AGENT_MAX_ITERATIONS",
      message: `The iteration cap must be a positive integer, got ${String(iterationCap)}.`,
      hint: "Set limits.maxIterations (or --max-iterations) to a whole number of at least 1.",
    });
  }
  return cap;
}

function mostExecuted(state: RouterState): string {
  let best: [string, number] | undefined;
  for (const count of state.stepCounts) {
    if (best === undefined || count.executions > best[1]) best = [count.stepId, count.executions];
  }
  return best === undefined ? "" : ` Step "${best[0]}" ran ${best[1]} times.`;
}

export interface AdvanceOptions {
  /** True when the move starts a new visit even though the step stays the same. */
  readonly newVisit: boolean;
  readonly cap: number;
}

/**
 * Starts the next iteration at `target`. Refuses with `AGENT_MAX_ITERATIONS` when that iteration
 * would pass the run-wide cap, so a state never holds an iteration above it. Entering a closure
 * step from a work step records that step as its lead-in
 * (docs/design.md#transitions-and-the-router); from a verification step, the work step before it;
 * moving between closure steps keeps the original lead-in.
 */
export function advance(
  registry: Registry,
  state: RouterState,
  target: string,
  options: AdvanceOptions,
): Result<RouterState> {
  if (state.iteration + 1 > options.cap) {
    return fail([
      problem(
        "AGENT_MAX_ITERATIONS",
        `The run reached its iteration cap of ${options.cap}: iteration ${state.iteration} ran step "${state.stepId}" and the flow would continue at step "${target}".${mostExecuted(state)}`,
        {
          path: stepPath(state.stepId, "transitions"),
          hint: "If the flow is making progress, raise the cap (agent.json limits.maxIterations, or --max-iterations). If it loops, give the looping step's prompt and transitions a way out (for example handoff to a closure step).",
        },
      ),
    ]);
  }
  const staying = target === state.stepId;
  const sameVisit = staying && !options.newVisit;

  let closureLeadIn = state.closureLeadIn;
  const from = lookup(registry.steps, state.stepId);
  const to = lookup(registry.steps, target);
  if (to?.kind === "closure" && !staying) {
    // The retry after a failed validation goes back to *work*
    // (docs/design.md#the-completion-chain): through a verification step, that is the work step the
    // verification checked.
    const leadIn =
      from?.kind === "closure"
        ? lookup(state.closureLeadIn, state.stepId)
        : from?.kind === "verification"
          ? (state.lastWorkStepId ?? state.stepId)
          : state.stepId;
    if (leadIn !== undefined) closureLeadIn = withEntry(closureLeadIn, target, leadIn);
  }

  return ok({
    ...state,
    iteration: state.iteration + 1,
    stepId: target,
    previousStepId: state.stepId,
    visitExecutions: sameVisit ? state.visitExecutions : 0,
    closureLeadIn,
    lastWorkStepId: from?.kind === "work" ? state.stepId : state.lastWorkStepId,
    // maxRetries counts retries since the step was entered from elsewhere.
    checkRetries: staying ? state.checkRetries : 0,
  });
}

/**
 * A step gave no output matching its schema: its iteration is spent and the same step runs again
 * as the next iteration, in the same visit. Nothing else changes: the attempt is not one of the
 * step's executions (`visitExecutions`, `stepCounts` and `iterations.min/max` count answers), so
 * only the run cap sees it. Refuses with `AGENT_MAX_ITERATIONS` when the next iteration would
 * pass the cap.
 */
export function skipIteration(state: RouterState, cap: number): Result<RouterState> {
  if (state.awaitingCheck) {
    throw contractViolation(
      `skipIteration was called for step "${state.stepId}" while its check is pending.`,
      "A schema failure of the step's own call comes before beforeCheck; a check call that gives no usable answer is a failed check (routeCheck).",
    );
  }
  if (state.iteration + 1 > cap) {
    return fail([
      problem(
        "AGENT_MAX_ITERATIONS",
        `The run reached its iteration cap of ${cap}: iteration ${state.iteration} ran step "${state.stepId}", which gave no output matching its schema, and the step would run again.${mostExecuted(state)}`,
        {
          path: stepPath(state.stepId),
          hint: "Make the step prompt say exactly which JSON object to return, or raise the cap (agent.json limits.maxIterations, or --max-iterations).",
        },
      ),
    ]);
  }
  return ok({ ...state, iteration: state.iteration + 1 });
}
