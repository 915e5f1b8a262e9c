import type { Registry, Result } from "@climpt/model";
import { resolveIterationCap, skipIteration } from "./advance.ts";
import { closeWithoutIntent } from "./close-without-intent.ts";
import { enterClosure } from "./enter-closure.ts";
import {
  returnAfterFailedValidation,
  returnStepFor,
  type ValidationRetryDecision,
} from "./return-after-validation.ts";
import { route } from "./route.ts";
import { beforeCheck, type CheckVerdict, routeCheck } from "./route-check.ts";
import type {
  BeforeCheckDecision,
  ClosingDecision,
  RouteDecision,
  RouteInput,
  RouteOptions,
  StepDecision,
} from "./route-decision.ts";
import { createRouterState, type RouterState } from "./router-state.ts";
import { type FoundValidationStep, findValidationStep } from "./validation-step.ts";

export interface RouterOptions {
  /**
   * The run-wide iteration cap: no state the router returns holds an iteration above it.
   * When absent, the registry dialect's default (`defaultRunIterationCap` from `@climpt/model`:
   * 20 gate, 100 check), the same a run gets from `resolveRunIterationCap`; anything but a positive integer throws
   * `AGENT_MAX_ITERATIONS` here, once.
   */
  readonly iterationCap?: number;
  /**
   * The agent's verdict type (agent.json `runner.verdict.type`). Only the `validationSteps`
   * lookup uses it, to find an entry keyed by the verdict's closure id (`VERDICT_CLOSURE_IDS`).
   */
  readonly verdictType?: string;
}

/**
 * The router of one run: the registry, the iteration cap and the verdict type are given once,
 * so no call can forget them. Every method is pure: it takes a `RouterState` and returns a new
 * one inside its decision (the state is plain JSON, for the journal).
 */
export interface Router {
  readonly registry: Registry;
  readonly iterationCap: number;
  /** Iteration 1 at the entry step; `SR-ENTRY-002` when the registry lacks it. */
  start(entryStepId: string): Result<RouterState>;
  /** Gate dialect: where the flow goes after the current step emitted `input.intent`. */
  route(state: RouterState, input: RouteInput, options?: RouteOptions): Result<RouteDecision>;
  /**
   * A closure step that carries no intent (no gate, or a program) finished: record it and start
   * the completion chain, where the verdict alone decides (`SR-TRANS-019` for another kind).
   */
  closeWithoutIntent(state: RouterState): Result<ClosingDecision>;
  /** Check dialect, after each execution: run the check now, or the step again first. */
  beforeCheck(state: RouterState): Result<BeforeCheckDecision>;
  /** Check dialect: where the flow goes with the verdict of the check `beforeCheck` asked for. */
  routeCheck(state: RouterState, verdict: CheckVerdict): Result<RouteDecision>;
  /**
   * The completion chain refused the closure step of a `closing` or `complete` decision: back to
   * the work step that led in, bounded by the closure step's `onFailure.maxAttempts`.
   */
  returnAfterFailedValidation(
    state: RouterState,
    closureStepId: string,
  ): Result<ValidationRetryDecision>;
  /** The step `returnAfterFailedValidation` would return to: the closure step's lead-in. */
  returnStepFor(state: RouterState, closureStepId: string): string;
  /** A budget verdict asked to close: redirect a step decision into the first closure step. */
  enterClosure(decision: StepDecision): StepDecision;
  /** The step gave no output matching its schema: spend its iteration, run it again. */
  skipIteration(state: RouterState): Result<RouterState>;
  /** The `validationSteps` entry that gates `closureStepId` (see `findValidationStep`). */
  validationStepFor(closureStepId: string): FoundValidationStep | undefined;
}

/** The router for one registry and one run's iteration cap. */
export function createRouter(registry: Registry, options: RouterOptions = {}): Router {
  const cap = resolveIterationCap(options.iterationCap, registry);
  const verdictType = options.verdictType;
  return {
    registry,
    iterationCap: cap,
    start: (entryStepId) => createRouterState(registry, entryStepId),
    route: (state, input, routeOptions) => route(registry, state, input, cap, routeOptions),
    closeWithoutIntent: (state) => closeWithoutIntent(registry, state),
    beforeCheck: (state) => beforeCheck(registry, state, cap),
    routeCheck: (state, verdict) => routeCheck(registry, state, verdict, cap),
    returnAfterFailedValidation: (state, closureStepId) =>
      returnAfterFailedValidation(registry, state, { closureStepId, cap, verdictType }),
    returnStepFor,
    enterClosure: (decision) => enterClosure(registry, decision),
    skipIteration: (state) => skipIteration(state, cap),
    validationStepFor: (closureStepId) => findValidationStep(registry, closureStepId, verdictType),
  };
}
