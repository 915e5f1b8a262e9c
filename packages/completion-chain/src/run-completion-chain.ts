import type { PromptSource, UvChannels } from "@climpt/c3l-resolver";
import {
  ClimptError,
  type JsonValue,
  type LoadedAgent,
  type Problem,
  problem,
} from "@climpt/model";
import { exceededMaxAttempts, findValidationStep } from "@climpt/router";
import type { BaselineSetup, CommandLauncher } from "@climpt/validators";
import type { BoundaryRequest } from "./boundary/boundary-request.ts";
import type { ChainEvent } from "./chain-events.ts";
import { COMPLETION_CODES } from "./codes.ts";
import {
  buildValidatorRetryPrompt,
  buildVerdictRetryPrompt,
  type RetryPromptOutcome,
  type RetrySource,
} from "./retry/build-retry-prompt.ts";
import { DEFAULT_PROMPT_OUTPUT_CAP_CHARS } from "./retry/cap-text.ts";
import { outcome } from "./retry/generic-retry-text.ts";
import { runValidation, unrecoverableError } from "./validation/run-validation.ts";
import type { ValidationSummary } from "./validation/validation-summary.ts";
import type { VerdictDecision, VerdictStrategy } from "./verdict/types.ts";

type Handoff = Readonly<Record<string, Readonly<Record<string, JsonValue | undefined>>>>;

export interface RunCompletionChainInput {
  readonly loaded: LoadedAgent;
  /** The closure step whose `closing` (or check-dialect `complete`) started the chain. */
  readonly closureStepId: string;
  /**
   * Whether the closure step said `closing` (default true). False for a closure step that
   * carries no intent (no gate, or a program): the verdict alone decides (`DecideContext.closing`).
   */
  readonly closing?: boolean | undefined;
  /** Stage 1: the closure step's structured output. */
  readonly closureOutput: JsonValue;
  /** The closure step's final text. */
  readonly closureText?: string | undefined;
  /** The run's handoff (step id → key → value); channel 4 of retry prompts unless `channels` has one. */
  readonly handoff?: Handoff | undefined;
  /** The work step that led into the closure step; a retry returns there. Default: the closure step. */
  readonly returnStepId?: string | undefined;
  /** Failed validation attempts so far for this closure step (0 the first time). */
  readonly attempt: number;
  readonly iteration: number;
  /** The run's working directory; validators run here. */
  readonly cwd: string;
  /** CLI parameters: `${param}` in validator commands, channel 1 of retry prompts. */
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
  readonly verdict: VerdictStrategy;
  /** The agent's prompt folder (`createAgentPromptSource(loaded.dir, loaded.registry)`). */
  readonly promptSource: PromptSource;
  /** UV channels for retry prompts; the verdict's `uvVariables()` fill runtime names not given. */
  readonly channels?: UvChannels | undefined;
  /** Boundary actions the closure step's tools asked for; the verdict may look at them. */
  readonly boundaryRequests?: readonly BoundaryRequest[] | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onEvent?: ((event: ChainEvent) => void) | undefined;
  /** Timeout for validators that declare no `timeoutMs` of their own (default 5 minutes). */
  readonly validatorTimeoutMs?: number | undefined;
  /**
   * Scrubs secrets from validator output before anything sees it (the run's scrubber, which
   * knows the variables the agent declares secret). Default: the validators' own, built from
   * the process environment.
   */
  readonly scrubber?: { scrub(text: string): string } | undefined;
  /**
   * Where the validators' commands run (`runValidator`'s `launch`). Default: `sh -c` on the host
   * with the process's environment; the runner passes the OS sandbox.
   */
  readonly launchValidator?: CommandLauncher | undefined;
  /**
   * What failures of validators with `baseline: "compare"` are compared with: the run's base and
   * where the command runs on it (the runner's sandbox for that checkout). Without it they are
   * strict, and their results say there was no base.
   */
  readonly baseline?: BaselineSetup | undefined;
  /** Characters of each output stream a retry prompt carries; default 6000. */
  readonly promptOutputCapChars?: number | undefined;
}

export type CompletionChainResult =
  | {
      readonly kind: "done";
      readonly reason: string;
      readonly validation: ValidationSummary;
      readonly verdict: VerdictDecision;
    }
  | {
      readonly kind: "retry";
      /** The prompt of the next iteration, which runs `returnStepId`. */
      readonly retryPrompt: string;
      readonly retrySource: RetrySource;
      readonly returnStepId: string;
      /** The failure pattern of the first failing validator (absent for a verdict retry). */
      readonly failurePattern?: string;
      readonly validation: ValidationSummary;
      /** This attempt's number (the input's `attempt` + 1): store it for the next call. */
      readonly attempt: number;
      /** Present when validation passed and the verdict said not done. */
      readonly verdict?: VerdictDecision;
    }
  | {
      readonly kind: "abort";
      readonly error: Problem;
      readonly validation: ValidationSummary;
    };

const NOTHING_RAN: ValidationSummary = {
  results: [],
  allPassed: false,
  passed: false,
  skipped: false,
};

/**
 * Stages 2 and 3 of the completion chain (docs/design.md#the-completion-chain), called when the
 * router reports `closing` from a closure step (stage 1, the closure prompt, is that step's model
 * call):
 *
 * - validation: the closure step's `validationSteps` entry (`findValidationStep` of
 *   `@climpt/router`) runs its validators; a validator that cannot run at all aborts; failures
 *   follow `onFailure` (`retry` with a failure-specific prompt, `abort`, or `skip`);
 * - verdict: only after validation passed (or was skipped), the strategy decides done; not
 *   done is a retry too.
 *
 * Never throws for anything a command or the model did; every outcome is a result.
 */
export async function runCompletionChain(
  input: RunCompletionChainInput,
): Promise<CompletionChainResult> {
  const { loaded, verdict } = input;
  const { registry } = loaded;
  const emit = (event: ChainEvent): void => input.onEvent?.(event);
  const abort = (error: Problem, validation: ValidationSummary): CompletionChainResult => {
    emit({ type: "chain-aborted", error });
    return { kind: "abort", error, validation };
  };

  const closureStep = registry.steps[input.closureStepId];
  if (closureStep === undefined) {
    return abort(
      problem(
        COMPLETION_CODES.unknownClosureStep,
        `The completion chain was started for step "${input.closureStepId}", which is not in the registry ${loaded.files.registry}.`,
        { hint: "Pass the id of the closure step whose closing intent started the chain." },
      ),
      NOTHING_RAN,
    );
  }
  const returnStepId = input.returnStepId ?? closureStep.id;
  if (registry.steps[returnStepId] === undefined) {
    return abort(
      problem(
        COMPLETION_CODES.unknownReturnStep,
        `The retry step "${returnStepId}" for closure step "${closureStep.id}" is not in the registry ${loaded.files.registry}.`,
        { hint: "Pass the work step that led into the closure step as returnStepId." },
      ),
      NOTHING_RAN,
    );
  }
  if (input.signal?.aborted) return abort(abortedError(closureStep.id), NOTHING_RAN);

  // Stage 2: validation.
  const found = findValidationStep(registry, closureStep.id, loaded.agent.verdict.type);
  const entry = found?.entry;
  emit({
    type: "validation-started",
    closureStepId: closureStep.id,
    ...(entry === undefined ? {} : { validationStepId: entry.id }),
    validators: entry?.conditions.map((condition) => condition.validator) ?? [],
  });
  const ran = await runValidation({
    registry,
    found,
    cwd: input.cwd,
    params: input.params,
    signal: input.signal,
    timeoutMs: input.validatorTimeoutMs,
    ...(input.scrubber === undefined ? {} : { scrubber: input.scrubber }),
    ...(input.launchValidator === undefined ? {} : { launch: input.launchValidator }),
    ...(input.baseline === undefined ? {} : { baseline: input.baseline }),
    onResult: (result, index) => emit({ type: "validator-finished", index, result }),
  });
  const validation = ran.summary;
  emit({ type: "validation-finished", validation });
  if (!ran.ok) return abort(ran.error, validation);

  // A validator that cannot run at all (127, 126, a broken definition, an abort) is not
  // something the agent can fix; even under `skip` it must not pass silently.
  const broken = validation.results.find((result) => !result.passed && !result.recoverable);
  if (broken !== undefined) return abort(unrecoverableError(broken), validation);
  if (input.signal?.aborted) return abort(abortedError(closureStep.id), validation);

  const attempt = input.attempt + 1;
  // The router's bound (the same one `returnAfterFailedValidation` applies): checked here too, so
  // the chain does not build a retry prompt the router would refuse, and says what failed.
  const maxAttempts = exceededMaxAttempts(entry, attempt);
  const common = {
    registry,
    closureStep,
    returnStepId,
    validationStep: entry,
    promptSource: input.promptSource,
    channels: retryChannels(input),
    outputCapChars: input.promptOutputCapChars ?? DEFAULT_PROMPT_OUTPUT_CAP_CHARS,
    registryFile: loaded.files.registry,
  };
  const retry = (
    built: RetryPromptOutcome,
    extra: { failurePattern?: string; verdict?: VerdictDecision },
  ): CompletionChainResult => {
    if (!built.ok) return abort(built.error, validation);
    emit({
      type: "retry-prepared",
      returnStepId,
      attempt,
      source: built.prompt.source,
      ...(extra.failurePattern === undefined ? {} : { failurePattern: extra.failurePattern }),
    });
    return {
      kind: "retry",
      retryPrompt: built.prompt.text,
      retrySource: built.prompt.source,
      returnStepId,
      validation,
      attempt,
      ...extra,
    };
  };

  const failure = validation.firstFailure;
  if (failure !== undefined && !validation.skipped) {
    const failedIds = validation.results
      .filter((result) => !result.passed)
      .map((result) => result.id);
    const what = `validator "${failure.id}" (\`${failure.command}\`) failed: ${outcome(failure)}`;
    if (entry?.onFailure.action === "abort") {
      return abort(
        problem(
          COMPLETION_CODES.validationAbort,
          `Validation of closure step "${closureStep.id}" failed (${failedIds.join(", ")}); ${what}. validationSteps["${entry.id}"].onFailure.action is "abort".`,
          {
            hint: 'Fix what the validator reports and run again, or set onFailure.action to "retry" to let the agent fix it.',
          },
        ),
        validation,
      );
    }
    if (maxAttempts !== undefined) {
      return abort(exhausted(closureStep.id, entry?.id, attempt, maxAttempts, what), validation);
    }
    const built = await buildValidatorRetryPrompt({
      ...common,
      failure,
      failures: validation.results.filter((result) => !result.passed),
      results: validation.results,
      baseName: baseNameOf(input.baseline),
    });
    return retry(built, { failurePattern: failure.failurePattern });
  }

  // Stage 3: verdict.
  let decision: VerdictDecision;
  try {
    decision = await verdict.decide({
      closureStepId: closureStep.id,
      closing: input.closing ?? true,
      closureOutput: input.closureOutput,
      closureText: input.closureText ?? "",
      validation,
      boundaryRequests: input.boundaryRequests ?? [],
      iteration: input.iteration,
      signal: input.signal,
    });
  } catch (error) {
    return abort(verdictError(verdict.type, error), validation);
  }
  emit({ type: "verdict-decided", verdictType: verdict.type, decision });
  if (decision.done)
    return { kind: "done", reason: decision.reason, validation, verdict: decision };

  if (maxAttempts !== undefined) {
    return abort(
      exhausted(
        closureStep.id,
        entry?.id,
        attempt,
        maxAttempts,
        `the verdict (${verdict.type}) is not done: ${decision.reason}`,
      ),
      validation,
    );
  }
  const built = await buildVerdictRetryPrompt({ ...common, verdictType: verdict.type, decision });
  return retry(built, { verdict: decision });
}

/** How the base is named in a retry prompt: the runner's name for it, else "the merge base". */
function baseNameOf(baseline: BaselineSetup | undefined): string {
  return baseline !== undefined && !("unavailable" in baseline.target)
    ? baseline.target.name
    : "the merge base";
}

function retryChannels(input: RunCompletionChainInput): UvChannels {
  const channels = input.channels ?? {};
  return {
    ...channels,
    parameters: channels.parameters ?? input.params,
    runtime: { ...input.verdict.uvVariables(), ...channels.runtime },
    handoff: channels.handoff ?? input.handoff,
  };
}

function exhausted(
  closureStepId: string,
  entryId: string | undefined,
  attempt: number,
  maxAttempts: number,
  what: string,
): Problem {
  return problem(
    COMPLETION_CODES.validationAbort,
    `Closure step "${closureStepId}" was refused ${attempt} times and onFailure.maxAttempts is ${maxAttempts}, so the run stops; this time ${what}.`,
    {
      hint: `Read the validator output in the journal and fix what it reports, or raise validationSteps["${entryId ?? closureStepId}"].onFailure.maxAttempts.`,
    },
  );
}

function abortedError(closureStepId: string): Problem {
  return problem(
    COMPLETION_CODES.chainAborted,
    `The completion chain of closure step "${closureStepId}" was stopped: the run was aborted.`,
  );
}

function verdictError(type: string, error: unknown): Problem {
  if (ClimptError.isInstance(error)) {
    return problem(error.code, error.message, { hint: error.hint });
  }
  return problem(
    COMPLETION_CODES.verdictFailed,
    `The verdict strategy (${type}) failed while deciding: ${error instanceof Error ? error.message : String(error)}.`,
    {
      hint: "Fix the verdict (for meta:custom, the module's decide) so it returns { done, reason }.",
    },
  );
}
