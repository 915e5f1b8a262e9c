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
} from "./boundary-command.ts";
export { type BoundaryRequest, describeBoundaryRequest } from "./boundary-request.ts";
export { TOOL_CODES, type ToolCode } from "./codes.ts";
export type { ToolCallEvent, ToolEvent, ToolRefusedEvent, ToolResultEvent } from "./events.ts";
export {
  resolveToolPolicy,
  STEP_KIND_PERMISSION_MODES,
  stepPermissionMode,
  type ToolPolicy,
  type ToolRefusal,
} from "./policy.ts";
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
