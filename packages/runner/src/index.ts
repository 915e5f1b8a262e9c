export {
  type AgentListing,
  type AgentLocationOptions,
  listAgents,
  type RegularFileResult,
  readRegularFile,
  readRegularFileSync,
} from "@climpt/registry-schema";
export { findAgentDir, loadAgentDefinition } from "./agent-location.ts";
export {
  type AgentCheck,
  type AgentChecks,
  type CheckAgentOptions,
  checkAgent,
  checkLoadedAgent,
  hasCheckErrors,
} from "./check-agent.ts";
export { CHECK_OUTPUT_SCHEMA, stepOutputSchema } from "./check-schemas.ts";
export {
  definitionChanges,
  definitionChangesProblem,
  definitionFolders,
  type HostGitRead,
  hostGitRead,
} from "./definition-changes.ts";
export {
  compareDefinitions,
  type DefinitionComparison,
  type DefinitionRecord,
  digestDefinition,
} from "./definition-digest.ts";
export { gitRepositoryOf, runsGit } from "./environment-checks.ts";
export {
  endJournalAtLineBoundary,
  JournalWriter,
  journalDirectory,
  journalPath,
} from "./journal.ts";
export {
  inspectJournal,
  type JournalInspection,
  MAX_JOURNAL_BYTES,
  MAX_JOURNAL_DEPTH,
  MAX_JOURNAL_LINE_CHARS,
  readJournal,
} from "./journal-read.ts";
export type { RecordedReply } from "./journal-replay.ts";
export type { JournalSink } from "./journal-sink.ts";
export {
  fileJournalStore,
  type JournalStore,
  type JournalStoreFactory,
  type JournalStoreScope,
} from "./journal-store.ts";
export { createMessagesStepExecutor } from "./messages-step-executor.ts";
export type {
  BoundaryHookEvent,
  BoundaryHookStartEvent,
  CheckEvent,
  GateEvent,
  ModelRequestEvent,
  ModelResponseEvent,
  NoticeEvent,
  ProgramEvent,
  PromptResolvedEvent,
  RouteEvent,
  RunEndEvent,
  RunEvent,
  RunEventType,
  RunResumeEvent,
  RunStartEvent,
  StepEndEvent,
  StepFailedEvent,
  StepStartEvent,
  ToolCallEvent,
  ToolRefusedEvent,
  ToolResultEvent,
  ValidatorEvent,
  VerdictEvent,
} from "./run-event.ts";
export { newRunId } from "./run-id.ts";
export type {
  RunBudgets,
  RunnerOptions,
  RunOptions,
  StepEndNotice,
  WorktreeRunOptions,
} from "./run-options.ts";
export { runProtectedPaths, workTreeTop } from "./run-protected-paths.ts";
export type {
  BoundaryReport,
  HistoryEntry,
  RunError,
  RunResult,
  RunUsage,
  WorktreeReport,
} from "./run-result.ts";
export { AgentDefinitionError, RunnerError } from "./runner-error.ts";
export type { CheckResult, PendingRetry, StepEnd } from "./step-end.ts";
export type {
  PhaseReplay,
  StepAnswer,
  StepExecutionObserver,
  StepExecutionRequest,
  StepExecutionResult,
  StepExecutor,
} from "./step-executor.ts";
export { StepFlowRunner } from "./step-flow-runner.ts";
export { validateArgs } from "./validate-args.ts";
