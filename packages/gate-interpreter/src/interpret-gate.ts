import {
  fail,
  GATE_INTENTS,
  type GateIntent,
  INTENT_ALIASES,
  isIntentAllowedForKind,
  type JsonValue,
  ok,
  type Problem,
  type Result,
  STEP_KIND_INTENTS,
  type Step,
  type StructuredGate,
  stepPath,
} from "@climpt/model";
import { parentPathOf, readDotPath } from "./dot-path.ts";
import { handoffFieldsOf, readHandoff } from "./extract-handoff.ts";
import type { GateInterpretation, InterpretGateOptions } from "./gate-interpretation.ts";
import { normalizeIntent } from "./normalize-intent.ts";

/** Why the model's answer could not be used as an intent. */
type IntentFailure =
  | { readonly kind: "missing" }
  | { readonly kind: "unknown"; readonly raw: string }
  | { readonly kind: "not-allowed"; readonly intent: GateIntent; readonly raw: string };

/** The run-level family of the problems the gate finds (see `Problem.family`). */
const GATE_FAMILY = "GATE_INTERPRETATION_ERROR";

function list(values: readonly string[]): string {
  return `[${values.join(", ")}]`;
}

const ALIAS_TEXT = Object.entries(INTENT_ALIASES)
  .map(([alias, intent]) => `${alias}→${intent}`)
  .join(", ");

/**
 * `abort` is always allowed (docs/design.md#steps-and-kinds); every other intent needs both the
 * gate and the kind.
 */
export function isIntentAllowedForStep(
  step: Step,
  gate: StructuredGate,
  intent: GateIntent,
): boolean {
  if (intent === "abort") return true;
  if (step.kind === "section") return false;
  return gate.allowedIntents.includes(intent) && isIntentAllowedForKind(step.kind, intent);
}

function rawText(raw: JsonValue): string {
  return typeof raw === "string" ? raw : JSON.stringify(raw);
}

function describeOutput(output: unknown): string {
  if (output === null) return "null";
  if (Array.isArray(output)) return "an array";
  if (typeof output === "object") return "an object";
  return `a ${typeof output}`;
}

function failureProblem(
  step: Step,
  gate: StructuredGate,
  failure: IntentFailure,
  output: unknown,
  iteration: number,
): Problem {
  const kind = step.kind;
  const allowed = gate.allowedIntents.includes("abort")
    ? gate.allowedIntents
    : [...gate.allowedIntents, "abort"];
  const enumFix = `constrain "${gate.intentField}" with an enum of ${list(allowed)} in the step's output schema (intentSchemaRef "${gate.intentSchemaRef}") and name those values in the step prompt`;
  switch (failure.kind) {
    case "missing": {
      const late = iteration > 1;
      const shape =
        typeof output === "object" && output !== null && !Array.isArray(output)
          ? ""
          : ` (the output is ${describeOutput(output)})`;
      return {
        code: "SR-INTENT-007",
        family: late ? "FAILED_STEP_ROUTING" : GATE_FAMILY,
        severity: "error",
        message: `Step "${step.id}" returned no intent at "${gate.intentField}" on iteration ${iteration}${shape}; the run stops instead of guessing where to go (fail-fast).`,
        path: stepPath(step.id, "structuredGate", "intentField"),
        hint: `Make "${gate.intentField}" required in the step's output schema and ${enumFix}. If the field lives elsewhere in the output, correct structuredGate.intentField.`,
      };
    }
    case "unknown":
      return {
        code: "SR-INTENT-002",
        family: GATE_FAMILY,
        severity: "error",
        message: `Step "${step.id}" returned ${JSON.stringify(failure.raw)} at "${gate.intentField}", which is not an intent. Intents are ${list(GATE_INTENTS)} (aliases ${ALIAS_TEXT}); this step allows ${list(allowed)}.`,
        path: stepPath(step.id, "structuredGate", "intentField"),
        hint: `${capitalize(enumFix)}; or set structuredGate.failFast: false with a fallbackIntent if a wrong answer should not stop the run.`,
      };
    case "not-allowed": {
      const written =
        failure.raw.trim().toLowerCase() === failure.intent
          ? ""
          : ` (written ${JSON.stringify(failure.raw)})`;
      const kindAllows = kind === "section" ? [] : STEP_KIND_INTENTS[kind];
      const byKind = kind !== "section" && !isIntentAllowedForKind(kind, failure.intent);
      const closingHint =
        failure.intent === "closing"
          ? ` Only closure steps may emit "closing"; a ${kind} step hands over to a closure step with "handoff".`
          : "";
      return {
        code: "SR-INTENT-001",
        family: GATE_FAMILY,
        severity: "error",
        message: `Intent "${failure.intent}"${written} at "${gate.intentField}" is not allowed for ${kind} step "${step.id}": structuredGate.allowedIntents is ${list(gate.allowedIntents)} and ${kind} steps may emit ${list(kindAllows)}.${closingHint}`,
        path: stepPath(step.id, "structuredGate", "allowedIntents"),
        hint: byKind
          ? `Remove "${failure.intent}" from the enum at intentSchemaRef "${gate.intentSchemaRef}" so the model cannot answer it, and ${enumFix}; or move this decision to a step of a kind that allows it.`
          : `Add "${failure.intent}" to structuredGate.allowedIntents and to transitions of step "${step.id}" if the step should allow it; otherwise ${enumFix}.`,
      };
    }
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function failureReason(gate: StructuredGate, failure: IntentFailure): string {
  switch (failure.kind) {
    case "missing":
      return `no intent at "${gate.intentField}"`;
    case "unknown":
      return `${JSON.stringify(failure.raw)} at "${gate.intentField}" is not an intent`;
    case "not-allowed":
      return `intent "${failure.intent}" is not allowed here`;
  }
}

/** The model's `reason`, from the object that holds the intent field. */
function siblingReason(output: unknown, intentField: string): string | undefined {
  const parent = parentPathOf(intentField);
  if (parent === undefined) return undefined;
  const holder = parent === "" ? output : readDotPath(output, parent);
  if (typeof holder !== "object" || holder === null || Array.isArray(holder)) return undefined;
  if (!Object.hasOwn(holder, "reason")) return undefined;
  const reason = (holder as Record<string, unknown>).reason;
  return typeof reason === "string" && reason.trim() !== "" ? reason : undefined;
}

interface DecidedIntent {
  readonly intent: GateIntent;
  readonly usedFallback: boolean;
  readonly fallbackReason?: string;
}

function decideIntent(
  step: Step,
  gate: StructuredGate,
  raw: JsonValue | undefined,
  output: unknown,
  iteration: number,
): Result<DecidedIntent> {
  let failure: IntentFailure;
  if (raw === undefined || (typeof raw === "string" && raw.trim() === "")) {
    failure = { kind: "missing" };
  } else {
    const intent = normalizeIntent(raw);
    if (intent === undefined) failure = { kind: "unknown", raw: rawText(raw) };
    else if (!isIntentAllowedForStep(step, gate, intent)) {
      failure = { kind: "not-allowed", intent, raw: rawText(raw) };
    } else {
      return ok({ intent, usedFallback: false });
    }
  }
  // failFast: false without a fallbackIntent behaves like failFast: true: climpt never invents
  // a fallback (docs/design.md#the-gate), so only a declared one may replace the model's answer.
  if (gate.failFast || gate.fallbackIntent === undefined) {
    return fail([failureProblem(step, gate, failure, output, iteration)]);
  }
  if (!isIntentAllowedForStep(step, gate, gate.fallbackIntent)) {
    return fail([
      {
        code: "SR-GATE-006",
        family: GATE_FAMILY,
        severity: "error",
        message: `Step "${step.id}" fell back to fallbackIntent "${gate.fallbackIntent}" (${failureReason(gate, failure)}), but "${gate.fallbackIntent}" is not allowed for this ${step.kind} step.`,
        path: stepPath(step.id, "structuredGate", "fallbackIntent"),
        hint: `Set structuredGate.fallbackIntent to one of ${list(gate.allowedIntents)} that ${step.kind} steps may emit.`,
      },
    ]);
  }
  return ok({
    intent: gate.fallbackIntent,
    usedFallback: true,
    fallbackReason: `fallbackIntent "${gate.fallbackIntent}" used: ${failureReason(gate, failure)}`,
  });
}

/**
 * Reads a gate-dialect step's structured output (docs/design.md#the-gate): the intent at
 * `intentField` (aliases mapped, case-insensitive), checked against `allowedIntents` and the
 * step-kind table; the `jump` target at `targetField`; the declared handoff (`handoffFieldsOf`). Only
 * `next_action`-style intent fields count: a `status: "completed"` elsewhere in the output is
 * never a completion signal (docs/design.md#intents).
 */
export function interpretGate(
  step: Step,
  output: unknown,
  options: InterpretGateOptions,
): Result<GateInterpretation> {
  const gate = step.gate;
  if (gate === undefined || step.kind === "section") {
    return fail([
      {
        code: "SR-GATE-005",
        family: GATE_FAMILY,
        severity: "error",
        message: `Step "${step.id}" (${step.kind}) has no structuredGate, so its output has no intent to read.`,
        path: stepPath(step.id),
        hint:
          step.kind === "section"
            ? "Section steps are prompt fragments and never run as a flow step; route to a work, verification or closure step instead."
            : `Add a structuredGate (allowedIntents, intentSchemaRef, intentField) to step "${step.id}", or, for a check-dialect step, use interpretCheck on its check output.`,
      },
    ]);
  }

  const found = readDotPath(output, gate.intentField);
  const raw = found === undefined || found === null ? undefined : found;
  const rawIntent = raw === undefined ? undefined : rawText(raw);

  const decided = decideIntent(step, gate, raw, output, options.iteration);
  if (!decided.ok) return decided;
  const { intent, usedFallback, fallbackReason } = decided.value;

  let target: string | undefined;
  if (intent === "jump") {
    if (gate.targetField !== undefined) {
      const value = readDotPath(output, gate.targetField);
      if (typeof value === "string" && value.trim() !== "") target = value.trim();
    }
    if (target === undefined && step.transitions.jump === undefined) {
      return fail([
        {
          code: "SR-TRANS-011",
          family: GATE_FAMILY,
          severity: "error",
          message:
            gate.targetField === undefined
              ? `Step "${step.id}" returned "jump", but it declares no structuredGate.targetField and no transitions.jump, so there is no step to jump to.`
              : `Step "${step.id}" returned "jump" without a target step id at "${gate.targetField}".`,
          path: stepPath(step.id, "structuredGate", "targetField"),
          hint:
            gate.targetField === undefined
              ? `Add "targetField" (the dot path of the target step id in the output) to the step's structuredGate, or a transitions.jump target.`
              : `Make "${gate.targetField}" required when the intent is "jump" in the step's output schema, and tell the model in the prompt which step ids it may jump to.`,
        },
      ]);
    }
  }

  const { handoff, handoffPaths } = readHandoff(output, handoffFieldsOf(step));
  const reason = siblingReason(output, gate.intentField) ?? fallbackReason;

  return ok({
    intent,
    ...(target === undefined ? {} : { target }),
    handoff,
    handoffPaths,
    ...(reason === undefined ? {} : { reason }),
    usedFallback,
    ...(rawIntent === undefined ? {} : { rawIntent }),
  });
}
