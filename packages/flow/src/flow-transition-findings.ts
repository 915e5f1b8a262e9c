import {
  type GateIntent,
  jsonPath,
  type Registry,
  type Step,
  stepPath,
  type Transition,
} from "@climpt/model";
import type { FlowFinding } from "./flow-codes.ts";
import { continuationOf } from "./flow-graph.ts";

/** A step whose `jump` target is read from the output at run time, with no declared transition. */
export function hasDynamicJump(step: Step): boolean {
  return (
    step.gate?.allowedIntents.includes("jump") === true &&
    step.gate.targetField !== undefined &&
    step.transitions.jump === undefined
  );
}

function targetsOf(transition: Transition, base: string): { target: string; path: string }[] {
  if (transition.kind === "target") {
    return transition.target === null ? [] : [{ target: transition.target, path: base }];
  }
  return Object.entries(transition.targets).map(([value, target]) => ({
    target,
    path: jsonPath(jsonPath(base, "targets"), value),
  }));
}

/**
 * SR-INTENT-101…104: the gate's `allowedIntents` (what the schema enum sends) and the
 * `transitions` keys (what the router receives) must match, except `abort`
 * (never routed) and `next` on `initial.X` when `continuation.X` exists (routed implicitly).
 */
export function intentFindings(registry: Registry, step: Step): FlowFinding[] {
  const gate = step.gate;
  if (gate === undefined) return [];
  const findings: FlowFinding[] = [];
  const allowed = new Set<GateIntent>(gate.allowedIntents);
  const base = stepPath(step.id);
  const allowedPath = jsonPath(jsonPath(base, "structuredGate"), "allowedIntents");
  for (const intent of gate.allowedIntents) {
    if (intent === "abort" || step.transitions[intent] !== undefined) continue;
    if (intent === "next") {
      const continuation = continuationOf(step.id);
      const target = continuation === undefined ? undefined : registry.steps[continuation];
      if (target !== undefined && target.kind !== "section") continue;
    }
    if (intent === "repeat") {
      findings.push({
        code: "SR-INTENT-103",
        severity: "warning",
        stepId: step.id,
        path: allowedPath,
        message: `Step "${step.id}" allows "repeat" but declares no repeat transition; the router keeps it on the same step.`,
        hint: `Add "repeat": { "target": "${step.id}" } to its transitions (or another step to retry from) so the schema enum and the transitions keys match.`,
      });
      continue;
    }
    if (intent === "jump" && hasDynamicJump(step)) {
      findings.push({
        code: "SR-INTENT-104",
        severity: "warning",
        stepId: step.id,
        path: allowedPath,
        message: `Step "${step.id}" allows "jump" with a targetField but declares no jump transition, so its targets are chosen at run time and analysis cannot follow them (unreachable steps are not reported).`,
        hint: `Declare the possible targets in "transitions": { "jump": … } (a conditional transition can list several) so the flow can be checked.`,
      });
      continue;
    }
    findings.push({
      code: "SR-INTENT-101",
      severity: "error",
      stepId: step.id,
      path: allowedPath,
      message: `Step "${step.id}" allows intent "${intent}" but declares no transition for it, so the router cannot route it.`,
      hint:
        intent === "closing"
          ? `Add "closing": { "target": null } to the step's transitions.`
          : `Add "${intent}": { "target": "<step id>" } to the step's transitions, or remove "${intent}" from allowedIntents and the schema enum.`,
    });
  }
  for (const intent of Object.keys(step.transitions) as GateIntent[]) {
    if (intent === "abort" || allowed.has(intent)) continue;
    findings.push({
      code: "SR-INTENT-102",
      severity: "error",
      stepId: step.id,
      path: jsonPath(jsonPath(base, "transitions"), intent),
      message: `Step "${step.id}" declares a transition for intent "${intent}", which its structuredGate.allowedIntents does not allow, so the transition can never be taken.`,
      hint: `Add "${intent}" to allowedIntents (and the schema enum) if the step should emit it, or remove the transition.`,
    });
  }
  return findings;
}

/** What the transition checks need to know about the rest of the flow. */
export interface TransitionContext {
  readonly registry: Registry;
  /** Whether a closure step is reachable from the given flow step (itself included). */
  readonly reachesClosure: (stepId: string) => boolean;
}

function targetFinding(
  context: TransitionContext,
  step: Step,
  target: string,
  path: string,
  what: string,
): FlowFinding | undefined {
  const targetStep = context.registry.steps[target];
  if (targetStep === undefined) {
    return {
      code: "SR-TRANS-101",
      severity: "error",
      stepId: step.id,
      path,
      message: `${what} of step "${step.id}" targets "${target}", which is not a step of this registry.`,
      hint: `Point it at one of the step ids under "steps", or add a step "${target}".`,
    };
  }
  if (targetStep.kind === "section") {
    return {
      code: "SR-TRANS-102",
      severity: "error",
      stepId: step.id,
      path,
      message: `${what} of step "${step.id}" targets "${target}", a section step: sections are prompt fragments with no flow.`,
      hint: `Target a work, verification or closure step instead.`,
    };
  }
  return undefined;
}

/** SR-TRANS-101…107: targets that do not exist, and transitions that cross step kinds wrongly. */
export function transitionFindings(context: TransitionContext, step: Step): FlowFinding[] {
  const findings: FlowFinding[] = [];
  const base = stepPath(step.id, "transitions");
  for (const [intent, transition] of Object.entries(step.transitions) as [
    GateIntent,
    Transition | undefined,
  ][]) {
    if (transition === undefined) continue;
    const path = jsonPath(base, intent);
    const ends = intent === "closing" || intent === "abort";
    if (transition.kind === "target" && transition.target === null && !ends) {
      findings.push({
        code: "SR-TRANS-103",
        severity: "error",
        stepId: step.id,
        path,
        message: `Step "${step.id}" maps intent "${intent}" to "target": null, but only "closing" (completion) and "abort" (a failed run) may end the flow.`,
        hint: `Give "${intent}" a step target; "target": null belongs to a closure step's "closing" or to "abort".`,
      });
    }
    if (intent === "closing" && targetsOf(transition, path).length > 0) {
      findings.push({
        code: "SR-TRANS-104",
        severity: "error",
        stepId: step.id,
        path,
        message: `Step "${step.id}" maps "closing" to a step, but closing ends the flow: the completion chain runs and, when validation passes, the run completes.`,
        hint: `Write "closing": { "target": null }; to go back for more work, use "repeat".`,
      });
    }
    for (const { target, path: targetPath } of targetsOf(transition, path)) {
      const missing = targetFinding(context, step, target, targetPath, `Transition "${intent}"`);
      if (missing !== undefined) {
        findings.push(missing);
        continue;
      }
      const targetKind = (context.registry.steps[target] as Step).kind;
      if (intent === "handoff" && step.kind === "work" && !context.reachesClosure(target)) {
        findings.push({
          code: "SR-TRANS-105",
          severity: "error",
          stepId: step.id,
          path: targetPath,
          message: `Work step "${step.id}" hands off to "${target}" (${targetKind}), from which no closure step can be reached, so the handoff can never lead to completion.`,
          hint: `Point "handoff" at a closure step (a handoff from a work step routes to a closure step).`,
        });
      }
      const crossing = intent === "next" || intent === "jump";
      // An intent the gate does not allow is dead (SR-INTENT-102 says so): no second finding.
      const live = step.gate === undefined || step.gate.allowedIntents.includes(intent);
      if (crossing && live && step.kind === "work" && targetKind === "closure") {
        findings.push({
          code: "SR-TRANS-108",
          severity: "error",
          stepId: step.id,
          path: targetPath,
          message: `Work step "${step.id}" goes to closure step "${target}" with "${intent}"; work crosses into closure only with "handoff", which carries the handoff values and marks the boundary.`,
          hint: `Map "handoff" to "${target}" (and allow it), and point "${intent}" at a work or verification step.`,
        });
      }
      if (intent === "repeat" && step.kind === "closure" && targetKind === "verification") {
        findings.push({
          code: "SR-TRANS-106",
          severity: "error",
          stepId: step.id,
          path: targetPath,
          message: `Closure step "${step.id}" repeats into verification step "${target}"; a closure's repeat goes back to a work step (or the closure itself) to redo the work.`,
          hint: `Point "repeat" at the work step that produces what the closure checks, or at "${step.id}" itself.`,
        });
      }
      if (intent === "escalate" && targetKind !== "verification") {
        findings.push({
          code: "SR-TRANS-107",
          severity: "error",
          stepId: step.id,
          path: targetPath,
          message: `Step "${step.id}" escalates to "${target}", a ${targetKind} step; escalate routes to a verification support step.`,
          hint: `Point "escalate" at a verification step (stepKind "verification").`,
        });
      }
    }
  }
  const check = step.check;
  if (check !== undefined) {
    const checkPath = stepPath(step.id, "check");
    if (check.onPass.kind === "next") {
      const finding = targetFinding(
        context,
        step,
        check.onPass.target,
        jsonPath(checkPath, "onPass"),
        "check.onPass.next",
      );
      if (finding !== undefined) findings.push(finding);
    }
    if (check.onFail?.kind === "fallback") {
      const finding = targetFinding(
        context,
        step,
        check.onFail.target,
        jsonPath(checkPath, "onFail"),
        "check.onFail.fallback",
      );
      if (finding !== undefined) findings.push(finding);
    }
  }
  return findings;
}
