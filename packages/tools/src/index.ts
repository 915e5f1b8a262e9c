export {
  auditPolicy,
  formatPolicyAudit,
  type PolicyAudit,
  type StepPolicyAudit,
} from "./audit.ts";
export {
  type BoundaryCommandOptions,
  type BoundaryCommandVerdict,
  isBoundaryCommand,
  MAX_COMMAND_CHARS,
} from "./boundary-command.ts";
export { type BoundaryRequest, describeBoundaryRequest } from "./boundary-request.ts";
export type { ToolboxNotice } from "./builtin-tool.ts";
export { TOOL_CODES, type ToolCode } from "./codes.ts";
export type { ToolCall, ToolDefinition, ToolExecutor, ToolResult } from "./contract.ts";
export type { ToolCallEvent, ToolEvent, ToolRefusedEvent, ToolResultEvent } from "./events.ts";
export {
  type FilterJob,
  type GrepFileResult,
  type GrepJob,
  type JobOptions,
  PATTERN_DEADLINE_MS,
  type PatternOutcome,
  runPatternJob,
} from "./pattern-worker.ts";
export { resolveToolPolicy, type ToolPolicy, type ToolRefusal } from "./policy.ts";
export { decideGh, type GhDecision, type GhStepKind } from "./sandbox/gh-policy.ts";
export { probeSandbox, type SandboxProbe } from "./sandbox/sandbox-host.ts";
export {
  DEFAULT_SANDBOX_SETTINGS,
  resolveSandboxSettings,
  type SandboxMode,
  type SandboxSettings,
  type SandboxSettingsInput,
} from "./sandbox/settings.ts";
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
  type SecretScrubber,
} from "./secrets/scrubber.ts";
export {
  isSecretEnvName,
  KNOWN_SECRET_ENV_NAMES,
  SECRET_NAME_SUFFIXES,
} from "./secrets/secret-names.ts";
export {
  FILE_TOOL_NAMES,
  type FileToolName,
  GITHUB_TOOL_NAMES,
  type GithubToolName,
  TOOL_NAMES,
  type ToolName,
} from "./tool-names.ts";
export {
  createToolbox,
  DEFAULT_BASH_TIMEOUT_MS,
  DEFAULT_OUTPUT_CAP_BYTES,
  type Toolbox,
  type ToolboxOptions,
  WITHHELD_ENV_VARS,
} from "./toolbox.ts";
