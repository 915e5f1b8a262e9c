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
export { ensureIssueWorktree, type IssueWorktree, issueBranch } from "./dispatch/issue-worktree.ts";
export { isInterruption, templateValues, verdictOf } from "./dispatch/run-outcome.ts";
export { RunnerDispatcher, type RunnerDispatcherOptions } from "./dispatch/runner-dispatcher.ts";
export type { StepCommitLedger } from "./dispatch/step-commits.ts";
export {
  type EnqueuedJob,
  type EnqueueOptions,
  type EnqueueResult,
  enqueueIssues,
} from "./fleet/enqueue.ts";
export { type FleetJob, type FleetStatus, fleetStatus } from "./fleet/fleet-status.ts";
export {
  DEFAULT_JOB_LOCK_MS,
  type FleetWorker,
  type FleetWorkerOptions,
  startFleetWorker,
} from "./fleet/fleet-worker.ts";
export { type IssueJobData, issueJobId, readIssueJob } from "./fleet/issue-job.ts";
export {
  bullConnection,
  connectRedis,
  DEFAULT_QUEUE_NAME,
  KEY_PREFIX,
  parseQueueUrl,
  safeUrl,
} from "./fleet/redis-connection.ts";
export { journalKey, redisJournalStore } from "./fleet/redis-journal-store.ts";
export { type RedisLimiterOptions, RedisModelLimiter } from "./fleet/redis-limiter.ts";
export {
  DEFAULT_ISSUE_LEASE_MS,
  issueLockKey,
  issueStateKey,
  RedisIssueStateStore,
} from "./fleet/redis-state-store.ts";
export { redisStepCommits } from "./fleet/redis-step-commits.ts";
export { type RepoSlot, RepoSlots, repoCapKey } from "./fleet/repo-slots.ts";
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
  wantedLabels,
} from "./github/label-sync.ts";
export { type EmissionInput, emitHandoffs, type HandoffEmission } from "./handoff/emit-handoffs.ts";
export { payloadProblem } from "./handoff/issue-payload.ts";
export { SCHEMA_REF_FOLDERS } from "./handoff/workflow-schemas.ts";
export { type LimitedClientOptions, limitModelClient } from "./limiter/limited-model-client.ts";
export { LocalModelLimiter } from "./limiter/local-limiter.ts";
export {
  DEFAULT_TUNING,
  type LimiterStats,
  type LimiterTuning,
  type ModelCallReport,
  type ModelRequestLimiter,
  type ModelRequestPermit,
} from "./limiter/model-limiter.ts";
export {
  type LoadedWorkflow,
  type LoadWorkflowOptions,
  loadWorkflow,
  parseWorkflow,
} from "./load-workflow.ts";
export { type AppliedTransition, applyTransition } from "./orchestrate/apply-transition.ts";
export {
  type BatchOptions,
  type BatchResult,
  orchestrateBatch,
  type PlannedIssue,
  prioritizeBatch,
  runPool,
} from "./orchestrate/orchestrate-batch.ts";
export {
  DEFAULT_MAX_INTERRUPTIONS,
  type IssuePassOptions,
  type IssueResult,
  type IssueStatus,
  type OrchestratorContext,
  orchestrateIssue,
  type ProgressEvent,
} from "./orchestrate/orchestrate-issue.ts";
export { handoffTransition, stuckTransition } from "./orchestrate/plan-transition.ts";
export { prioritizerProblem } from "./orchestrate/prioritizer-problem.ts";
export {
  consecutiveCount,
  cycleRuleViolation,
  effectiveHistory,
  type TransitionRecord,
} from "./phase-machine/cycle-rules.ts";
export {
  decideTransition,
  fallbackPhaseOf,
  type RunVerdict,
  type TransitionDecision,
} from "./phase-machine/decide-transition.ts";
export {
  commentMarker,
  commentTemplateFor,
  renderTemplate,
  withMarker,
} from "./phase-machine/handoff-comment.ts";
export {
  applyLabelChange,
  isEmptyChange,
  type LabelChange,
  labelChanges,
  labelOfPhase,
} from "./phase-machine/label-changes.ts";
export {
  type OrderableIssue,
  orderIssues,
  orderRank,
  type PriorityAssignment,
  readPriorityAssignments,
} from "./phase-machine/priority-order.ts";
export {
  type PhaseResolution,
  phasesOfLabels,
  resolvePhase,
} from "./phase-machine/resolve-phase.ts";
export { DEFAULT_STATE_DIR, FileIssueStateStore } from "./state/file-state-store.ts";
export {
  emptyRecord,
  type HaltedIssue,
  type InFlightDispatch,
  type IssueKey,
  type IssueLock,
  type IssueRecord,
  type IssueStateStore,
  type PendingTransition,
} from "./state/issue-record.ts";
export {
  agentById,
  bareLabel,
  DEFAULT_RULES,
  DEFAULT_WORKFLOW_PATH,
  firstBlockingPhase,
  githubLabel,
  type HandoffDeclaration,
  LANDING_MODES,
  type LabelSpec,
  type LandingConfig,
  type LandingMode,
  type NamedSchema,
  type PhaseType,
  type PrioritizerConfig,
  phaseById,
  type TransformerAgent,
  type ValidatorAgent,
  type Workflow,
  type WorkflowAgent,
  type WorkflowPhase,
  type WorkflowRules,
} from "./workflow-model.ts";
