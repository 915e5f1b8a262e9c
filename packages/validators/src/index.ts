export { stripAnsi } from "./ansi.ts";
export type { BaselineTarget } from "./baseline/base-commit.ts";
export { type BaselineSetup, compareWithBaseline } from "./baseline/compare-with-baseline.ts";
export {
  compareFindings,
  FAILURE_EXTRACTORS,
  type FailureFinding,
  type FailureFindings,
  failureFindings,
  introducedValues,
  namesFailures,
} from "./baseline/failure-findings.ts";
export type { ValidatorBaseline } from "./baseline/validator-baseline.ts";
export { VALIDATOR_CODES, type ValidatorCode } from "./codes.ts";
export {
  type CommandLaunch,
  type CommandLauncher,
  hostLauncher,
  type LaunchRequest,
} from "./command-launcher.ts";
export { type Extraction, type ExtractionProblem, extractParams } from "./extract-params.ts";
export { parseBranchName, parseRemoteStatus, type RemoteStatus } from "./extractors/branch.ts";
export { capDiff, generateDiff, looksLikeDiff } from "./extractors/diff.ts";
export { extractFiles } from "./extractors/extract-files.ts";
export { parseFormatOutput } from "./extractors/format-output.ts";
export {
  changedFiles,
  type GitStatusEntry,
  parseGitStatus,
  stagedFiles,
  unmergedFiles,
  unstagedFiles,
  untrackedFiles,
} from "./extractors/git-status.ts";
export { type LintError, parseLintErrors } from "./extractors/lint-errors.ts";
export { type MergeStatus, parseMergeStatus } from "./extractors/merge-status.ts";
export { EXTRACTORS } from "./extractors/registry.ts";
export {
  detectTestFramework,
  parseTestOutput,
  type TestFailure,
  type TestFramework,
  type TestReport,
} from "./extractors/test-output.ts";
export { parseTypeErrors, type TypeCheckError } from "./extractors/type-errors.ts";
export type { Extractor, ExtractorInput } from "./extractors/types.ts";
export { CappedOutput } from "./output-capture.ts";
export { unquoteGitPath } from "./paths.ts";
export {
  commandPlaceholders,
  quoteShellWord,
  type RenderResult,
  renderCommand,
} from "./render-command.ts";
export { type RunValidatorOptions, runValidator, type ValidatorResult } from "./run-validator.ts";
export {
  type RunValidatorsConfig,
  runValidators,
  type ValidatorRun,
  type ValidatorsOutcome,
} from "./run-validators.ts";
export {
  type CommandOutcome,
  combinedOutput,
  DEFAULT_PATTERN_TIMEOUT_MS,
  evaluateSuccess,
  evaluateSuccessBounded,
  type SuccessVerdict,
} from "./success.ts";
