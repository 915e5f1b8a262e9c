export { findClaudeCodeBinary } from "./claude-code-binary.ts";
export {
  type ClaudeCodeExecutor,
  type ClaudeCodeSettings,
  type ClaudeCodeStepInput,
  createClaudeCodeExecutor,
  type SettingSource,
  type ToolRefusalEvent,
} from "./claude-code-executor.ts";
export {
  type ClaudeCodeStepExecutor,
  createClaudeCodeStepExecutor,
  type WarmStartOptions,
} from "./claude-code-step-executor.ts";
export { CLAUDE_CODE_CODES, type ClaudeCodeCode } from "./codes.ts";
export { gitDenyWrite } from "./git-protection.ts";
export { QUIET_ENV, sandboxSettings, sessionEnv } from "./session-env.ts";
export type { ModelReply } from "./step-transcript.ts";
export {
  canonicalToolName,
  READ_ONLY_TOOLS,
  resolveToolAccess,
  STRUCTURED_OUTPUT_TOOL,
  type ToolAccess,
} from "./tool-access.ts";
export { createToolGuard, type GuardVerdict, type ToolGuard } from "./tool-guard.ts";
