import {
  type PromptOverride,
  type PromptSource,
  resolveStepPrompt,
  type UvChannels,
} from "@climpt/c3l-resolver";
import {
  type FailurePattern,
  formatProblem,
  type JsonValue,
  ownEntry,
  type Problem,
  problem,
  type Registry,
  type Step,
  setEntry,
  type ValidationStep,
} from "@climpt/model";
import { introducedValues, type ValidatorResult } from "@climpt/validators";
import type { VerdictDecision } from "../verdict/types.ts";
import { capText } from "./cap-text.ts";
import {
  combined,
  genericValidatorRetryText,
  genericVerdictRetryText,
} from "./generic-retry-text.ts";

/** Where a retry prompt came from. */
export type RetrySource =
  /** The failure pattern's C3L variant (`f_<edition>_<adaptation>.md`, or its `f_<edition>.md`). */
  | { readonly kind: "pattern"; readonly pattern: string; readonly path: string }
  /** The generic failure prompt `f_failed.md` under the retry c2/c3. */
  | { readonly kind: "failed"; readonly path: string }
  /** The built-in text this package writes. */
  | { readonly kind: "generic" };

export interface RetryPrompt {
  readonly text: string;
  readonly source: RetrySource;
  /** The params the prompt was rendered with. */
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
}

interface Common {
  readonly registry: Registry;
  readonly closureStep: Step;
  readonly returnStepId: string;
  readonly validationStep?: ValidationStep | undefined;
  readonly promptSource: PromptSource;
  readonly channels: UvChannels;
  readonly outputCapChars: number;
  readonly registryFile?: string | undefined;
}

export interface ValidatorRetryInput extends Common {
  readonly failure: ValidatorResult;
  readonly failures: readonly ValidatorResult[];
  /**
   * Every result of the attempt, passed ones included: failures compared with the merge base
   * that were already there (`baseline.preExisting`) are named in one line, as not the agent's.
   */
  readonly results?: readonly ValidatorResult[];
  /** How that line names the base ("main"); default "the merge base". */
  readonly baseName?: string;
}

export interface VerdictRetryInput extends Common {
  readonly verdictType: string;
  readonly decision: VerdictDecision;
}

export type RetryPromptOutcome =
  | { readonly ok: true; readonly prompt: RetryPrompt }
  | { readonly ok: false; readonly error: Problem };

/**
 * The retry prompt for a failed validator (docs/design.md#the-completion-chain), first that exists:
 *
 * 1. the failure pattern's variant: C3L with the pattern's edition/adaptation and c2/c3 of the
 *    validationSteps entry (else the closure step's); the resolver itself falls back from
 *    `f_<edition>_<adaptation>.md` to `f_<edition>.md`;
 * 2. `f_failed.md` (edition `failed`, no adaptation) under the same c2/c3;
 * 3. a generic text carrying the failure details.
 *
 * Params: the validator's extracted values, restricted to and ordered by the pattern's
 * `params` (all of them when the pattern declares none), then `validator`, `command`,
 * `exitCode`, `stdout`, `stderr`, `output` (stdout + stderr), `timedOut`, `error`,
 * `failurePattern`, `description`; an extracted value wins over a built-in of the same name.
 * A prompt file that exists but is broken (template syntax, unknown `{uv-*}`) is an error, not
 * a reason to fall back.
 */
export async function buildValidatorRetryPrompt(
  input: ValidatorRetryInput,
): Promise<RetryPromptOutcome> {
  const { failure } = input;
  const pattern: FailurePattern | undefined =
    input.registry.failurePatterns[failure.failurePattern];
  const params = validatorParams(
    failure,
    input.registry.validators[failure.id]?.extractParams ?? {},
    pattern,
    input.outputCapChars,
  );
  const note = preExistingLine(input.results ?? input.failures, input.baseName);
  const built = await validatorPrompt(input, failure, pattern, params);
  if (!built.ok || note === undefined) return built;
  return { ok: true, prompt: { ...built.prompt, text: withLine(built.prompt.text, note) } };
}

async function validatorPrompt(
  input: ValidatorRetryInput,
  failure: ValidatorResult,
  pattern: FailurePattern | undefined,
  params: Record<string, JsonValue | undefined>,
): Promise<RetryPromptOutcome> {
  const attempts: Attempt[] = [];
  if (pattern !== undefined) {
    attempts.push({
      override: overrideFor(input, pattern.edition, pattern.adaptation),
      // The resolver falls back from the adaptation file to the plain edition file; for the
      // usual edition `failed` that plain file is f_failed.md, so say so.
      source: (path, exact) =>
        !exact && pattern.edition === "failed"
          ? { kind: "failed", path }
          : { kind: "pattern", pattern: pattern.id, path },
    });
  }
  if (pattern === undefined || pattern.edition !== "failed") {
    attempts.push({
      override: overrideFor(input, "failed", undefined),
      source: (path) => ({ kind: "failed", path }),
    });
  }
  const resolved = await firstPrompt(input, attempts, params);
  if (resolved !== undefined) return resolved;
  return {
    ok: true,
    prompt: {
      text: genericValidatorRetryText({
        closureStepId: input.closureStep.id,
        returnStepId: input.returnStepId,
        failure,
        pattern,
        params,
        failures: input.failures,
        outputCapChars: input.outputCapChars,
      }),
      source: { kind: "generic" },
      params,
    },
  };
}

/**
 * The retry prompt when validation passed but the verdict is not done: `f_failed_verdict.md`,
 * then `f_failed.md` (under the same c2/c3 as validator failures), then a generic text. Params:
 * `verdict` (its type), `reason`, `retryHint`, and `output` (reason and hint, for `f_failed.md`
 * templates written for command output).
 */
export async function buildVerdictRetryPrompt(
  input: VerdictRetryInput,
): Promise<RetryPromptOutcome> {
  const { decision } = input;
  const output = [decision.reason, decision.retryHint]
    .filter((part) => part !== undefined)
    .join("\n");
  const params: Record<string, JsonValue | undefined> = {
    verdict: input.verdictType,
    reason: decision.reason,
    retryHint: decision.retryHint,
    output,
  };
  const resolved = await firstPrompt(
    input,
    [
      {
        override: overrideFor(input, "failed", "verdict"),
        source: (path) => ({ kind: "failed", path }),
      },
    ],
    params,
  );
  if (resolved !== undefined) return resolved;
  return {
    ok: true,
    prompt: {
      text: genericVerdictRetryText({
        closureStepId: input.closureStep.id,
        returnStepId: input.returnStepId,
        verdictType: input.verdictType,
        decision,
      }),
      source: { kind: "generic" },
      params,
    },
  };
}

function overrideFor(
  input: Common,
  edition: string,
  adaptation: string | undefined,
): PromptOverride {
  const c2 = input.validationStep?.c2;
  const c3 = input.validationStep?.c3;
  return {
    edition,
    ...(adaptation === undefined ? {} : { adaptation }),
    ...(c2 === undefined ? {} : { c2 }),
    ...(c3 === undefined ? {} : { c3 }),
  };
}

interface Attempt {
  readonly override: PromptOverride;
  /** `exact`: the first candidate path was found (not the resolver's no-adaptation fallback). */
  readonly source: (path: string, exact: boolean) => RetrySource;
}

// A missing file (PR-C3L-004) or a path-referenced closure step without retry c2/c3
// (PR-C3L-011) means "no prompt of this kind": try the next one.
const NOT_FOUND = new Set(["PR-C3L-004", "PR-C3L-011"]);

async function firstPrompt(
  input: Common,
  attempts: readonly Attempt[],
  params: Readonly<Record<string, JsonValue | undefined>>,
): Promise<RetryPromptOutcome | undefined> {
  for (const attempt of attempts) {
    const result = await resolveStepPrompt({
      registry: input.registry,
      step: input.closureStep,
      source: input.promptSource,
      channels: input.channels,
      override: attempt.override,
      retryParams: params,
      registryFile: input.registryFile,
    });
    if (result.ok) {
      const origin = result.value.source;
      const path = origin.kind === "file" ? origin.relativePath : `fallback:${origin.key}`;
      // `tried` ends with the file that was found: one entry means the first candidate.
      const exact = result.value.tried.length <= 1;
      return {
        ok: true,
        prompt: { text: result.value.text, source: attempt.source(path, exact), params },
      };
    }
    if (result.issues.every((issue) => NOT_FOUND.has(issue.code))) continue;
    return { ok: false, error: promptError(result.issues) };
  }
  return undefined;
}

function promptError(issues: readonly Problem[]): Problem {
  const first = issues.find((issue) => !NOT_FOUND.has(issue.code)) ?? issues[0];
  return problem(
    first?.code ?? "PR-C3L-004",
    `The retry prompt could not be built: ${issues.map(formatProblem).join(" | ")}`,
    { hint: first?.hint },
  );
}

function validatorParams(
  failure: ValidatorResult,
  extractParams: Readonly<Record<string, string>>,
  pattern: FailurePattern | undefined,
  cap: number,
): Record<string, JsonValue | undefined> {
  const params: Record<string, JsonValue | undefined> = {};
  const names =
    pattern !== undefined && pattern.params.length > 0
      ? pattern.params
      : Object.keys(failure.extracted);
  // Compared with the merge base: the failing tests and errors the prompt lists are only the
  // ones the change introduced (the raw output stays as the command printed it).
  const extracted =
    failure.baseline?.status === "compared"
      ? introducedValues(extractParams, failure.extracted, failure.baseline.introduced)
      : failure.extracted;
  // Keyed by parameter names the registry chose: own entries only, set as own properties, so a
  // parameter named `toString` or `__proto__` is a parameter like any other.
  for (const name of names) setEntry(params, name, capStrings(ownEntry(extracted, name), cap));
  const builtIns: Record<string, JsonValue> = {
    validator: failure.id,
    command: failure.command,
    exitCode: failure.exitCode,
    stdout: capText(failure.stdout, cap),
    stderr: capText(failure.stderr, cap),
    output: combined(failure, cap),
    timedOut: failure.timedOut,
    error: failure.error?.message ?? null,
    failurePattern: failure.failurePattern,
    description: pattern?.description ?? null,
  };
  for (const [name, value] of Object.entries(builtIns)) {
    if (ownEntry(params, name) === undefined) setEntry(params, name, value);
  }
  return params;
}

function capStrings(value: JsonValue | undefined, cap: number): JsonValue | undefined {
  return typeof value === "string" ? capText(value, cap) : value;
}

/** Characters of pre-existing failure names the one line may carry. */
const PRE_EXISTING_LINE_CHARS = 600;

/**
 * The one line that names failures already failing on the base, so the agent does not chase
 * them: "Already failing on main (abc123…) before your change, not yours: a; b." Undefined when
 * none was found.
 */
export function preExistingLine(
  results: readonly ValidatorResult[],
  baseName = "the merge base",
): string | undefined {
  const compared = results.filter(
    (result) => result.baseline?.status === "compared" && result.baseline.preExisting.length > 0,
  );
  const names = compared.flatMap((result) => result.baseline?.preExisting ?? []);
  if (names.length === 0) return undefined;
  const sha = compared[0]?.baseline?.baseSha;
  const on = sha === undefined ? baseName : `${baseName} (${sha.slice(0, 12)})`;
  const list = names.join("; ").replace(/\s+/g, " ");
  const shown =
    list.length > PRE_EXISTING_LINE_CHARS
      ? `${list.slice(0, PRE_EXISTING_LINE_CHARS)}… (${names.length} in all)`
      : list;
  return `Already failing on ${on} before your change, not yours (leave them): ${shown}.`;
}

function withLine(text: string, line: string): string {
  return `${text.trimEnd()}\n\n${line}\n`;
}
