export { ORCHESTRATOR_CODES, type OrchestratorCode, type OrchestratorError } from "./codes.ts";
export type {
  Dispatcher,
  DispatchIssue,
  DispatchOutcome,
  DispatchRequest,
  IssueArtifact,
  Landed,
  LandRequest,
  PrioritizeOutcome,
  PrioritizeRequest,
  StartedRun,
} from "./dispatch/dispatcher.ts";
export { isInterruption } from "./dispatch/run-outcome.ts";
export { RunnerDispatcher, type RunnerDispatcherOptions } from "./dispatch/runner-dispatcher.ts";
export type { StepCommitLedger } from "./dispatch/step-commits.ts";
export {
  type EnqueuedJob,
  type EnqueueOptions,
  type EnqueueResult,
  enqueueIssues,
} from "./fleet/enqueue.ts";
export {
  FLEET_PACKAGES,
  type FleetModules,
  type FleetModulesProbe,
  loadFleetModules,
  probeFleetModules,
} from "./fleet/fleet-modules.ts";
export { type FleetJob, type FleetStatus, fleetStatus } from "./fleet/fleet-status.ts";
export {
  type FleetWorker,
  type FleetWorkerOptions,
  startFleetWorker,
} from "./fleet/fleet-worker.ts";
export { parseQueueUrl } from "./fleet/redis-connection.ts";
export {
  openRedisForkSource,
  readRedisJournal,
  redisForkSource,
} from "./fleet/redis-fork-source.ts";
export { redisJournalStore } from "./fleet/redis-journal-store.ts";
export { type RedisLimiterOptions, RedisModelLimiter } from "./fleet/redis-limiter.ts";
export { redisStepCommits } from "./fleet/redis-step-commits.ts";
export {
  GhClient,
  type GhClientOptions,
  type GhComment,
  type GhIssue,
  type GhIssueDetail,
  type GhLabel,
  type GhResult,
  type IssueQuery,
} from "./github/gh-client.ts";
export {
  type LabelSyncAction,
  type LabelSyncEntry,
  syncLabels,
} from "./github/label-sync.ts";
export { type LimitedClientOptions, limitModelClient } from "./limiter/limited-model-client.ts";
export { LocalModelLimiter } from "./limiter/local-limiter.ts";
export type {
  LimiterStats,
  LimiterTuning,
  ModelCallReport,
  ModelRequestLimiter,
  ModelRequestPermit,
} from "./limiter/model-limiter.ts";
export {
  type LoadedWorkflow,
  type LoadWorkflowOptions,
  loadWorkflow,
  parseWorkflow,
} from "./load-workflow.ts";
export {
  type BatchOptions,
  type BatchResult,
  orchestrateBatch,
  type PlannedIssue,
} from "./orchestrate/orchestrate-batch.ts";
export {
  type IssuePassOptions,
  type IssueResult,
  type IssueStatus,
  type OrchestratorContext,
  orchestrateIssue,
  type ProgressEvent,
} from "./orchestrate/orchestrate-issue.ts";
export { prioritizerProblem } from "./orchestrate/prioritizer-problem.ts";
export {
  cycleRuleViolation,
  effectiveHistory,
  type TransitionRecord,
} from "./phase-machine/cycle-rules.ts";
export {
  decideTransition,
  type RunVerdict,
  type TransitionDecision,
} from "./phase-machine/decide-transition.ts";
export {
  commentTemplateFor,
  renderTemplate,
} from "./phase-machine/handoff-comment.ts";
export {
  type LabelChange,
  labelChanges,
} from "./phase-machine/label-changes.ts";
export {
  type OrderableIssue,
  orderIssues,
  type PriorityAssignment,
  readPriorityAssignments,
} from "./phase-machine/priority-order.ts";
export {
  type PhaseResolution,
  resolvePhase,
} from "./phase-machine/resolve-phase.ts";
export { DEFAULT_STATE_DIR, FileIssueStateStore } from "./state/file-state-store.ts";
export type {
  HaltedIssue,
  InFlightDispatch,
  IssueKey,
  IssueLock,
  IssueRecord,
  IssueStateStore,
  PendingTransition,
} from "./state/issue-record.ts";
export type {
  HandoffDeclaration,
  LabelSpec,
  LandingConfig,
  LandingMode,
  NamedSchema,
  PhaseChecks,
  PhaseType,
  PrioritizerConfig,
  TransformerAgent,
  ValidatorAgent,
  Workflow,
  WorkflowAgent,
  WorkflowPhase,
  WorkflowRules,
} from "./workflow-model.ts";
