import type { ValidationOnFailure } from "@climpt/model";
import type { ValidationLookup } from "@climpt/router";
import type { ValidatorResult } from "@climpt/validators";

/** Stage 2 of the chain, as data: which validators ran and what they found. */
export interface ValidationSummary {
  /** The `validationSteps` key that applied; absent when the closure step has no entry. */
  readonly validationStepId?: string;
  readonly lookup?: ValidationLookup;
  readonly onFailure?: ValidationOnFailure;
  /** Every result, in declared order. Empty when there is no entry (the verdict alone decides). */
  readonly results: readonly ValidatorResult[];
  /** Every validator passed (true when none ran). */
  readonly allPassed: boolean;
  /**
   * Whether the chain treats validation as passed: `allPassed`, or failures under
   * `onFailure.action: "skip"`.
   */
  readonly passed: boolean;
  /** Failures were present and `onFailure.action` is `skip`. */
  readonly skipped: boolean;
  /** The first failed result in declared order. */
  readonly firstFailure?: ValidatorResult;
}
