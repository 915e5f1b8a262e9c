import { fail, ok, problem, type Registry, type Result, stepPath } from "@climpt/model";
import { advance } from "./advance.ts";
import { contractViolation } from "./problems.ts";
import { currentStep } from "./route.ts";
import type { BeforeCheckDecision, RouteDecision, StepVia } from "./route-decision.ts";
import {
  hasStep,
  lookup,
  type RouterState,
  recordExecution,
  stepCountOf,
  updateStepCount,
} from "./router-state.ts";

export interface CheckVerdict {
  readonly passed: boolean;
  /** The check's message (or why it failed): carried on the decision for the journal. */
  readonly message?: string;
}

/**
 * A step whose definition declares `iterations` executes at most `iterations.max` times in the
 * whole run (its `onFail.retry` executions aside, which `maxRetries` bounds); the execution past
 * it ends the run (docs/design.md#the-check-dialect). This is what bounds a fallback cycle,
 * whose steps are each entered anew. A step without `iterations` is bounded by the run cap.
 */
export function stepLimitProblem(
  registry: Registry,
  state: RouterState,
  target: string,
): Result<never> | undefined {
  const step = lookup(registry.steps, target);
  if (step?.iterations.declared !== true) return undefined;
  // `retries` counts the executions `onFail.retry` started, which `maxRetries` bounds instead.
  const count = stepCountOf(state, target);
  const executed = count.executions - count.retries;
  if (executed < step.iterations.max) return undefined;
  return fail([
    problem(
      "SR-ITER-001",
      `Step "${target}" has executed ${executed} time(s) in this run (onFail retries aside), its iterations.max of ${step.iterations.max}; the flow from step "${state.stepId}" would run it again, so the run stops.`,
      {
        family: "AGENT_MAX_ITERATIONS",
        path: stepPath(target, "iterations", "max"),
        hint: `Raise iterations.max of step "${target}" if the cycle makes progress; otherwise change the prompt or check that keeps sending the flow back to it.`,
      },
    ),
  ]);
}

function stepDecision(
  registry: Registry,
  state: RouterState,
  target: string,
  via: StepVia,
  newVisit: boolean,
  cap: number,
  reason?: string,
): Result<RouteDecision> {
  // A retry's executions are bounded by onFail.maxRetries, not by iterations.max: the seeds
  // write `"max": 1` with `"maxRetries": 2` and mean two more tries.
  const limited = via === "check-retry" ? undefined : stepLimitProblem(registry, state, target);
  if (limited !== undefined) return limited;
  const next = advance(registry, state, target, { newVisit, cap });
  if (!next.ok) return next;
  return ok({
    kind: "step",
    stepId: target,
    via,
    state: next.value,
    ...(reason === undefined || reason === "" ? {} : { reason }),
  });
}

/**
 * Check dialect, after each execution of the current step: records the execution, then says
 * whether its check runs now (`{kind: "check"}`) or the step runs again first because it has
 * run fewer than `iterations.min` times in this visit (`{kind: "step", via: "min-iterations"}`).
 */
export function beforeCheck(
  registry: Registry,
  state: RouterState,
  cap: number,
): Result<BeforeCheckDecision> {
  if (state.awaitingCheck) {
    throw contractViolation(
      `beforeCheck was called twice for the same execution of step "${state.stepId}".`,
      "Call routeCheck with the check's verdict before the next beforeCheck.",
    );
  }
  const found = currentStep(registry, state);
  if (!found.ok) return found;
  const step = found.value;
  const executed = recordExecution(state);
  if (executed.visitExecutions < step.iterations.min) {
    const limited = stepLimitProblem(registry, executed, step.id);
    if (limited !== undefined) return limited;
    const next = advance(registry, executed, step.id, { newVisit: false, cap });
    if (!next.ok) return next;
    return ok({ kind: "step", stepId: step.id, via: "min-iterations", state: next.value });
  }
  return ok({ kind: "check", stepId: step.id, state: { ...executed, awaitingCheck: true } });
}

/**
 * Check dialect, with the verdict of the check `beforeCheck` asked for:
 * - pass: `onPass.next` → that step (a new visit); `onPass.complete` → `{kind: "complete"}`;
 * - fail with an `onFail` → it, at once: `retry` starts a new visit of the same step, counted
 *   against `maxRetries` (0 = unlimited, still bounded by the run cap); `fallback` goes to its
 *   step; exhausted retries end the run with `AGENT_VALIDATION_ABORT`;
 * - fail without `onFail` → the step again while it has executed fewer than `iterations.max`
 *   times (in the whole run when `iterations` is declared, else in this visit), then
 *   `AGENT_VALIDATION_ABORT`.
 * Running a step that declares `iterations` past its `max` executions in the run (other than by
 * `onFail.retry`) ends the run with `SR-ITER-001` (family `AGENT_MAX_ITERATIONS`) naming it.
 */
export function routeCheck(
  registry: Registry,
  state: RouterState,
  verdict: CheckVerdict,
  cap: number,
): Result<RouteDecision> {
  if (!state.awaitingCheck) {
    throw contractViolation(
      `routeCheck was called for step "${state.stepId}" without beforeCheck asking for its check.`,
      "After each execution call beforeCheck; run the check and call routeCheck only when it returns { kind: 'check' }.",
    );
  }
  const base: RouterState = { ...state, awaitingCheck: false };
  const found = currentStep(registry, base);
  if (!found.ok) return found;
  const step = found.value;
  const check = step.check;
  if (check === undefined) {
    return fail([
      problem(
        "SR-TRANS-018",
        `Step "${step.id}" has no check, so nothing says where the flow goes after it.`,
        {
          path: stepPath(step.id),
          hint: `Add "check": { "onPass": { "next": "<step id>" } } (or { "complete": true }) to step "${step.id}".`,
        },
      ),
    ]);
  }
  const message = verdict.message;

  if (verdict.passed) {
    if (check.onPass.kind === "complete") {
      return ok({
        kind: "complete",
        stepId: step.id,
        state: base,
        ...(message === undefined ? {} : { message }),
      });
    }
    const target = check.onPass.target;
    const refused = checkTargetProblem(registry, step.id, target, "onPass", "next");
    if (refused !== undefined) return refused;
    return stepDecision(registry, base, target, "check-pass", true, cap, message);
  }

  const onFail = check.onFail;
  const why = message ? ` Last check: ${message}` : "";
  if (onFail === undefined) {
    const count = stepCountOf(base, step.id);
    const executions = step.iterations.declared
      ? count.executions - count.retries
      : base.visitExecutions;
    if (executions < step.iterations.max) {
      return stepDecision(registry, base, step.id, "check-again", false, cap, message);
    }
    return fail([
      problem(
        "AGENT_VALIDATION_ABORT",
        `Step "${step.id}" failed its check after ${executions} execution(s) (iterations.max ${step.iterations.max}) and declares no onFail.${why}`,
        {
          path: stepPath(step.id, "check", "onFail"),
          hint: `Add "onFail": { "retry": true, "maxRetries": N } or { "fallback": "<step id>" } to the check of step "${step.id}", or raise iterations.max.`,
        },
      ),
    ]);
  }
  if (onFail.kind === "retry") {
    const used = base.checkRetries;
    if (onFail.maxRetries > 0 && used >= onFail.maxRetries) {
      return fail([
        problem(
          "AGENT_VALIDATION_ABORT",
          `Step "${step.id}" failed its check again after ${used} retr${used === 1 ? "y" : "ies"} (onFail.maxRetries ${onFail.maxRetries}).${why}`,
          {
            path: stepPath(step.id, "check", "onFail", "maxRetries"),
            hint: `Raise onFail.maxRetries (0 = unlimited, bounded by the run cap), add a fallback step, or make the step prompt satisfy the check at ${JSON.stringify(stepPath(step.id, "check", "prompt"))}.`,
          },
        ),
      ]);
    }
    const retried: RouterState = {
      ...base,
      checkRetries: used + 1,
      stepCounts: updateStepCount(base.stepCounts, step.id, (count) => ({
        ...count,
        retries: count.retries + 1,
      })),
    };
    return stepDecision(registry, retried, step.id, "check-retry", true, cap, message);
  }
  const refused = checkTargetProblem(registry, step.id, onFail.target, "onFail", "fallback");
  if (refused !== undefined) return refused;
  return stepDecision(registry, base, onFail.target, "check-fallback", true, cap, message);
}

function checkTargetProblem(
  registry: Registry,
  stepId: string,
  target: string,
  branch: "onPass" | "onFail",
  field: "next" | "fallback",
): Result<never> | undefined {
  if (!hasStep(registry, target)) {
    return fail([
      problem(
        "SR-TRANS-001",
        `Step "${stepId}" check.${branch}.${field} names "${target}", which does not exist in the registry.`,
        {
          path: stepPath(stepId, "check", branch, field),
          hint: `Add step "${target}" to steps, or change check.${branch}.${field} to an existing step id.`,
        },
      ),
    ]);
  }
  if (lookup(registry.steps, target)?.kind === "section") {
    return fail([
      problem(
        "SR-TRANS-012",
        `Step "${stepId}" check.${branch}.${field} names "${target}", a section step that never runs as a flow step.`,
        {
          path: stepPath(stepId, "check", branch, field),
          hint: "Point the check at a step that runs.",
        },
      ),
    ]);
  }
  return undefined;
}
