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
export {
  type ConfinedPath,
  confinePath,
  isInGitDir,
  isInside,
  type WorkingRoot,
  workingRoot,
} from "./confine-path.ts";
export type { ToolCallEvent, ToolEvent, ToolRefusedEvent, ToolResultEvent } from "./events.ts";
export { resolveToolPolicy, type ToolPolicy, type ToolRefusal } from "./policy.ts";
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
