/**
 * Every code this package puts in a `ValidatorResult.error` or an extraction problem. The
 * `SR-VALID-1xx` range is this package's run-time share of the `SR-VALID-*` family; the
 * load-time codes below 100 belong to @climpt/registry-schema (`SR-VALID-004` is reused here for
 * a `matches:` pattern that does not compile, the same problem the loader reports).
 */
export const VALIDATOR_CODES = {
  /**
   * `successWhen` `matches:RE` whose pattern is not a valid regular expression. Example:
   * `successWhen "nothing" is not one of empty, exitCode:N, contains:S, matches:RE.` Fix: Use one
   * of the four forms.
   */
  invalidPattern: "SR-VALID-004",
  /**
   * A `${param}` placeholder in the command has no value in the params. Example: `The command uses
   * ${branch} but no param "branch" was given.` Fix: Pass it in the condition's params or the agent
   * parameters; for a shell variable write `$branch`.
   */
  missingParam: "SR-VALID-101",
  /**
   * A param value that cannot become shell words (null, an object, a nested array). Example: `Param
   * "files" is an object or a nested array, which cannot become shell words.` Fix: Give a string,
   * number, boolean, or an array of those.
   */
  unquotableParam: "SR-VALID-102",
  /**
   * The shell exited 127: the command was not found. Not recoverable by retrying. Example: ``
   * Validator "tests": command not found (exit 127) running `pnpm tset`. `` Fix: Install the tool
   * or fix the command; retrying the agent cannot fix it.
   */
  commandNotFound: "SR-VALID-103",
  /**
   * The shell exited 126 or the command could not be executed (permission). Not recoverable.
   * Example: `` Validator "lint": the command could not be executed (exit 126, e.g. permission
   * denied) running `./lint.sh`. `` Fix: Check the execute permission and the command path.
   */
  notExecutable: "SR-VALID-104",
  /**
   * The command ran past its timeout; its process group was killed. Recoverable. Example:
   * `Validator "tests" ran longer than 300000 ms; its process group was stopped.` Fix: Make the
   * command faster, or raise the validator's `timeoutMs`.
   */
  timedOut: "SR-VALID-105",
  /**
   * The command could not be started at all (working directory missing, no `sh`). Example:
   * `Validator "tests" cannot run: the working directory /tmp/gone does not exist.` Fix: Run
   * validators in the run's existing working directory; put `sh` on PATH.
   */
  spawnFailed: "SR-VALID-106",
  /**
   * The caller's AbortSignal stopped the command. Example: `Validator "tests" was stopped: the run
   * was aborted.` Fix: Nothing to fix; resume the run.
   */
  aborted: "SR-VALID-107",
  /**
   * `extractParams` names an extractor that does not exist. Example: `Validator "git-clean" names
   * unknown extractors in extractParams (parseChanges).` Fix: Use a listed extractor.
   */
  unknownExtractor: "SR-VALID-108",
  /**
   * An extractor threw; its param is `null`. Example: `Extractor "parseTestOutput" failed for param
   * "failures": …` Fix: Report it with the command's output; the extractor should not throw.
   */
  extractorFailed: "SR-VALID-109",
  /**
   * `successWhen` `matches:RE` ran past its deadline on the output (catastrophic backtracking).
   * Example: `` successWhen "matches:^(a+)+$" took longer than 10000 ms on the command's output and
   * was stopped. `` Fix: Simplify the pattern (no nested repetition such as `(a+)+`).
   */
  patternTimeout: "SR-VALID-110",
  /**
   * The command could not be prepared where it runs (the OS sandbox cannot start). Not recoverable.
   * Example: `Validator "tests" cannot run: the OS sandbox cannot start here: bubblewrap (bwrap)
   * not installed.` Fix: Install `bubblewrap socat ripgrep` and allow user namespaces, or set
   * `runner.boundaries.sandbox` to `"off"`.
   */
  launchFailed: "SR-VALID-111",
} as const;

export type ValidatorCode = (typeof VALIDATOR_CODES)[keyof typeof VALIDATOR_CODES];
