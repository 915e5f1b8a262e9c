// The model's test-value builders, beside the agent-folder writer: one entry for every builder.

// The fake Messages API lives in @climpt/mock (published: `climpt mock` serves it to users);
// tests keep importing it from here, beside the other fakes.
export {
  type ErrorReplyOptions,
  type FakeAnthropic,
  type FakeAnthropicOptions,
  type FakeContentBlock,
  type FakeCutStreamReply,
  type FakeErrorReply,
  type FakeHandler,
  type FakeHangReply,
  type FakeMalformedReply,
  type FakeMessageReply,
  type FakeReply,
  type FakeRequest,
  type FakeStopReason,
  type FakeUsageOverride,
  type MessageReplyOptions,
  type PromptAccounting,
  PromptCache,
  pseudoTokens,
  reply,
  startFakeAnthropic,
  type ToolUseSpec,
} from "@climpt/mock";
export { agentOf, registryOf, stepOf } from "@climpt/model/testing";
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
  type FakeGh,
  type FakeGhIssueSeed,
  type FakeGhRepoSeed,
  type FakeGhSeed,
  type InstallFakeGhOptions,
  installFakeGh,
} from "./fake-gh/install-fake-gh.ts";
export { FAKE_GH_VERSION, type RunFakeGhOptions, runFakeGh } from "./fake-gh/run-fake-gh.ts";
export type {
  FakeGhApiWrite,
  FakeGhCall,
  FakeGhCheckPlan,
  FakeGhCheckRun,
  FakeGhCheckScript,
  FakeGhComment,
  FakeGhCommitStatus,
  FakeGhFailure,
  FakeGhIssue,
  FakeGhLabel,
  FakeGhPullRequest,
  FakeGhRepo,
  FakeGhState,
} from "./fake-gh/state.ts";
export {
  installSimpleFakeGh,
  type SimpleFakeGhIssue,
  type SimpleFakeGhPullRequest,
  type SimpleFakeGhSeed,
  type SimpleFakeGhState,
  type SimpleInstalledFakeGh,
} from "./fake-gh.ts";
export {
  HANG_CASES,
  type HangCase,
  type HangObservation,
  OWN_DEADLINE_TEXT,
  type ScaffoldRegistry,
} from "./hang-cases.ts";
export {
  installOriginalShape,
  ORIGINAL_SHAPE_AGENTS,
  type OriginalShapeAgent,
  originalShapeDir,
} from "./original-shapes.ts";
export { ensureRedisServer, type RedisServer, startRedisServer } from "./redis-server.ts";
export {
  type LocalRegistry,
  type PublishedManifest,
  startLocalRegistry,
} from "./release/local-registry.ts";
export { NODE_BINARY_CACHE, nodeBinary } from "./release/node-binaries.ts";
export {
  createRegistryProject,
  type InstalledPackages,
  type PackageManager,
  type RegistryProject,
} from "./release/registry-project.ts";
export { type ReleaseResult, releaseFromCopy } from "./release/release-from-copy.ts";
export {
  runTool,
  ToolFailure,
  type ToolOutcome,
  toolEnv,
  tryTool,
} from "./release/run-tool.ts";
export { type SeededPackages, seedRegistry } from "./release/seed-registry.ts";
export {
  type DependencyRange,
  thirdPartyDependenciesOf,
  WORKSPACE_ROOT,
  type WorkspacePackage,
  workspacePackages,
} from "./release/workspace-packages.ts";
export { type FakeScript, loadFakeScript, parseFakeScript } from "./script-file.ts";
export { type ServedScript, type ServeScriptOptions, serveFakeScript } from "./serve-script.ts";
export { makeTempDir, removeTempDir, useTempDirs } from "./temp-dirs.ts";
export { DEFAULT_WAIT_LIMIT_MS, type WaitOptions, waitFor, waitUntil } from "./wait-for.ts";
export {
  type ChecksScenario,
  commitRun,
  reviewReply,
  writeChecksScenario,
} from "./workflow-scenario/checks-scenario.ts";
export {
  type FleetScenarioOptions,
  type FleetScenarioRun,
  type FleetScenarioSummary,
  runFleetScenario,
} from "./workflow-scenario/run-fleet-scenario.ts";
export {
  type AgentScript,
  requestKey,
  ScenarioModel,
  type ServedCall,
  type SlowCall,
} from "./workflow-scenario/scenario-model.ts";
export {
  type ExpectedIssue,
  type ScenarioMachine,
  type ScenarioOptions,
  type WorkflowScenario,
  writeWorkflowScenario,
} from "./workflow-scenario/write-scenario.ts";
