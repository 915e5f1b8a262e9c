import type { JsonValue, ValidatorDefinition } from "@climpt/model";
import { type RunValidatorOptions, runValidator, type ValidatorResult } from "./run-validator.ts";

/** A validator with params of its own (a validation condition's `params`), merged over the run's. */
export interface ValidatorRun {
  readonly definition: ValidatorDefinition;
  readonly params?: Readonly<Record<string, JsonValue>>;
}

export interface RunValidatorsConfig {
  /** How many validators may run at once; default 1 (one after another, in declared order). */
  readonly concurrency?: number;
}

export interface ValidatorsOutcome {
  /** Every validator passed. */
  readonly passed: boolean;
  /** One result per validator, in declared order, whatever order they finished in. */
  readonly results: readonly ValidatorResult[];
  /** The first failed result in declared order: its `failurePattern` selects the retry prompt. */
  readonly firstFailure?: ValidatorResult;
  /** Some failure cannot be fixed by a retry (see `ValidatorResult.recoverable`). */
  readonly recoverable: boolean;
}

function isRun(entry: ValidatorDefinition | ValidatorRun): entry is ValidatorRun {
  return "definition" in entry;
}

/**
 * Runs validators, up to `concurrency` at a time, and reports them in declared order. Every
 * validator runs even after one fails, so a retry prompt can be built from the first failure
 * while the journal still shows the state of all checks.
 */
export async function runValidators(
  entries: readonly (ValidatorDefinition | ValidatorRun)[],
  options: RunValidatorOptions,
  config: RunValidatorsConfig = {},
): Promise<ValidatorsOutcome> {
  const limit = Math.max(1, Math.floor(config.concurrency ?? 1));
  const results: ValidatorResult[] = new Array(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const index = next;
      next += 1;
      const entry = entries[index] as ValidatorDefinition | ValidatorRun;
      const definition = isRun(entry) ? entry.definition : entry;
      const own = isRun(entry) ? entry.params : undefined;
      results[index] = await runValidator(definition, {
        ...options,
        params: own === undefined ? options.params : { ...options.params, ...own },
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, worker));
  const firstFailure = results.find((result) => !result.passed);
  return {
    passed: firstFailure === undefined,
    results,
    ...(firstFailure === undefined ? {} : { firstFailure }),
    recoverable: results.every((result) => result.passed || result.recoverable),
  };
}
