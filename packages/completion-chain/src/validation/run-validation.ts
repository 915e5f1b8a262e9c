import {
  type JsonValue,
  type Problem,
  problem,
  type Registry,
  type ValidatorDefinition,
} from "@climpt/model";
import type { FoundValidationStep } from "@climpt/router";
import {
  type BaselineSetup,
  type CommandLauncher,
  compareWithBaseline,
  runValidator,
  type ValidatorResult,
} from "@climpt/validators";
import { COMPLETION_CODES } from "../codes.ts";
import type { ValidationSummary } from "./validation-summary.ts";

export interface RunValidationInput {
  readonly registry: Registry;
  readonly found: FoundValidationStep | undefined;
  readonly cwd: string;
  /** CLI parameters: `${param}` placeholders in commands; a condition's own params win. */
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
  readonly signal?: AbortSignal | undefined;
  /** Timeout for validators without their own `timeoutMs` (which wins). */
  readonly timeoutMs?: number | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Replaces the validators' own scrubber of their output (see `runValidator`). */
  readonly scrubber?: { scrub(text: string): string } | undefined;
  /** Where each command runs (`runValidator`'s `launch`); default `sh -c` on the host. */
  readonly launch?: CommandLauncher | undefined;
  /**
   * How a failure is compared with the merge base, for validators with `baseline: "compare"`
   * (`compareWithBaseline`). Without it such a failure blocks, and its result says there was
   * no base to compare with.
   */
  readonly baseline?: BaselineSetup | undefined;
  readonly onResult?: ((result: ValidatorResult, index: number) => void) | undefined;
}

export type RunValidationOutcome =
  | { readonly ok: true; readonly summary: ValidationSummary }
  | { readonly ok: false; readonly error: Problem; readonly summary: ValidationSummary };

const NO_BASELINE: BaselineSetup = {
  target: { unavailable: "the completion chain was given no base to compare with" },
  launcherFor: "host",
};

/**
 * Stage 2: runs the entry's validators one after another in declared order. Every validator
 * runs even after one fails, so the journal shows the state of all checks; the first failure in
 * declared order picks the retry prompt. A failure of a validator with `baseline: "compare"` is
 * compared with the merge base first: one whose failures all fail there too counts as passed.
 */
export async function runValidation(input: RunValidationInput): Promise<RunValidationOutcome> {
  const { found } = input;
  if (found === undefined) {
    return { ok: true, summary: { results: [], allPassed: true, passed: true, skipped: false } };
  }
  const { entry } = found;
  const base = {
    validationStepId: entry.id,
    lookup: found.lookup,
    onFailure: entry.onFailure,
  };

  const runs: { definition: ValidatorDefinition; params?: Readonly<Record<string, JsonValue>> }[] =
    [];
  for (const [index, condition] of entry.conditions.entries()) {
    const definition = input.registry.validators[condition.validator];
    if (definition === undefined) {
      const known = Object.keys(input.registry.validators);
      return {
        ok: false,
        summary: { ...base, results: [], allPassed: false, passed: false, skipped: false },
        error: problem(
          COMPLETION_CODES.unknownValidator,
          `validationSteps["${entry.id}"].validationConditions[${index}] names validator "${condition.validator}", which the registry does not define.`,
          {
            hint:
              known.length === 0
                ? "Add it under the registry's `validators`."
                : `Define it under \`validators\` or use one of: ${known.join(", ")}.`,
          },
        ),
      };
    }
    runs.push(
      condition.params === undefined ? { definition } : { definition, params: condition.params },
    );
  }

  const results: ValidatorResult[] = [];
  for (const [index, run] of runs.entries()) {
    const options = {
      cwd: input.cwd,
      params: run.params === undefined ? input.params : { ...input.params, ...run.params },
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
      ...(input.env === undefined ? {} : { env: input.env }),
      ...(input.scrubber === undefined ? {} : { scrubber: input.scrubber }),
      ...(input.launch === undefined ? {} : { launch: input.launch }),
    };
    // A failure is compared with the merge base before anything reads the result: when every
    // failure was already there, the validator counts as passed from here on.
    const result = await compareWithBaseline(
      run.definition,
      await runValidator(run.definition, options),
      options,
      input.baseline ?? NO_BASELINE,
    );
    results.push(result);
    input.onResult?.(result, index);
  }

  const firstFailure = results.find((result) => !result.passed);
  const allPassed = firstFailure === undefined;
  const skipped = !allPassed && entry.onFailure.action === "skip";
  return {
    ok: true,
    summary: {
      ...base,
      results,
      allPassed,
      passed: allPassed || skipped,
      skipped,
      ...(firstFailure === undefined ? {} : { firstFailure }),
    },
  };
}

/**
 * The abort a validator that cannot run at all causes (`recoverable: false`): a retry of the
 * agent cannot install a missing tool or fix a permission.
 */
export function unrecoverableError(result: ValidatorResult): Problem {
  const detail =
    result.error === undefined ? "" : ` (${result.error.code}: ${result.error.message})`;
  if (result.error?.code === "SR-VALID-107") {
    return problem(
      COMPLETION_CODES.chainAborted,
      `The completion chain was stopped while validator "${result.id}" ran \`${result.command}\`: the run was aborted.`,
    );
  }
  if (result.exitCode === 127 || result.error?.code === "SR-VALID-103") {
    return problem(
      COMPLETION_CODES.commandNotFound,
      `Validator "${result.id}" cannot run: command not found (exit 127) running \`${result.command}\`.${stderrLine(result)}`,
      {
        hint: "Install the program or fix the validator's command in the registry; retrying the agent cannot fix this.",
      },
    );
  }
  if (result.exitCode === 126 || result.error?.code === "SR-VALID-104") {
    return problem(
      COMPLETION_CODES.commandNotExecutable,
      `Validator "${result.id}" cannot run: permission denied or not executable (exit ${result.exitCode ?? "none"}) running \`${result.command}\`.${stderrLine(result)}`,
      { hint: "Check the program's execute permission and path." },
    );
  }
  return problem(
    COMPLETION_CODES.validatorBroken,
    `Validator "${result.id}" cannot run \`${result.command}\`${detail}.`,
    { hint: result.error?.hint ?? "Fix the validator's definition in the registry." },
  );
}

function stderrLine(result: ValidatorResult): string {
  const text = result.stderr.trim();
  return text === "" ? "" : ` stderr: ${text.slice(0, 300)}`;
}
