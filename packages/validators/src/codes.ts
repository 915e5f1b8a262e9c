/**
 * Every code this package puts in a `ValidatorResult.error` or an extraction problem. The
 * `SR-VALID-1xx` range is this package's run-time share of the `SR-VALID-*` family; the
 * load-time codes below 100 belong to @climpt/registry-schema (`SR-VALID-004` is reused here for
 * a `matches:` pattern that does not compile, the same problem the loader reports).
 */
export const VALIDATOR_CODES = {
  /** `successWhen` `matches:RE` whose pattern is not a valid regular expression. */
  invalidPattern: "SR-VALID-004",
  /** A `${param}` placeholder in the command has no value in the params. */
  missingParam: "SR-VALID-101",
  /** A param value that cannot become shell words (null, an object, a nested array). */
  unquotableParam: "SR-VALID-102",
  /** The shell exited 127: the command was not found. Not recoverable by retrying. */
  commandNotFound: "SR-VALID-103",
  /** The shell exited 126 or the command could not be executed (permission). Not recoverable. */
  notExecutable: "SR-VALID-104",
  /** The command ran past its timeout; its process group was killed. Recoverable. */
  timedOut: "SR-VALID-105",
  /** The command could not be started at all (working directory missing, no `sh`). */
  spawnFailed: "SR-VALID-106",
  /** The caller's AbortSignal stopped the command. */
  aborted: "SR-VALID-107",
  /** `extractParams` names an extractor that does not exist. */
  unknownExtractor: "SR-VALID-108",
  /** An extractor threw; its param is `null`. */
  extractorFailed: "SR-VALID-109",
  /** `successWhen` `matches:RE` ran past its deadline on the output (catastrophic backtracking). */
  patternTimeout: "SR-VALID-110",
  /** The command could not be prepared where it runs (the OS sandbox cannot start). Not recoverable. */
  launchFailed: "SR-VALID-111",
} as const;

export type ValidatorCode = (typeof VALIDATOR_CODES)[keyof typeof VALIDATOR_CODES];
