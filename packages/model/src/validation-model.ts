/**
 * The normalized validation model (part of model.ts's "what every other package sees"): command
 * validators, the conditions a closure step's validation step checks, and the failure patterns
 * whose retry prompts a failed check selects. Plain JSON-compatible data, like model.ts.
 */
import type { JsonValue } from "./json.ts";

export type SuccessCondition =
  | { readonly kind: "empty" }
  | { readonly kind: "exitCode"; readonly code: number }
  | { readonly kind: "contains"; readonly text: string }
  | { readonly kind: "matches"; readonly pattern: string };

export interface ValidatorDefinition {
  readonly id: string;
  readonly type: "command";
  readonly description?: string;
  /** Shell command run with `sh -c` in the run's working directory; `${param}` placeholders. */
  readonly command: string;
  /** As written, e.g. `exitCode:0`. */
  readonly successWhen: string;
  readonly success: SuccessCondition;
  readonly failurePattern: string;
  /** Param name → extractor name (a name from `EXTRACTOR_NAMES`). */
  readonly extractParams: Readonly<Record<string, string>>;
  /** Default 5 minutes when absent. */
  readonly timeoutMs?: number;
  /**
   * Environment variables the command gets although they are secret (names, as declared in
   * `env`). In the sandbox nothing secret is passed otherwise.
   */
  readonly env?: readonly string[];
  /**
   * What a failure is compared with (docs/design.md#the-completion-chain): `compare` runs the
   * same command on the merge base of the run's branch and its base, and only failures the
   * change introduced block; `off` (the default when absent) blocks on every failure.
   */
  readonly baseline?: BaselineMode;
}

/** `ValidatorDefinition.baseline`: compare a failure with the merge base, or not. */
export type BaselineMode = "compare" | "off";

/** What a validator's `baseline` is when its definition names none. */
export const DEFAULT_BASELINE_MODE: BaselineMode = "off";

export interface FailurePattern {
  readonly id: string;
  readonly description: string;
  readonly edition: string;
  readonly adaptation?: string;
  readonly params: readonly string[];
  /**
   * `built-in`: without a retry prompt file, the completion chain's built-in retry text is the
   * intended prompt (the definition asks for it, so the prompt checks do not report it).
   */
  readonly fallback?: "built-in";
}

export interface ValidationCondition {
  readonly validator: string;
  readonly params?: Readonly<Record<string, JsonValue>>;
}

export interface ValidationOnFailure {
  readonly action: "retry" | "abort" | "skip";
  readonly maxAttempts?: number;
}

export interface ValidationStep {
  /** The key in `validationSteps` (a closure step id, or a verdict type's closure id). */
  readonly id: string;
  readonly stepId: string;
  readonly name?: string;
  /** c2/c3 of the retry prompts (usually `retry` / the domain). */
  readonly c2?: string;
  readonly c3?: string;
  readonly conditions: readonly ValidationCondition[];
  readonly onFailure: ValidationOnFailure;
}
