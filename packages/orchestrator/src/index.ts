export { ORCHESTRATOR_CODES, type OrchestratorCode, type OrchestratorError } from "./codes.ts";
export {
  type LoadedWorkflow,
  type LoadWorkflowOptions,
  loadWorkflow,
  parseWorkflow,
} from "./load-workflow.ts";
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
export {
  agentById,
  bareLabel,
  DEFAULT_RULES,
  DEFAULT_WORKFLOW_PATH,
  firstBlockingPhase,
  githubLabel,
  type LabelSpec,
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
