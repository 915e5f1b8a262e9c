import {
  canonicalVerdictType,
  type Registry,
  type ValidationStep,
  type VerdictType,
} from "@climpt/model";
import type { ValidationLookup } from "./validation-summary.ts";

/**
 * The closure step id each verdict type used in the original implementation, where a registry
 * could key its `validationSteps` entry by the verdict instead of by the closure step
 * (`closure.polling` for `poll:state`). Kept for compatibility (DESIGN §4.4.11).
 */
export const VERDICT_CLOSURE_IDS: Readonly<Record<VerdictType, string>> = {
  "detect:graph": "closure.graph",
  "poll:state": "closure.polling",
  "count:iteration": "closure.iteration",
  "detect:keyword": "closure.keyword",
  "detect:structured": "closure.structured",
  "count:check": "closure.check",
  "meta:composite": "closure.composite",
  "meta:custom": "closure.custom",
};

export interface FoundValidationStep {
  readonly entry: ValidationStep;
  readonly lookup: ValidationLookup;
}

/**
 * The `validationSteps` entry that gates the closure step that is running. Lookup order:
 *
 * 1. the entry keyed by the closure step's id;
 * 2. the first entry (declaration order) whose `stepId` names the closure step;
 * 3. the entry keyed by the verdict type's closure id (`VERDICT_CLOSURE_IDS`, any spelling);
 * 4. the first entry whose `stepId` is that closure id.
 *
 * None → undefined: no validators run and the verdict alone decides.
 */
export function findValidationStep(
  registry: Registry,
  closureStepId: string,
  verdictType?: string,
): FoundValidationStep | undefined {
  const byKey = registry.validationSteps[closureStepId];
  if (byKey !== undefined) return { entry: byKey, lookup: "step-key" };
  const entries = Object.values(registry.validationSteps);
  const byStepId = entries.find((entry) => entry.stepId === closureStepId);
  if (byStepId !== undefined) return { entry: byStepId, lookup: "step-id" };

  const canonical = verdictType === undefined ? undefined : canonicalVerdictType(verdictType);
  if (canonical === undefined) return undefined;
  const verdictClosure = VERDICT_CLOSURE_IDS[canonical];
  const byVerdictKey = registry.validationSteps[verdictClosure];
  if (byVerdictKey !== undefined) return { entry: byVerdictKey, lookup: "verdict-closure-key" };
  const byVerdictId = entries.find((entry) => entry.stepId === verdictClosure);
  if (byVerdictId !== undefined) return { entry: byVerdictId, lookup: "verdict-closure-id" };
  return undefined;
}
