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
  /**
   * Validation failed and `onFailure` says abort, or the retries ran out (`maxAttempts`). Example:
   * `Closure step "closure.issue" was refused 3 times and onFailure.maxAttempts is 3, so the run
   * stops; …` Fix: Fix what the validators report (their output is in the journal), or raise
   * `maxAttempts` / `maxRetries`.
   */
  validationAbort: "AGENT_VALIDATION_ABORT",
  /**
   * A validation condition names a validator the registry does not define (the loader's code).
   * Example: `Validation step "closure.issue" runs validator "tests-pass", which validators does
   * not define.` Fix: Define it or use a listed one.
   */
  unknownValidator: "SR-VALID-002",
  /**
   * A validator's command was not found (exit 127). Retrying the agent cannot fix it. Example: ``
   * Validator "tests" cannot run: command not found (exit 127) running `pnpm tset`. `` Fix: Install
   * the tool or fix the command in `validators`.
   */
  commandNotFound: "AC-VALIDATOR-001",
  /**
   * A validator's command could not be executed (exit 126, permission denied). Example: ``
   * Validator "lint" cannot run: permission denied or not executable (exit 126) running
   * `./lint.sh`. `` Fix: Make it executable, or call it through its interpreter.
   */
  commandNotExecutable: "AC-VALIDATOR-002",
  /**
   * A validator could not run for another reason (missing param, spawn failure, bad pattern).
   * Example: `` Validator "git-clean" cannot run `git diff ${base}` (SR-VALID-101: The command uses
   * ${base} but no param "base" was given.). `` Fix: Fix what the message names in the validator's
   * definition.
   */
  validatorBroken: "AC-VALIDATOR-003",
  /**
   * The verdict type is not one of the eight (in either spelling); the loader's code. Example:
   * `Unknown verdict type "whenever".` Fix: Use one of the eight types, either spelling.
   */
  verdictUnknownType: "AC-VERDICT-001",
  /**
   * A composite verdict's `operator` or `conditions` is wrong; the loader's code. Example: `` A
   * composite verdict needs a non-empty `conditions` array of child verdicts. `` Fix: Add the child
   * verdicts; use `and`, `or` or `first`.
   */
  verdictComposite: "AC-VERDICT-002",
  /**
   * A verdict setting is missing or wrong (thrown by `createVerdictStrategy`); the loader's code.
   * Example: `Verdict type "detect:keyword" needs completionKeyword (or verdictKeyword) in its
   * config.` Fix: Add or correct the setting.
   */
  verdictConfig: "AC-VERDICT-003",
  /**
   * `poll:state` could not read the issue (`gh issue view` failed or printed no JSON). Example: ``
   * poll:state could not read issue #12: `gh issue view 12 --json state` exited 1. `` Fix: Install
   * and authenticate `gh`; check the repository and issue number.
   */
  verdictPollFailed: "AC-VERDICT-006",
  /**
   * A `meta:custom` handler cannot be loaded: path outside the agent folder, missing, no
   * `createVerdict`, wrong shape. Example: `config.handlerPath "../elsewhere/v.mjs" leaves the
   * agent folder /repo/.agent/demo.` Fix: Put an ES module exporting `createVerdict` inside the
   * agent folder.
   */
  verdictCustomHandler: "AC-VERDICT-004",
  /**
   * A verdict strategy threw while deciding. Example: `The verdict strategy (meta:custom) failed
   * while deciding: …` Fix: Fix the custom verdict, or report it.
   */
  verdictFailed: "AC-VERDICT-005",
  /**
   * `runCompletionChain` was called for a step the registry does not have. Example: `The completion
   * chain was started for step "closure.isue", which is not in the registry …` Fix: A runner bug or
   * a changed registry: resume with the registry the run started with.
   */
  unknownClosureStep: "AC-CHAIN-001",
  /**
   * The run's AbortSignal stopped the chain. Example: `The completion chain of closure step
   * "closure.issue" was stopped: the run was aborted.` Fix: Nothing to fix; resume the run.
   */
  chainAborted: "AC-CHAIN-002",
  /**
   * The return step of a retry is not a step of the registry. Example: `The retry step
   * "continuation.isue" for closure step "closure.issue" is not in the registry …` Fix: Correct the
   * transitions leading into the closure step.
   */
  unknownReturnStep: "AC-CHAIN-003",
  /**
   * GitHub integration is enabled but no issue number is known to act on. Example: `GitHub
   * integration is enabled but no issue is known for the closure step, so no GitHub action was
   * taken.` Fix: Pass `--issue`, or let the closure output name the issue.
   */
  hookNoIssue: "AC-HOOK-001",
  /**
   * An issue number or label is not usable (not a positive integer, empty label). Example:
   * `Boundary request 0 names issue "abc", which is not a positive issue number.` Fix: Make the
   * closure output carry a real issue number and non-empty labels.
   */
  hookBadRequest: "AC-HOOK-002",
  /**
   * A boundary command (`gh …` or the command hook) exited non-zero or could not start. Example: ``
   * `gh issue close` for issue #12 exited 1: … `` Fix: Check `gh auth status`, the repository, and
   * the hook command.
   */
  hookCommandFailed: "AC-HOOK-003",
  /**
   * A boundary request or the closure output named an issue, pull request or repository that is not
   * the run's, and agent.json does not declare it (`integrations.github.targets`): not acted on.
   * Example: `No GitHub action was taken for boundary request 0 (close): issue #7 is not the run's:
   * this run's issue is #1.` Fix: Act on the run's own issue and pull request, or declare `targets`
   * (`{"issues": "any"}`, `{"repositories": ["owner/other"]}`).
   */
  hookNotRunsTarget: "AC-HOOK-004",
} as const;

export type CompletionCode = (typeof COMPLETION_CODES)[keyof typeof COMPLETION_CODES];
