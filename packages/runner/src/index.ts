export {
  type AgentListing,
  type AgentLocationOptions,
  listAgents,
  type RegularFileResult,
  readRegularFile,
  readRegularFileSync,
} from "@climpt/registry-schema";
export {
  type AgentCheck,
  type AgentChecks,
  type CheckAgentOptions,
  checkAgent,
  checkLoadedAgent,
  hasCheckErrors,
} from "./definition-checks/check-agent.ts";
export { gitRepositoryOf, runsGit } from "./definition-checks/environment-checks.ts";
export {
  ledgerMarkdown,
  setVerifiedStatus,
  VERIFIED_STATUS_CONTEXT,
} from "./evidence/ledger-evidence.ts";
export {
  removeRunSnapshots,
  runSnapshotRefs,
  SNAPSHOT_REFS,
  snapshotLabel,
  snapshotRef,
} from "./git/run-snapshot.ts";
export { isRemoteName, isSnapshotRunId } from "./git/snapshot-names.ts";
export {
  fetchRunSnapshots,
  pushRunSnapshots,
  removeRemoteRunSnapshots,
  runSnapshotRefspec,
} from "./git/snapshot-remote.ts";
export {
  endJournalAtLineBoundary,
  JournalWriter,
  journalDirectory,
  journalPath,
} from "./journal/journal.ts";
export type { RecordedReply } from "./journal/journal-replay.ts";
export type { JournalSink } from "./journal/journal-sink.ts";
export {
  fileJournalStore,
  type JournalStore,
  type JournalStoreFactory,
  type JournalStoreScope,
} from "./journal/journal-store.ts";
export {
  inspectJournal,
  type JournalInspection,
  MAX_JOURNAL_BYTES,
  MAX_JOURNAL_DEPTH,
  MAX_JOURNAL_LINE_CHARS,
  readJournal,
} from "./journal-read.ts";
export { createMessagesStepExecutor } from "./messages-step-executor.ts";
export { CHECK_OUTPUT_SCHEMA, stepOutputSchema } from "./phases/check-schemas.ts";
export type { CheckResult, PendingRetry, StepEnd } from "./phases/step-end.ts";
export { findAgentDir, loadAgentDefinition } from "./run/agent-location.ts";
export {
  definitionChanges,
  definitionChangesProblem,
  definitionFolders,
  type HostGitRead,
  hostGitRead,
} from "./run/definition-changes.ts";
export {
  compareDefinitions,
  type DefinitionComparison,
  type DefinitionRecord,
  digestDefinition,
} from "./run/definition-digest.ts";
export { newRunId } from "./run/run-id.ts";
export type {
  RunBudgets,
  RunnerOptions,
  RunOptions,
  StepEndNotice,
  WorktreeRunOptions,
} from "./run/run-options.ts";
export { runProtectedPaths, workTreeTop } from "./run/run-protected-paths.ts";
export { validateArgs } from "./run/validate-args.ts";
export type {
  BoundaryHookEvent,
  BoundaryHookStartEvent,
  BudgetEvent,
  CheckEvent,
  GateEvent,
  LedgerEvent,
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
  StepChangesEvent,
  StepEndEvent,
  StepFailedEvent,
  StepStartEvent,
  ToolCallEvent,
  ToolRefusedEvent,
  ToolResultEvent,
  ValidatorEvent,
  VerdictEvent,
} from "./run-event.ts";
export type {
  BoundaryReport,
  BudgetReached,
  HistoryEntry,
  RunError,
  RunResult,
  RunUsage,
  WorktreeReport,
} from "./run-result.ts";
export { AgentDefinitionError, RunnerError } from "./runner-error.ts";
export type {
  PhaseReplay,
  StepAnswer,
  StepExecutionObserver,
  StepExecutionRequest,
  StepExecutionResult,
  StepExecutor,
} from "./step-executor.ts";
export { StepFlowRunner } from "./step-flow-runner.ts";
export {
  attemptToVerify,
  type MarkedStatus,
  type VerifiedValidator,
  type VerifyReport,
  type VerifyRunOptions,
  verifyRun,
} from "./verify/verify-run.ts";
