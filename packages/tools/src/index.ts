// The tool contract is @climpt/model's (shared with @climpt/sdk-adapter); re-exported because
// the tools implement it.
export type { ToolCall, ToolDefinition, ToolExecutor, ToolResult } from "@climpt/model";
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
export {
  type BoundaryRequest,
  type CloseReason,
  describeBoundaryRequest,
  type IssueBoundaryRequest,
  type MergeBoundaryRequest,
  type MergeMethod,
} from "./boundary-request.ts";
export type { ToolboxNotice } from "./builtin-tool.ts";
export { TOOL_CODES, type ToolCode } from "./codes.ts";
export {
  type ConfinedPath,
  confinePath,
  isInGitDir,
  isInside,
  type WorkingRoot,
  workingRoot,
} from "./confine-path.ts";
export type { ToolCallEvent, ToolEvent, ToolRefusedEvent, ToolResultEvent } from "./events.ts";
export {
  authorizeTarget,
  createGithubAccess,
  type GithubAccess,
  type GithubAccessOptions,
  NO_GITHUB_ACCESS,
} from "./github-access.ts";
export {
  bindToProcessLife,
  type LifeBoundResource,
  processLifeWatchdogPid,
  type ReleaseBinding,
} from "./lifetime/process-life.ts";
export { checkMcpServers } from "./mcp/mcp-check.ts";
export { type McpToolFacts, mcpServersNamed, mcpToolRefusal } from "./mcp/mcp-policy.ts";
export { createRecordedMcpServers, type McpRecording } from "./mcp/mcp-recorded.ts";
export {
  createMcpServers,
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  DEFAULT_MCP_START_TIMEOUT_MS,
  type McpServers,
  type McpServersOptions,
  type McpTool,
} from "./mcp/mcp-servers.ts";
export {
  expandVariables as expandMcpVariables,
  prepareStdioLaunch,
  type StdioLaunch,
  type StdioLaunchOptions,
} from "./mcp/mcp-stdio-launch.ts";
export { type McpStepTools, stepMcpTools } from "./mcp/mcp-step-tools.ts";
export { PATTERN_DEADLINE_MS, patternFailure } from "./pattern-failure.ts";
export {
  resolveToolPolicy,
  STEP_KIND_PERMISSION_MODES,
  stepPermissionMode,
  type ToolPolicy,
  type ToolRefusal,
} from "./policy.ts";
export {
  type ProtectedPath,
  protectedPathOf,
  type ResolvedProtectedPath,
  resolveProtectedPaths,
} from "./protected-paths.ts";
export {
  hostGhEnv,
  type ResolveRunRepositoryOptions,
  type RunRepository,
  resolveRunRepository,
} from "./run-repository.ts";
export {
  type CommandLaunchOptions,
  type CommandSandbox,
  type CommandSandboxOptions,
  commandLine,
  createCommandSandbox,
} from "./sandbox/command-sandbox.ts";
export { type GhParse, type ParsedGh, parseGhArgv } from "./sandbox/gh-argv.ts";
export { MAX_BODY_FILE_BYTES } from "./sandbox/gh-body-file.ts";
export type { GhBrokerRecord } from "./sandbox/gh-broker.ts";
export {
  type GhJudgement,
  type GhJudgeOptions,
  type GhRequest,
  judgeGhRequest,
} from "./sandbox/gh-judge.ts";
export {
  decideGh,
  type GhBodyInput,
  type GhDecision,
  type GhRecorded,
  type GhStepKind,
} from "./sandbox/gh-policy.ts";
export type { GhRepositoryUse } from "./sandbox/gh-repository.ts";
export {
  ALLOWED_PUSH_SHAPES,
  decideGitPushShape,
  type GitPushPermissions,
  type GitPushPlan,
  type GitPushRepository,
  type GitPushShape,
  type GitPushShapeDecision,
  planGitPush,
} from "./sandbox/git-push-policy.ts";
export {
  ALWAYS_PROTECTED_BRANCHES,
  type GitPushSetting,
  type GitPushTarget,
  type GitPushTargetOptions,
  isGitPushTarget,
  resolveGitPushTarget,
} from "./sandbox/git-push-target.ts";
export { probeSandbox, resetSandboxProbe, type SandboxProbe } from "./sandbox/sandbox-host.ts";
export type { SandboxedLaunch } from "./sandbox/sandboxed-shell.ts";
export {
  DEFAULT_SANDBOX_SETTINGS,
  resolveSandboxSettings,
  type SandboxMode,
  type SandboxSettings,
  type SandboxSettingsInput,
} from "./sandbox/settings.ts";
export { scriptReader } from "./script-reader.ts";
export {
  FILE_TOOL_NAMES,
  type FileToolName,
  GITHUB_TOOL_NAMES,
  type GithubToolName,
  isToolName,
  TOOL_NAMES,
  type ToolName,
  WRITING_TOOL_NAMES,
} from "./tool-names.ts";
export {
  createToolbox,
  DEFAULT_BASH_TIMEOUT_MS,
  DEFAULT_OUTPUT_CAP_BYTES,
  type Toolbox,
  type ToolboxOptions,
  WITHHELD_ENV_VARS,
} from "./toolbox.ts";
export { SANDBOX_HINT } from "./tools/bash.ts";
