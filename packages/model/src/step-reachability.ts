import { type GateIntent, isIntentAllowedForKind } from "./intents.ts";
import { recordValues } from "./json.ts";
import type { Registry, Step, Transition } from "./model.ts";
import { canonicalVerdictType } from "./verdict-types.ts";

/** Verdicts that can send the flow into closure when their budget is spent, from any step. */
const BUDGET_VERDICTS = new Set(["count:iteration", "count:check"]);

export interface ReachabilityOptions {
  /**
   * The agent's verdict type (either spelling). A budget verdict (`count:iteration`,
   * `count:check`) can redirect any step into the registry's first closure step, so that step
   * counts as reachable once any other step is.
   */
  readonly verdictType?: string;
}

export interface StepReachability {
  /** Step ids a run started at the entries can execute, entries included. */
  readonly steps: ReadonlySet<string>;
  /**
   * True when a reachable step lets the model name its `jump` target at run time: then any step
   * may run, and `steps` lists every flow step.
   */
  readonly open: boolean;
}

/** The registry's first closure step in declaration order: where a spent budget sends the flow. */
export function firstClosureStepId(registry: Registry): string | undefined {
  return recordValues(registry.steps).find((step) => step.kind === "closure")?.id;
}

function own(registry: Registry, id: string): Step | undefined {
  return Object.hasOwn(registry.steps, id) ? registry.steps[id] : undefined;
}

function transitionTargets(transition: Transition): string[] {
  if (transition.kind === "target") return transition.target === null ? [] : [transition.target];
  return Object.values(transition.targets);
}

/** Whether the router can take `intent` from `step` at all (its kind and its gate allow it). */
function canEmit(step: Step, intent: GateIntent): boolean {
  if (intent === "abort" || step.kind === "section") return false;
  if (!isIntentAllowedForKind(step.kind, intent)) return false;
  return step.gate === undefined || step.gate.allowedIntents.includes(intent);
}

/** Whether the model may name any step as the target of a `jump` from `step`. */
export function hasRunTimeJumpTarget(step: Step): boolean {
  return step.gate?.targetField !== undefined && canEmit(step, "jump");
}

/**
 * The steps the router can move to from `step`, by its definition alone: declared transitions of
 * intents the step may emit (every target of a conditional), `initial.X` → `continuation.X` for
 * an undeclared `next`, check `onPass.next` and `onFail.fallback`, and the step itself when it
 * can run again (`repeat`, a check retry or iterations, a subprocess that failed). Targets that
 * are not flow steps are left out. A run-time jump target is not listed: see `hasRunTimeJumpTarget`.
 */
export function stepSuccessors(registry: Registry, step: Step): string[] {
  const found = new Set<string>();
  for (const [intent, transition] of Object.entries(step.transitions) as [
    GateIntent,
    Transition | undefined,
  ][]) {
    if (transition === undefined || !canEmit(step, intent)) continue;
    for (const target of transitionTargets(transition)) found.add(target);
  }
  if (canEmit(step, "next") && step.transitions.next === undefined && step.gate !== undefined) {
    if (step.id.startsWith("initial.")) found.add(`continuation.${step.id.slice(8)}`);
  }
  if (canEmit(step, "repeat") && step.transitions.repeat === undefined && step.gate !== undefined) {
    found.add(step.id);
  }
  const check = step.check;
  if (check?.onPass.kind === "next") found.add(check.onPass.target);
  if (check?.onFail?.kind === "fallback") found.add(check.onFail.target);
  if (check !== undefined && (check.onFail?.kind === "retry" || step.iterations.max > 1)) {
    found.add(step.id);
  }
  if (step.subprocess !== undefined) found.add(step.id);
  return [...found].filter((id) => {
    const target = own(registry, id);
    return target !== undefined && target.kind !== "section";
  });
}

/**
 * Every step a run that starts at `entryStepIds` can execute. A failed validation only returns
 * to a step that already ran, so it adds nothing here. Linear in steps and transitions.
 */
export function reachableSteps(
  registry: Registry,
  entryStepIds: readonly string[],
  options: ReachabilityOptions = {},
): StepReachability {
  const seen = new Set<string>();
  const queue: string[] = [];
  const visit = (id: string) => {
    const step = own(registry, id);
    if (step === undefined || step.kind === "section" || seen.has(id)) return;
    seen.add(id);
    queue.push(id);
  };
  for (const id of entryStepIds) visit(id);
  const verdict =
    options.verdictType === undefined ? undefined : canonicalVerdictType(options.verdictType);
  const budgetClosure =
    verdict !== undefined && BUDGET_VERDICTS.has(verdict)
      ? firstClosureStepId(registry)
      : undefined;
  if (budgetClosure !== undefined && queue.length > 0) visit(budgetClosure);
  for (let head = 0; head < queue.length; head++) {
    const step = registry.steps[queue[head] as string] as Step;
    if (hasRunTimeJumpTarget(step)) {
      const all = recordValues(registry.steps).filter((candidate) => candidate.kind !== "section");
      return { steps: new Set(all.map((candidate) => candidate.id)), open: true };
    }
    for (const next of stepSuccessors(registry, step)) visit(next);
  }
  return { steps: seen, open: false };
}
