export type { DefinitionRecord } from "./definition-record.ts";
export {
  type JournalInspection,
  MAX_JOURNAL_BYTES,
  MAX_JOURNAL_DEPTH,
  MAX_JOURNAL_LINE_CHARS,
  type ParseJournalOptions,
  parseJournal,
} from "./journal-parse.ts";
export type {
  BoundaryHookEvent,
  BoundaryHookStartEvent,
  BudgetEvent,
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
  RunEventInput,
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
export type {
  BoundaryReport,
  BudgetReached,
  HistoryEntry,
  RunError,
  RunResult,
  RunUsage,
  WorktreeReport,
} from "./run-result.ts";
export {
  RUN_STATUSES,
  type RunEnd,
  type RunStatus,
  type RunSummary,
  runStatusOf,
  summarizeRun,
} from "./run-summary.ts";
export {
  JOURNAL_FORMAT,
  type JournaledRouterState,
  type PendingRetry,
  type StepEnd,
  type StepEndRecord,
} from "./step-end.ts";
export type {
  PhaseReplay,
  RecordedReply,
  StepAnswer,
  StepExecutionObserver,
  StepExecutionRequest,
  StepExecutionResult,
  StepExecutor,
} from "./step-executor.ts";
