/**
 * Every code this package puts into a chain result, a boundary-hook problem or a thrown
 * `ClimptError`. `AGENT_VALIDATION_ABORT` is the run-level name of DESIGN §6; the rest are this
 * package's share of the `AC-*` family, grouped by what failed: a validator that cannot run
 * (`AC-VALID-*`), a verdict strategy (`AC-VERDICT-*`), the chain's own inputs (`AC-CHAIN-*`) and
 * the boundary hook (`AC-HOOK-*`).
 */
export const COMPLETION_CODES = {
  /** Validation failed and `onFailure` says abort, or the retries ran out (`maxAttempts`). */
  validationAbort: "AGENT_VALIDATION_ABORT",
  /** A validation condition names a validator the registry does not define. */
  unknownValidator: "AC-VALID-001",
  /** A validator's command was not found (exit 127). Retrying the agent cannot fix it. */
  commandNotFound: "AC-VALID-002",
  /** A validator's command could not be executed (exit 126, permission denied). */
  commandNotExecutable: "AC-VALID-003",
  /** A validator could not run for another reason (missing param, spawn failure, bad pattern). */
  validatorBroken: "AC-VALID-004",
  /** A verdict's configuration is missing or wrong (thrown by `createVerdictStrategy`). */
  verdictConfig: "AC-VERDICT-001",
  /** The verdict type is not one of the eight (in either spelling). */
  verdictUnknownType: "AC-VERDICT-002",
  /** `poll:state` could not read the issue (`gh issue view` failed or printed no JSON). */
  verdictPollFailed: "AC-VERDICT-003",
  /** A `meta:custom` handler cannot be loaded: path outside the agent folder, missing, no `createVerdict`, wrong shape. */
  verdictCustomHandler: "AC-VERDICT-004",
  /** A verdict strategy threw while deciding. */
  verdictFailed: "AC-VERDICT-005",
  /** `runCompletionChain` was called for a step the registry does not have. */
  unknownClosureStep: "AC-CHAIN-001",
  /** The run's AbortSignal stopped the chain. */
  chainAborted: "AC-CHAIN-002",
  /** The return step of a retry is not a step of the registry. */
  unknownReturnStep: "AC-CHAIN-003",
  /** GitHub integration is enabled but no issue number is known to act on. */
  hookNoIssue: "AC-HOOK-001",
  /** An issue number or label is not usable (not a positive integer, empty label). */
  hookBadRequest: "AC-HOOK-002",
  /** A boundary command (`gh …` or the command hook) exited non-zero or could not start. */
  hookCommandFailed: "AC-HOOK-003",
} as const;

export type CompletionCode = (typeof COMPLETION_CODES)[keyof typeof COMPLETION_CODES];

/** A coded failure, as carried in a chain result or a hook result. */
export interface CompletionError {
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
}
