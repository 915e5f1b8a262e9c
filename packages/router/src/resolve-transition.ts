import {
  fail,
  type GateIntent,
  type JsonValue,
  ok,
  problem,
  type Result,
  type Step,
  stepPath,
  type Transition,
} from "@climpt/model";
import { lookup } from "./router-state.ts";

/** Where a conditional transition reads its handoff key, in order. */
export interface ConditionSources {
  readonly handoff?: Readonly<Record<string, JsonValue>> | undefined;
  readonly handoffPaths?: Readonly<Record<string, JsonValue>> | undefined;
  readonly accumulated?: Readonly<Record<string, JsonValue>> | undefined;
}

function findConditionValue(key: string, sources: ConditionSources): JsonValue | undefined {
  for (const record of [sources.handoff, sources.handoffPaths, sources.accumulated]) {
    if (record === undefined) continue;
    const value = lookup(record, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * The text a handoff value matches against `targets`: strings as they are, booleans as
 * "true"/"false", numbers as written in JSON. Null, objects and arrays match nothing, so they
 * take `default`.
 */
export function conditionText(value: JsonValue | undefined): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  return undefined;
}

/**
 * The target a transition names: a simple target (null = terminal), or a conditional's
 * `targets[value] ?? targets.default`. A conditional with neither is `SR-TRANS-014`.
 */
export function resolveTransition(
  step: Step,
  intent: GateIntent,
  transition: Transition,
  sources: ConditionSources,
): Result<string | null> {
  if (transition.kind === "target") return ok(transition.target);
  const value = findConditionValue(transition.condition, sources);
  const text = conditionText(value);
  const chosen = text === undefined ? undefined : lookup(transition.targets, text);
  if (chosen !== undefined) return ok(chosen);
  const fallback = lookup(transition.targets, "default");
  if (fallback !== undefined) return ok(fallback);
  const seen =
    value === undefined
      ? `no handoff value "${transition.condition}"`
      : `handoff "${transition.condition}" = ${JSON.stringify(value)}`;
  return fail([
    problem(
      "SR-TRANS-014",
      `Step "${step.id}" emitted "${intent}" and its conditional transition found ${seen}, which matches none of targets ${JSON.stringify(Object.keys(transition.targets))} and there is no "default".`,
      {
        path: stepPath(step.id, "transitions", intent, "targets"),
        hint: `Add a "default" entry to transitions.${intent}.targets, or make the step hand off "${transition.condition}" (structuredGate.handoffFields) with one of the listed values.`,
      },
    ),
  ]);
}
