/**
 * `.agent/workflow.json`, loaded and checked, with defaults applied. The field names are the
 * original runtime's, so a workflow written for it loads unchanged.
 */

export type PhaseType = "actionable" | "terminal" | "blocking";

export interface WorkflowPhase {
  readonly id: string;
  readonly type: PhaseType;
  /** Lower runs first when an issue carries labels of several actionable phases. */
  readonly priority: number | null;
  /** The agent an actionable phase dispatches. */
  readonly agent: string | null;
  /**
   * The phase follows the pull request of the branch until its checks pass (an extension
   * of the format): its agent is the fix agent, run only when a check fails. Null: a plain phase.
   */
  readonly checks: PhaseChecks | null;
}

/** How a `checks` phase waits for, and fixes, the pull request's checks. */
export interface PhaseChecks {
  /** One wait for the checks of one head commit ends (the issue is blocked) after this. */
  readonly timeoutMinutes: number;
  /** Pause between two reads of pending checks. */
  readonly pollSeconds: number;
  /** Runs of the fix agent for one issue in the phase before red checks block it. */
  readonly maxFixAttempts: number;
}

export const DEFAULT_PHASE_CHECKS: PhaseChecks = {
  timeoutMinutes: 60,
  pollSeconds: 60,
  maxFixAttempts: 2,
};

interface WorkflowAgentBase {
  readonly id: string;
  /** The agent folder under `.agent/` (default: the agent id). */
  readonly directory: string;
  /** Where a failed run (or an outcome with no phase) goes; null: the first blocking phase. */
  readonly fallbackPhase: string | null;
  /** Close the issue when an outcome of this agent leads to a terminal phase. */
  readonly closeOnComplete: boolean;
  /** Close only for this outcome (needs `closeOnComplete`). */
  readonly closeCondition: string | null;
}

/** Turns the issue into one next state: success → `outputPhase`. */
export interface TransformerAgent extends WorkflowAgentBase {
  readonly role: "transformer";
  readonly outputPhase: string;
  /** A failed run's verdict → phase, before `fallbackPhase`. */
  readonly fallbackPhases: Readonly<Record<string, string>>;
}

/** Judges the issue: the run's verdict picks the next phase from `outputPhases`. */
export interface ValidatorAgent extends WorkflowAgentBase {
  readonly role: "validator";
  readonly outputPhases: Readonly<Record<string, string>>;
}

export type WorkflowAgent = TransformerAgent | ValidatorAgent;

export interface LabelSpec {
  /** Six hex digits, no `#`. */
  readonly color: string;
  readonly description: string;
}

export interface WorkflowRules {
  /** Transitions one issue may make before it is moved to the blocking phase. */
  readonly maxCycles: number;
  /** Pause between two cycles of one issue. */
  readonly cycleDelayMs: number;
  /** The same phase entered this many times in a row blocks the issue; 0 turns the rule off. */
  readonly maxConsecutivePhases: number;
}

export interface PrioritizerConfig {
  /** The agent that orders a batch. */
  readonly agent: string;
  /** Order labels, first = runs first (`order:1`, `order:2`, …). */
  readonly labels: readonly string[];
  /** Given to an issue the prioritizer left without a valid label. */
  readonly defaultLabel: string | null;
}

/**
 * One `handoffs` entry: when `fromAgent`'s run ends with `outcome`, its payload is built from
 * `payloadFrom` (JSONPath-like expressions over the run's final output, `'literals'`, and
 * `${payload.<key>}` templates), checked against the `schemaRef` schema, written as a JSON
 * artifact at `emit.path` (relative to the issue's worktree), and, with `persistPayloadTo:
 * "subjectStore"`, kept with the issue's record as the payload the next agents are given.
 */
export interface HandoffDeclaration {
  readonly id: string;
  /** Where it is in the file (`$.handoffs[2]`), for problems. */
  readonly at: string;
  readonly when: { readonly fromAgent: string; readonly outcome: string };
  readonly emit: { readonly type: string; readonly schemaRef: string; readonly path: string };
  /** Payload key → expression, in declaration order. */
  readonly payloadFrom: readonly (readonly [key: string, expression: string])[];
  readonly persistPayloadTo: "subjectStore" | "none";
}

/** A JSON Schema a workflow names, read from its file when the workflow was loaded. */
export interface NamedSchema {
  /** As the workflow writes it (`pr-merger-verdict@1.0.0`, `.agent/…/merge-payload.json`). */
  readonly ref: string;
  /** The file it was read from; null before `loadWorkflow` resolved it (`parseWorkflow` alone). */
  readonly file: string | null;
  readonly schema: Readonly<Record<string, unknown>> | null;
  /**
   * Why the schema could not be read, when it could not: the workflow still loads (the original
   * runtime reads such schemas only when a handoff fires), and a payload that must be checked
   * against it is refused then (ORC-HANDOFF-002).
   */
  readonly unavailable?: string;
}

/**
 * Where a successful run's work goes before the issue moves on (an extension of the format; the
 * original runtime ignores the field): `merge` merges the branch into the branch the
 * orchestrator was started from, `pull-request` pushes it to `remote` and opens a pull request
 * that closes the issue, `push` only pushes the branch to `remote`.
 */
export interface LandingConfig {
  readonly mode: LandingMode;
  readonly remote: string;
  /** The branch to merge into or target; null: the branch the orchestrator was started from. */
  readonly base: string | null;
}

export type LandingMode = "merge" | "pull-request" | "push";

export const LANDING_MODES: readonly LandingMode[] = ["merge", "pull-request", "push"];

export interface Workflow {
  /** The file it was read from (absolute). */
  readonly file: string;
  readonly version: string;
  /** Labels on GitHub are `<prefix>:<label>` when set. */
  readonly labelPrefix: string | null;
  /** In declaration order. */
  readonly phases: readonly WorkflowPhase[];
  /** Bare label → phase id, in declaration order (the first label of a phase is the one added). */
  readonly labelMapping: readonly (readonly [label: string, phase: string])[];
  /** Declared label specs (bare names); null when the file has no `labels`. */
  readonly labels: Readonly<Record<string, LabelSpec>> | null;
  readonly agents: readonly WorkflowAgent[];
  readonly rules: WorkflowRules;
  /** Template name → comment text with `{placeholders}`. */
  readonly commentTemplates: Readonly<Record<string, string>>;
  readonly prioritizer: PrioritizerConfig | null;
  /** Artifact handoffs between agents, in declaration order. */
  readonly handoffs: readonly HandoffDeclaration[];
  /** The schema an issue's payload must satisfy (`payloadSchema.$ref`), or null. */
  readonly payloadSchema: NamedSchema | null;
  /** The handoffs' `emit.schemaRef` schemas, by ref (filled by `loadWorkflow`). */
  readonly handoffSchemas: Readonly<Record<string, NamedSchema>>;
  /** `land`, when the workflow says where the work goes; null: the orchestrator's default. */
  readonly landing: LandingConfig | null;
  /** Names state and locks: the label prefix, else `default`. */
  readonly id: string;
}

export const DEFAULT_RULES: WorkflowRules = {
  maxCycles: 5,
  cycleDelayMs: 10_000,
  maxConsecutivePhases: 0,
};

export const DEFAULT_WORKFLOW_PATH = ".agent/workflow.json";

export function phaseById(workflow: Workflow, id: string): WorkflowPhase | undefined {
  return workflow.phases.find((phase) => phase.id === id);
}

export function agentById(workflow: Workflow, id: string): WorkflowAgent | undefined {
  return workflow.agents.find((agent) => agent.id === id);
}

/** The label as it is on GitHub: with the workflow's prefix. */
export function githubLabel(workflow: Workflow, bare: string): string {
  return workflow.labelPrefix === null ? bare : `${workflow.labelPrefix}:${bare}`;
}

/** The bare label of a GitHub label, or null when it lacks the workflow's prefix. */
export function bareLabel(workflow: Workflow, label: string): string | null {
  if (workflow.labelPrefix === null) return label;
  const marker = `${workflow.labelPrefix}:`;
  return label.toLowerCase().startsWith(marker.toLowerCase()) ? label.slice(marker.length) : null;
}

/** The first blocking phase, in declaration order. */
export function firstBlockingPhase(workflow: Workflow): WorkflowPhase | undefined {
  return workflow.phases.find((phase) => phase.type === "blocking");
}
