/**
 * Whole-registry checks on a normalized (possibly partly defaulted) registry: references between
 * steps, entry steps, the step-kind intent table, gate completeness, validators and failure
 * patterns. Run by `normalizeRegistry`; every problem names the registry file and a JSON path.
 */
import {
  canonicalVerdictType,
  closestMatch,
  GATE_INTENTS,
  isIntentAllowedForKind,
  jsonPath,
  type Registry,
  recordValues,
  STEP_KIND_INTENTS,
  type Step,
  stepPath,
  type Transition,
  VERDICT_TYPES,
} from "@climpt/model";
import { type Findings, report } from "./field-reader.ts";

export function checkRegistry(
  registry: Registry,
  declared: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
  findings: Findings,
): void {
  checkEntry(registry, findings);
  checkOnBudget(registry, findings);
  const gated = registry.dialect === "gate" && recordValues(registry.steps).some((s) => s.gate);
  for (const step of recordValues(registry.steps)) {
    const at = stepPath(step.id);
    // `declared` holds each step as written; a step that was not even an object is absent
    // from it and was reported already, so checking it would only echo that problem.
    const written = declared.get(step.id);
    if (written === undefined) continue;
    checkIntents(step, at, findings);
    checkTransitions(registry, step, at, findings);
    checkCheckTargets(registry, step, at, findings);
    checkHandoffKeys(step, at, findings);
    if (gated) checkGateCompleteness(step, written, at, findings);
  }
  checkValidation(registry, findings);
}

function describeSteps(registry: Registry): string {
  const ids = Object.keys(registry.steps);
  if (ids.length === 0) return "The registry has no steps yet.";
  const shown = ids.slice(0, 8).map((id) => `"${id}"`);
  return `Steps: ${shown.join(", ")}${ids.length > shown.length ? ", …" : ""}.`;
}

/** ` Did you mean "<step id>"?` for a step id that looks like a typo of one that runs, else "". */
function didYouMeanStep(registry: Registry, wanted: string): string {
  const runs = Object.keys(registry.steps).filter((id) => registry.steps[id]?.kind !== "section");
  const closest = closestMatch(wanted, runs);
  return closest === undefined ? "" : ` Did you mean "${closest}"?`;
}

function checkEntry(registry: Registry, findings: Findings): void {
  const mapping = Object.entries(registry.entryStepMapping);
  if (registry.entryStep === undefined && mapping.length === 0) {
    report(
      findings,
      "SR-ENTRY-001",
      "$.entryStep",
      "The registry names no entry step: it has neither entryStep nor entryStepMapping.",
      `Add "entryStep": "<step id>" (or "entryStepMapping": { "<verdict type>": "<step id>" }). ${describeSteps(registry)}`,
    );
  }
  if (registry.entryStep !== undefined && registry.steps[registry.entryStep] === undefined) {
    report(
      findings,
      "SR-ENTRY-002",
      "$.entryStep",
      `entryStep "${registry.entryStep}" is not a step of this registry.${didYouMeanStep(registry, registry.entryStep)}`,
      `Set entryStep to an existing step id, or add step "${registry.entryStep}". ${describeSteps(registry)}`,
    );
  }
  for (const [verdictType, stepId] of mapping) {
    const at = jsonPath("$.entryStepMapping", verdictType);
    if (canonicalVerdictType(verdictType) === undefined) {
      report(
        findings,
        "SR-ENTRY-004",
        at,
        `entryStepMapping key "${verdictType}" is not a verdict type, so no run can start there.`,
        `Key the mapping by a verdict type: ${VERDICT_TYPES.join(", ")} (or a camelCase name such as externalState).`,
      );
    }
    if (registry.steps[stepId] === undefined) {
      report(
        findings,
        "SR-ENTRY-003",
        at,
        `entryStepMapping["${verdictType}"] names "${stepId}", which is not a step of this registry.${didYouMeanStep(registry, stepId)}`,
        `Map "${verdictType}" to an existing step id, or add step "${stepId}". ${describeSteps(registry)}`,
      );
    }
  }
}

/**
 * `onBudget` (docs/design.md#limits-and-budgets): the step a spent budget sends the run to
 * must exist, be a closure step (a work step would start more work with nothing left to spend)
 * and, when it is gated, be able to say `closing`.
 */
function checkOnBudget(registry: Registry, findings: Findings): void {
  const id = registry.onBudget;
  if (id === undefined) return;
  const step = registry.steps[id];
  if (step === undefined) {
    report(
      findings,
      "SR-BUDGET-001",
      "$.onBudget",
      `onBudget "${id}" is not a step of this registry.`,
      `Set onBudget to an existing closure step, or add step "${id}". ${describeSteps(registry)}`,
    );
    return;
  }
  if (step.kind !== "closure") {
    report(
      findings,
      "SR-BUDGET-002",
      "$.onBudget",
      `onBudget names "${id}", a ${step.kind} step; the step a budget sends the run to must be a closure step.`,
      'Point onBudget at a closure step ("stepKind": "closure", or a program step with "runner"): it may comment and label, not go on working.',
    );
    return;
  }
  if (step.gate !== undefined && !step.gate.allowedIntents.includes("closing")) {
    report(
      findings,
      "SR-BUDGET-003",
      `${stepPath(id)}.structuredGate.allowedIntents`,
      `onBudget step "${id}" does not allow the intent closing, so it could never end the run.`,
      'Add "closing" to its structuredGate.allowedIntents (and its schema\'s intent enum).',
    );
  }
}

function checkIntents(step: Step, at: string, findings: Findings): void {
  const gate = step.gate;
  const kind = step.kind;
  if (gate === undefined || kind === "section") return;
  const allowedForKind = STEP_KIND_INTENTS[kind];
  const kindHint = `A ${kind} step may emit ${allowedForKind.join(", ")}${step.kindSource === "inferred" ? ` (its kind was inferred; declare "stepKind" if it is not a ${kind} step)` : ""}.`;
  gate.allowedIntents.forEach((intent, index) => {
    if (isIntentAllowedForKind(kind, intent)) return;
    report(
      findings,
      "SR-INTENT-001",
      jsonPath(`${at}.structuredGate.allowedIntents`, index),
      `Intent "${intent}" is not allowed for ${step.kind} step "${step.id}".`,
      `Remove "${intent}" or move this decision to a step of the right kind. ${kindHint}`,
    );
  });
  const refAt = `${at}.structuredGate.intentSchemaRef`;
  if (!gate.intentSchemaRef.startsWith("#/")) {
    report(
      findings,
      "SR-INTENT-003",
      refAt,
      `intentSchemaRef "${gate.intentSchemaRef}" is not an internal JSON pointer starting with "#/".`,
      'Point into the step\'s own output schema, e.g. "#/properties/next_action/properties/action"; use $ref inside the schema file for shared parts.',
    );
  }
  const fallback = gate.fallbackIntent;
  if (fallback !== undefined) {
    const fallbackAt = `${at}.structuredGate.fallbackIntent`;
    if (!isIntentAllowedForKind(kind, fallback)) {
      report(
        findings,
        "SR-INTENT-001",
        fallbackAt,
        `fallbackIntent "${fallback}" is not allowed for ${step.kind} step "${step.id}".`,
        kindHint,
      );
    } else if (!gate.allowedIntents.includes(fallback)) {
      report(
        findings,
        "SR-INTENT-006",
        fallbackAt,
        `fallbackIntent "${fallback}" is not one of the step's allowedIntents (${gate.allowedIntents.join(", ") || "none"}).`,
        `Add "${fallback}" to allowedIntents or pick a fallbackIntent from them.`,
      );
    }
  }
}

function checkTransitions(registry: Registry, step: Step, at: string, findings: Findings): void {
  for (const intent of GATE_INTENTS) {
    const transition: Transition | undefined = step.transitions[intent];
    if (transition === undefined) continue;
    const here = jsonPath(`${at}.transitions`, intent);
    if (step.kind !== "section" && !isIntentAllowedForKind(step.kind, intent)) {
      report(
        findings,
        "SR-INTENT-001",
        here,
        `Step "${step.id}" is a ${step.kind} step, which never emits "${intent}", so this transition is dead.`,
        `Remove transitions.${intent}, or declare the right "stepKind". A ${step.kind} step may emit ${STEP_KIND_INTENTS[step.kind].join(", ")}.`,
      );
    }
    if (transition.kind === "conditional") {
      for (const [value, target] of Object.entries(transition.targets)) {
        checkTarget(registry, target, jsonPath(`${here}.targets`, value), step, intent, findings);
      }
      continue;
    }
    if (transition.target === null) {
      // A null target ends the flow: `closing` into the completion chain, `abort` as a failure.
      if (intent !== "closing" && intent !== "abort") {
        report(
          findings,
          "SR-TRANS-002",
          `${here}.target`,
          `Step "${step.id}" has transitions.${intent}.target: null; only "closing" (the completion chain) and "abort" (a failed run) may end the flow.`,
          `Set transitions.${intent}.target to a step id (e.g. a closure step for handoff).`,
        );
      }
      continue;
    }
    if (intent === "closing") {
      report(
        findings,
        "SR-TRANS-015",
        `${here}.target`,
        `Step "${step.id}" routes "closing" to "${transition.target}"; closing ends the flow and starts the completion chain.`,
        'Write "closing": { "target": null }; to re-check, let the closure step emit "repeat" instead.',
      );
      continue;
    }
    checkTarget(registry, transition.target, `${here}.target`, step, intent, findings);
  }
}

function checkTarget(
  registry: Registry,
  target: string,
  at: string,
  step: Step,
  via: string,
  findings: Findings,
): void {
  const targetStep = registry.steps[target];
  if (targetStep === undefined) {
    report(
      findings,
      "SR-TRANS-001",
      at,
      `Step "${step.id}" (${via}) goes to "${target}", which is not a step of this registry.${didYouMeanStep(registry, target)}`,
      `Add step "${target}" or change the target. ${describeSteps(registry)}`,
    );
    return;
  }
  if (targetStep.kind === "section") {
    report(
      findings,
      "SR-TRANS-012",
      at,
      `Step "${step.id}" (${via}) goes to "${target}", a section step: sections are prompt fragments and never run.`,
      "Route to a work, verification or closure step.",
    );
  }
}

function checkCheckTargets(registry: Registry, step: Step, at: string, findings: Findings): void {
  const check = step.check;
  if (check === undefined) return;
  if (check.onPass.kind === "next") {
    checkTarget(registry, check.onPass.target, `${at}.check.onPass.next`, step, "onPass", findings);
  }
  if (check.onFail?.kind === "fallback") {
    checkTarget(
      registry,
      check.onFail.target,
      `${at}.check.onFail.fallback`,
      step,
      "onFail",
      findings,
    );
  }
}

function checkHandoffKeys(step: Step, at: string, findings: Findings): void {
  const seen = new Map<string, string>();
  step.handoff.forEach((field, index) => {
    const first = seen.get(field.key);
    if (first === undefined) {
      seen.set(field.key, field.path);
      return;
    }
    const path =
      step.gate === undefined
        ? jsonPath(`${at}.handoff`, index)
        : jsonPath(`${at}.structuredGate.handoffFields`, index);
    report(
      findings,
      "SR-GATE-002",
      path,
      `Step "${step.id}" hands off "${first}" and "${field.path}" under the same key "${field.key}", so later steps would see only one of them.`,
      "Hand off one of them, or restructure the output so the last path segments differ.",
    );
  });
}

/** Whether the step as written has `key`: an own enumerable key, as `Object.keys` lists them. */
function wrote(written: Readonly<Record<string, unknown>>, key: string): boolean {
  return Object.prototype.propertyIsEnumerable.call(written, key);
}

function checkGateCompleteness(
  step: Step,
  written: Readonly<Record<string, unknown>>,
  at: string,
  findings: Findings,
): void {
  // Section steps have no flow; a subprocess step's exit status routes it, not a model's intent.
  if (step.kind === "section" || step.subprocess !== undefined) return;
  if (!wrote(written, "structuredGate")) {
    report(
      findings,
      "SR-GATE-001",
      at,
      `Step "${step.id}" is a ${step.kind} step without structuredGate in a registry whose other steps are gated, so its output could never be routed.`,
      'Add "structuredGate" (allowedIntents, intentSchemaRef, intentField) and "transitions", or make it a section step.',
    );
    return;
  }
  if (!wrote(written, "transitions") || Object.keys(step.transitions).length === 0) {
    report(
      findings,
      "SR-GATE-003",
      `${at}.transitions`,
      `Gated step "${step.id}" has no transitions, so no intent it emits leads anywhere.`,
      `Add "transitions" keyed by its allowedIntents, e.g. { "next": { "target": "<step id>" } }${step.kind === "closure" ? ' or { "closing": { "target": null } }' : ""}.`,
    );
  }
  if (!wrote(written, "outputSchemaRef")) {
    report(
      findings,
      "SR-GATE-004",
      `${at}.outputSchemaRef`,
      `Gated step "${step.id}" has no outputSchemaRef, so the model is not held to an intent enum.`,
      'Add "outputSchemaRef": { "file": "<name>.schema.json", "schema": "<definition>" }.',
    );
  }
}

function checkValidation(registry: Registry, findings: Findings): void {
  for (const validator of Object.values(registry.validators)) {
    if (validator.failurePattern === "") continue;
    if (registry.failurePatterns[validator.failurePattern] !== undefined) continue;
    const known = Object.keys(registry.failurePatterns);
    report(
      findings,
      "SR-VALID-003",
      `${jsonPath("$.validators", validator.id)}.failurePattern`,
      `Validator "${validator.id}" names failure pattern "${validator.failurePattern}", which failurePatterns does not define.`,
      `Add failurePatterns["${validator.failurePattern}"] with an edition (and adaptation), or use one of: ${known.join(", ") || "(none defined)"}.`,
    );
  }
  for (const validationStep of Object.values(registry.validationSteps)) {
    validationStep.conditions.forEach((condition, index) => {
      if (registry.validators[condition.validator] !== undefined) return;
      const known = Object.keys(registry.validators);
      report(
        findings,
        "SR-VALID-002",
        `${jsonPath(`${jsonPath("$.validationSteps", validationStep.id)}.validationConditions`, index)}.validator`,
        `Validation step "${validationStep.id}" runs validator "${condition.validator}", which validators does not define.`,
        `Add validators["${condition.validator}"], or use one of: ${known.join(", ") || "(none defined)"}.`,
      );
    });
  }
}
