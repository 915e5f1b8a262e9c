import {
  canonicalVerdictType,
  type Registry,
  type ValidationStep,
  type VerdictType,
} from "@climpt/model";
import { lookup } from "./router-state.ts";

/**
 * The closure step id each verdict type used in the original implementation, where a registry
 * could key its `validationSteps` entry by the verdict instead of by the closure step
 * (`closure.polling` for `poll:state`). Kept so such registries still validate.
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

/** How the `validationSteps` entry of a closure step was found (see `findValidationStep`). */
export type ValidationLookup =
  | "step-key"
  | "step-id"
  | "verdict-closure-key"
  | "verdict-closure-id";

export interface FoundValidationStep {
  readonly entry: ValidationStep;
  readonly lookup: ValidationLookup;
}

/**
 * The `validationSteps` entry that gates a closure step: the validators the completion chain
 * runs for it and the `onFailure` rules (`maxAttempts`) that bound the returns after failures.
 * The one lookup every package uses. First match wins:
 *
 * 1. the entry keyed by the closure step's id;
 * 2. the first entry (declaration order) whose `stepId` names the closure step;
 * 3. the entry keyed by the verdict type's closure id (`VERDICT_CLOSURE_IDS`, any spelling);
 * 4. the first entry whose `stepId` is that closure id.
 *
 * None → undefined: no validators run, the verdict alone decides, and nothing but the run cap
 * bounds the returns.
 */
export function findValidationStep(
  registry: Registry,
  closureStepId: string,
  verdictType?: string,
): FoundValidationStep | undefined {
  const byKey = lookup(registry.validationSteps, closureStepId);
  if (byKey !== undefined) return { entry: byKey, lookup: "step-key" };
  const entries = Object.values(registry.validationSteps);
  const byStepId = entries.find((entry) => entry.stepId === closureStepId);
  if (byStepId !== undefined) return { entry: byStepId, lookup: "step-id" };

  const canonical = verdictType === undefined ? undefined : canonicalVerdictType(verdictType);
  if (canonical === undefined) return undefined;
  const verdictClosure = VERDICT_CLOSURE_IDS[canonical];
  const byVerdictKey = lookup(registry.validationSteps, verdictClosure);
  if (byVerdictKey !== undefined) return { entry: byVerdictKey, lookup: "verdict-closure-key" };
  const byVerdictId = entries.find((entry) => entry.stepId === verdictClosure);
  if (byVerdictId !== undefined) return { entry: byVerdictId, lookup: "verdict-closure-id" };
  return undefined;
}

/**
 * The bound on returns after failed validations: failed validation number `attempt` (1-based)
 * of a closure step may send the flow back while `attempt ≤ onFailure.maxAttempts`. Returns the
 * `maxAttempts` that `attempt` exceeds, or undefined when the attempt is allowed (always, when
 * the entry sets no `maxAttempts`: then only the run cap bounds it).
 */
export function exceededMaxAttempts(
  entry: ValidationStep | undefined,
  attempt: number,
): number | undefined {
  const maxAttempts = entry?.onFailure.maxAttempts;
  return maxAttempts !== undefined && attempt > maxAttempts ? maxAttempts : undefined;
}
