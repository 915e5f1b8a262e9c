export type {
  AgentPush,
  AgentSandbox,
  McpServerConfig,
  SandboxMode,
} from "./agent-boundaries.ts";
export { branchMatches, isBranchName, isBranchPattern } from "./branch-name.ts";
export {
  ClimptError,
  type ClimptErrorJson,
  type ClimptErrorOptions,
  errorMarker,
  hasErrorMarker,
  markError,
} from "./climpt-error.ts";
export { contextKeysOf, findContextRefs, substituteContextRefs } from "./context-refs.ts";
export {
  DEPENDENCY_AND_BUILD_FOLDERS,
  dependencyOrBuildFolderOf,
  isDependencyOrBuildPath,
} from "./dependency-folders.ts";
export { closestMatch, editDistance } from "./edit-distance.ts";
export {
  EXTRACTOR_NAMES,
  type ExtractorName,
  FAILURE_EXTRACTOR_NAMES,
  isExtractorName,
} from "./extractor-names.ts";
export type { GitMetadata } from "./git-metadata.ts";
export {
  DEFAULT_GITHUB_TARGETS,
  GITHUB_TARGET_RULES,
  type GithubTargetRule,
  type GithubTargets,
} from "./github-target-rules.ts";
export {
  checkGithubTarget,
  type GithubRunScope,
  type GithubTarget,
  type GithubTargetCheck,
  type GithubWrite,
  githubRunScope,
  normalizeRepository,
  PULL_REQUEST_PARAMETERS,
  positiveNumber,
} from "./github-targets.ts";
export {
  canonicalIntent,
  FLOW_STEP_KINDS,
  type FlowStepKind,
  GATE_INTENTS,
  type GateIntent,
  INTENT_ALIASES,
  inferStepKind,
  intentAliasesOf,
  isGateIntent,
  isIntentAllowedForKind,
  STEP_KIND_INTENTS,
  type StepKind,
} from "./intents.ts";
export {
  DEFAULT_ISSUE_PARAMETER,
  type IssueParameterSource,
  issueParameterName,
  runIssueArgument,
} from "./issue-parameter.ts";
export {
  isJsonObject,
  isJsonValue,
  isPlainObject,
  isRecord,
  type JsonObject,
  type JsonPrimitive,
  type JsonSchema,
  type JsonValue,
  nestingOf,
  ownEntry,
  ownRecord,
  recordEntries,
  recordValues,
  setEntry,
} from "./json.ts";
export {
  MCP_TOOL_PREFIX,
  type McpToolName,
  mcpToolName,
  parseMcpToolName,
} from "./mcp-tool-name.ts";
export {
  type AgentDefinition,
  type AgentLimits,
  type AgentParameter,
  type C3lPromptRef,
  type CheckDefinition,
  type CheckOnFail,
  type CheckOnPass,
  type ClosureAction,
  type CommandBoundaryHook,
  type ConditionalTransition,
  DEFAULT_GATE_RUN_ITERATION_CAP,
  DEFAULT_PATH_TEMPLATE,
  DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
  DEFAULT_RUN_ITERATION_CAP,
  DEFAULT_SUBPROCESS_TIMEOUT_MS,
  DEFAULT_VALIDATOR_TIMEOUT_MS,
  type GithubIntegration,
  type HandoffField,
  type IterationBounds,
  type LoadedAgent,
  type OutputSchemaRef,
  type ParameterRole,
  type ParameterType,
  type PathPromptRef,
  type PermissionMode,
  type PromptRef,
  type Registry,
  type RegistryDialect,
  STEP_EXECUTOR_NAMES,
  type Step,
  type StepExecutorName,
  type StepLimits,
  type StepPermissions,
  type StepSubprocess,
  type StructuredGate,
  type TargetTransition,
  type Transition,
  type Transitions,
  type VerdictSpec,
  type WorktreeFinish,
} from "./model.ts";
export type { ModelContentBlock, Usage } from "./model-reply.ts";
export { hostAllowed, urlHostPort } from "./network-allow.ts";
export {
  fail,
  formatCode,
  formatProblem,
  jsonPath,
  ok,
  type Problem,
  type ProblemDetails,
  problem,
  type Result,
  stepPath,
} from "./problem.ts";
export type { ProtectedPath } from "./protected-path.ts";
export type { RouterState, StepCount, StepVia } from "./router-state.ts";
export {
  defaultRunIterationCap,
  type RunCapSource,
  type RunIterationCap,
  resolveRunIterationCap,
} from "./run-cap.ts";
export {
  type CollectSecretsOptions,
  collectSecrets,
  MIN_SECRET_LENGTH,
  type SecretValue,
} from "./secrets/collect-secrets.ts";
export {
  createScrubber,
  NO_SECRETS,
  redactionOf,
  type ScrubberOptions,
  type SecretScrubber,
} from "./secrets/scrubber.ts";
export {
  isSecretEnvName,
  KNOWN_SECRET_ENV_NAMES,
  SECRET_NAME_SUFFIXES,
} from "./secrets/secret-names.ts";
export { STEP_HEADER } from "./step-header.ts";
export {
  firstClosureStepId,
  hasRunTimeJumpTarget,
  type ReachabilityOptions,
  reachableSteps,
  type StepReachability,
  stepSuccessors,
} from "./step-reachability.ts";
export { parseSuccessCondition } from "./success-condition.ts";
export type {
  ToolAnnotations,
  ToolCall,
  ToolDefinition,
  ToolExecutor,
  ToolResult,
} from "./tool-contract.ts";
export {
  declaredUvName,
  findUvPlaceholders,
  handoffFieldUvNames,
  handoffUvName,
  isRuntimeUvName,
  isUvName,
  lookupUv,
  mapUvPlaceholders,
  RUNTIME_UV_NAMES,
  type RuntimeUvName,
  UV_NAME_PATTERN,
  type UvPlaceholder,
  uvLookupNames,
} from "./uv-names.ts";
export {
  type BaselineMode,
  DEFAULT_BASELINE_MODE,
  type FailurePattern,
  type SuccessCondition,
  type ValidationCondition,
  type ValidationOnFailure,
  type ValidationStep,
  type ValidatorDefinition,
} from "./validation-model.ts";
export {
  canonicalVerdictType,
  DEFAULT_VERDICT_MAX_CHECKS,
  DEFAULT_VERDICT_MAX_ITERATIONS,
  VERDICT_TYPE_ALIASES,
  VERDICT_TYPE_CAMEL_NAMES,
  VERDICT_TYPES,
  type VerdictType,
  verdictTypeSpellings,
} from "./verdict-types.ts";
