// The type of `RunCompletionChainInput.launchValidator`, so a runner need not import the validators.
export type { CommandLaunch, CommandLauncher, LaunchRequest } from "@climpt/validators";
export {
  type BoundaryRequest,
  CLOSURE_ACTIONS,
  closesIssue,
  type IssueBoundaryRequest,
  isClosureAction,
  type MergeBoundaryRequest,
} from "./boundary/boundary-request.ts";
export type { HookCommandLaunch, HookCommandLauncher } from "./boundary/command-hook.ts";
export {
  type GithubPlan,
  issueText,
  type PlanGithubActionsInput,
  type PlannedIssueAction,
  type PlannedMerge,
  planGithubActions,
} from "./boundary/plan-github-actions.ts";
export {
  type BoundaryAction,
  type BoundaryHookResult,
  githubCommands,
  mergeCommands,
  type RunBoundaryHookInput,
  runBoundaryHook,
} from "./boundary/run-boundary-hook.ts";
export type { ChainEvent } from "./chain-events.ts";
export { COMPLETION_CODES, type CompletionCode } from "./codes.ts";
export {
  type CommandOutcome,
  type CommandRunner,
  type CommandRunOptions,
  createExecaCommandRunner,
  DEFAULT_COMMAND_TIMEOUT_MS,
  type ExecaCommandRunnerOptions,
} from "./command-runner.ts";
export {
  buildValidatorRetryPrompt,
  buildVerdictRetryPrompt,
  type RetryPrompt,
  type RetryPromptOutcome,
  type RetrySource,
  type ValidatorRetryInput,
  type VerdictRetryInput,
} from "./retry/build-retry-prompt.ts";
export { capText, DEFAULT_PROMPT_OUTPUT_CAP_CHARS } from "./retry/cap-text.ts";
export {
  type CompletionChainResult,
  type RunCompletionChainInput,
  runCompletionChain,
} from "./run-completion-chain.ts";
export type { ValidationSummary } from "./validation/validation-summary.ts";
export { CheckBudgetVerdict } from "./verdict/check-budget.ts";
export {
  COMPOSITE_OPERATORS,
  type CompositeOperator,
  CompositeVerdict,
} from "./verdict/composite.ts";
export { createVerdictStrategy } from "./verdict/create-verdict-strategy.ts";
export { type CreateVerdict, loadCustomVerdict } from "./verdict/custom.ts";
export {
  type ExternalStateOptions,
  ExternalStateVerdict,
  type IssueState,
} from "./verdict/external-state.ts";
export { IterationBudgetVerdict } from "./verdict/iteration-budget.ts";
export { KeywordSignalVerdict } from "./verdict/keyword-signal.ts";
export { StepMachineVerdict } from "./verdict/step-machine.ts";
export { type RequiredFields, StructuredSignalVerdict } from "./verdict/structured-signal.ts";
export type {
  AfterIterationAnswer,
  AfterIterationContext,
  DecideContext,
  IterationRecord,
  VerdictDecision,
  VerdictDeps,
  VerdictStrategy,
} from "./verdict/types.ts";
