export {
  type AgentFolderFiles,
  demoAgent,
  type Json,
  type JsonRecord,
  removeAgentFolders,
  type WritableAgentFolder,
  writeAgentFolder,
} from "./agent-folder.ts";
export { ensureDebianPackages, hasProgram } from "./debian-packages.ts";
export {
  type FakeAnthropic,
  type FakeAnthropicOptions,
  type FakeHandler,
  type FakeRequest,
  startFakeAnthropic,
} from "./fake-anthropic.ts";
export {
  type FakeGhIssue,
  type FakeGhPullRequest,
  type FakeGhSeed,
  type FakeGhState,
  type InstalledFakeGh,
  installFakeGh,
} from "./fake-gh.ts";
export {
  installOriginalShape,
  ORIGINAL_SHAPE_AGENTS,
  type OriginalShapeAgent,
  originalShapeDir,
} from "./original-shapes.ts";
export {
  type ErrorReplyOptions,
  type FakeContentBlock,
  type FakeCutStreamReply,
  type FakeErrorReply,
  type FakeHangReply,
  type FakeMalformedReply,
  type FakeMessageReply,
  type FakeReply,
  type FakeStopReason,
  type FakeUsageOverride,
  type MessageReplyOptions,
  reply,
  type ToolUseSpec,
} from "./replies.ts";
export {
  type InstalledPackage,
  installPackedPackages,
  type ScratchInstall,
  type ScratchInstallOptions,
  WORKSPACE_ROOT,
  type WorkspacePackage,
  workspacePackages,
  workspacePackagesNamed,
} from "./scratch-install.ts";
export { type FakeScript, loadFakeScript, parseFakeScript } from "./script-file.ts";
export { type ServedScript, type ServeScriptOptions, serveFakeScript } from "./serve-script.ts";
export { type PromptAccounting, PromptCache, pseudoTokens } from "./token-count.ts";
