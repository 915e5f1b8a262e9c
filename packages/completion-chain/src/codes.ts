/**
 * Every code this package puts into a chain result, a boundary-hook problem or a thrown
 * `ClimptError`. `AGENT_VALIDATION_ABORT` is a run-level name (docs/design.md#errors); the rest are
 * this package's share of the `AC-*` family, grouped by what failed: a validator that cannot run
 * (`AC-VALIDATOR-*`), a verdict strategy (`AC-VERDICT-*`), the chain's own inputs (`AC-CHAIN-*`)
 * and the boundary hook (`AC-HOOK-*`). A problem the loader also reports keeps the loader's code
 * (`SR-VALID-002`, `AC-VERDICT-001` to `-003`), so one mistake has one code whichever package finds
 * it; the catalogue of every code is in @climpt/registry-schema's README.
 */
export const COMPLETION_CODES = {
  /** Validation failed and `onFailure` says abort, or the retries ran out (`maxAttempts`). */
  validationAbort: "AGENT_VALIDATION_ABORT",
  /** A validation condition names a validator the registry does not define (the loader's code). */
  unknownValidator: "SR-VALID-002",
  /** A validator's command was not found (exit 127). Retrying the agent cannot fix it. */
  commandNotFound: "AC-VALIDATOR-001",
  /** A validator's command could not be executed (exit 126, permission denied). */
  commandNotExecutable: "AC-VALIDATOR-002",
  /** A validator could not run for another reason (missing param, spawn failure, bad pattern). */
  validatorBroken: "AC-VALIDATOR-003",
  /** The verdict type is not one of the eight (in either spelling); the loader's code. */
  verdictUnknownType: "AC-VERDICT-001",
  /** A composite verdict's `operator` or `conditions` is wrong; the loader's code. */
  verdictComposite: "AC-VERDICT-002",
  /** A verdict setting is missing or wrong (thrown by `createVerdictStrategy`); the loader's code. */
  verdictConfig: "AC-VERDICT-003",
  /** `poll:state` could not read the issue (`gh issue view` failed or printed no JSON). */
  verdictPollFailed: "AC-VERDICT-006",
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
  /**
   * A boundary request or the closure output named an issue, pull request or repository that is
   * not the run's, and agent.json does not declare it (`integrations.github.targets`): not acted on.
   */
  hookNotRunsTarget: "AC-HOOK-004",
} as const;

export type CompletionCode = (typeof COMPLETION_CODES)[keyof typeof COMPLETION_CODES];
