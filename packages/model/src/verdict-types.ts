/**
 * Completion (verdict) types. Both spellings are accepted everywhere and mean the same thing
 * (`stepMachine` = `detect:graph`, …); the normalized model always carries the canonical
 * `category:name` spelling.
 */
export const VERDICT_TYPES = [
  "detect:graph",
  "poll:state",
  "count:iteration",
  "detect:keyword",
  "detect:structured",
  "count:check",
  "meta:composite",
  "meta:custom",
] as const;

export type VerdictType = (typeof VERDICT_TYPES)[number];

/** `count:iteration`'s budget when its config gives no `maxIterations` (the original's handler default). */
export const DEFAULT_VERDICT_MAX_ITERATIONS = 100;
/** `count:check`'s budget when its config gives no `maxChecks` (the original's handler default). */
export const DEFAULT_VERDICT_MAX_CHECKS = 10;

/** The older camelCase names, and the check dialect's `stepFlow`, mapped to the canonical spelling. */
export const VERDICT_TYPE_ALIASES: Readonly<Record<string, VerdictType>> = {
  stepMachine: "detect:graph",
  stepFlow: "detect:graph",
  externalState: "poll:state",
  iterationBudget: "count:iteration",
  keywordSignal: "detect:keyword",
  structuredSignal: "detect:structured",
  checkBudget: "count:check",
  composite: "meta:composite",
  custom: "meta:custom",
};

/** The camelCase name of each canonical type, for messages and for `entryStepMapping` lookups. */
export const VERDICT_TYPE_CAMEL_NAMES: Readonly<Record<VerdictType, string>> = {
  "detect:graph": "stepMachine",
  "poll:state": "externalState",
  "count:iteration": "iterationBudget",
  "detect:keyword": "keywordSignal",
  "detect:structured": "structuredSignal",
  "count:check": "checkBudget",
  "meta:composite": "composite",
  "meta:custom": "custom",
};

/** The canonical spelling of a verdict type name, or undefined when the name is unknown. */
export function canonicalVerdictType(name: string): VerdictType | undefined {
  if ((VERDICT_TYPES as readonly string[]).includes(name)) return name as VerdictType;
  return Object.hasOwn(VERDICT_TYPE_ALIASES, name) ? VERDICT_TYPE_ALIASES[name] : undefined;
}

/**
 * Every spelling that denotes `type`, canonical first. An `entryStepMapping` may be keyed by
 * any of them, so the entry-step lookup tries each in this order.
 */
export function verdictTypeSpellings(type: VerdictType): readonly string[] {
  const spellings: string[] = [type];
  for (const [alias, target] of Object.entries(VERDICT_TYPE_ALIASES)) {
    if (target === type) spellings.push(alias);
  }
  return spellings;
}
