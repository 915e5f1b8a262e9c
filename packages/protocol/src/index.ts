export type { DefinitionRecord } from "./definition-record.ts";
export {
  type JournalInspection,
  MAX_JOURNAL_BYTES,
  MAX_JOURNAL_DEPTH,
  MAX_JOURNAL_LINE_CHARS,
  type ParseJournalOptions,
  parseJournal,
} from "./journal-parse.ts";
export {
  LEDGER_TAIL_CHARS,
  type LedgerAttempt,
  type LedgerBaseline,
  type LedgerCommit,
  type LedgerEntry,
  type LedgerOutput,
} from "./ledger.ts";
export { lastPassingAttempt, ledgerOf } from "./ledger-read.ts";
export type {
  BoundaryHookEvent,
  BoundaryHookStartEvent,
  BudgetEvent,
  CheckEvent,
  ForkOrigin,
  GateEvent,
  LedgerEvent,
  ModelRequestEvent,
  ModelResponseEvent,
  NoticeEvent,
  ProgramEvent,
  PromptResolvedEvent,
  RouteEvent,
  RunBaseline,
  RunEndEvent,
  RunEvent,
  RunEventInput,
  RunEventType,
  RunResumeEvent,
  RunStartEvent,
  StepChangesEvent,
  StepEndEvent,
  StepFailedEvent,
  StepFileChange,
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
