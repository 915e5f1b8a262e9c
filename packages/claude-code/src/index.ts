export {
  type ClaudeCodeExecutor,
  type ClaudeCodeSettings,
  type ClaudeCodeStepInput,
  createClaudeCodeExecutor,
  type SettingSource,
  type ToolRefusalEvent,
} from "./claude-code-executor.ts";
export { CLAUDE_CODE_CODES, type ClaudeCodeCode } from "./codes.ts";
export { QUIET_ENV, sandboxSettings, sessionEnv } from "./session-env.ts";
export {
  canonicalToolName,
  READ_ONLY_TOOLS,
  resolveToolAccess,
  STRUCTURED_OUTPUT_TOOL,
  type ToolAccess,
} from "./tool-access.ts";
export { createToolGuard, type GuardVerdict, type ToolGuard } from "./tool-guard.ts";
