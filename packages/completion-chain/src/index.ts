// The types of `RunCompletionChainInput.launchValidator` and `.baseline`, so a runner need not
// import the validators.
export type {
  BaselineSetup,
  BaselineTarget,
  CommandLaunch,
  CommandLauncher,
  LaunchRequest,
  ValidatorBaseline,
} from "@climpt/validators";
export type {
  BoundaryRequest,
  IssueBoundaryRequest,
  MergeBoundaryRequest,
} from "./boundary/boundary-request.ts";
export type { HookCommandLaunch, HookCommandLauncher } from "./boundary/command-hook.ts";
export {
  type GithubPlan,
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
export type { RetrySource } from "./retry/build-retry-prompt.ts";
export {
  type CompletionChainResult,
  type RunCompletionChainInput,
  runCompletionChain,
} from "./run-completion-chain.ts";
export {
  type RunValidationInput,
  type RunValidationOutcome,
  runValidation,
} from "./validation/run-validation.ts";
export type { ValidationSummary } from "./validation/validation-summary.ts";
export { CheckBudgetVerdict } from "./verdict/check-budget.ts";
export {
  type CompositeOperator,
  CompositeVerdict,
} from "./verdict/composite.ts";
export { createVerdictStrategy } from "./verdict/create-verdict-strategy.ts";
export { loadCustomVerdict } from "./verdict/custom.ts";
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
