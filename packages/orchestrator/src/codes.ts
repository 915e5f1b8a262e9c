/**
 * Every code this package reports. `WF-*` are problems in `.agent/workflow.json`; the families
 * and the numbers the original runtime used keep their meaning, so a user can search them. `ORC-*`
 * are the orchestrator's own run-time outcomes: a `gh` call that failed, a dispatch that could not
 * start, a cycle rule that stopped an issue, the queue. @climpt/registry-schema's error catalogue
 * has a row for each.
 */
export const ORCHESTRATOR_CODES = {
  /** The workflow file does not exist. */
  loadNotFound: "WF-LOAD-001",
  /** The workflow file exists but cannot be read. */
  loadReadFailed: "WF-LOAD-002",
  /** The workflow file is not JSON. */
  loadInvalidJson: "WF-LOAD-003",
  /** An object in the file names the same key twice (JSON.parse would keep only the last). */
  loadDuplicateKey: "WF-LOAD-004",
  /** `version` is missing or not a string. */
  schemaVersion: "WF-SCHEMA-001",
  /** `phases` is missing or not an object. */
  schemaPhases: "WF-SCHEMA-002",
  /** `labelMapping` is missing or not an object. */
  schemaLabelMapping: "WF-SCHEMA-003",
  /** `agents` is missing or not an object. */
  schemaAgents: "WF-SCHEMA-004",
  /** A field has the wrong type (a phase that is not an object, a role that is neither kind, …). */
  schemaType: "WF-SCHEMA-005",
  /** A field the format does not have (a typo); warning. */
  schemaUnknownField: "WF-SCHEMA-006",
  /** A phase type other than actionable / terminal / blocking. */
  phaseType: "WF-PHASE-001",
  /** An actionable phase without `agent`. */
  phaseAgentRequired: "WF-PHASE-002",
  /** An actionable phase without `priority`. */
  phasePriorityRequired: "WF-PHASE-003",
  /** No label maps to the phase: no issue can be put in it, by a person or by a transition. */
  phaseUnreachable: "WF-PHASE-004",
  /** The workflow has no blocking phase: a stuck issue keeps its phase (warning). */
  phaseNoBlocking: "WF-PHASE-005",
  /** A terminal or blocking phase names an agent, which never runs (warning). */
  phaseAgentIgnored: "WF-PHASE-006",
  /** `labelMapping` is empty. */
  labelMappingEmpty: "WF-LABEL-001",
  /** A label maps to a phase that does not exist. */
  labelUnknownPhase: "WF-LABEL-002",
  /** `labels` lacks a spec for a label the workflow uses. */
  labelSpecMissing: "WF-LABEL-003",
  /** `labels` declares a label nothing uses. */
  labelSpecOrphan: "WF-LABEL-004",
  /** A label colour is not six hex digits. */
  labelSpecColor: "WF-LABEL-005",
  /** One GitHub label is mapped twice (GitHub compares label names case-insensitively). */
  labelMappedTwice: "WF-LABEL-006",
  /** `rules.maxCycles` is not a positive integer. */
  ruleMaxCycles: "WF-RULE-001",
  /** `rules.cycleDelayMs` is negative or not a number. */
  ruleCycleDelay: "WF-RULE-002",
  /** `rules.maxConsecutivePhases` is negative or not an integer. */
  ruleMaxConsecutive: "WF-RULE-003",
  /** A phase names an agent `agents` does not declare. */
  refUnknownAgent: "WF-REF-001",
  /** An agent's `fallbackPhase` is not a phase. */
  refUnknownFallbackPhase: "WF-REF-002",
  /** A transformer's `outputPhase` is not a phase. */
  refUnknownOutputPhase: "WF-REF-003",
  /** A validator's `outputPhases` entry is not a phase. */
  refUnknownOutputPhasesEntry: "WF-REF-004",
  /** `closeCondition` without `closeOnComplete: true`. */
  refCloseConditionWithoutClose: "WF-REF-005",
  /** A validator's `closeCondition` is not one of its outcomes. */
  refInvalidCloseCondition: "WF-REF-006",
  /** An outcome with no phase: a transformer without `outputPhase`, a validator without outcomes. */
  refOutcomeWithoutPhase: "WF-REF-007",
  /** `prioritizer.agent` is not a declared agent. */
  refUnknownPrioritizerAgent: "WF-REF-008",
  /** An agent no phase (and not the prioritizer) uses (warning). */
  refAgentUnused: "WF-REF-009",
  /** A transformer's `fallbackPhases` entry is not a phase. */
  refUnknownFallbackPhasesEntry: "WF-REF-010",
  /** An agent without `fallbackPhase`: its failures go to the blocking phase (warning), or nowhere (error). */
  refNoFallback: "WF-REF-011",
  /** From an actionable phase no terminal phase can be reached through the agents' outcomes (warning). */
  flowNoTerminal: "WF-FLOW-001",
  /** A `handoffs` entry (or `payloadSchema`) is not shaped as the format says. */
  handoffShape: "WF-HANDOFF-001",
  /** A `payloadFrom` expression (or `emit.path`) this orchestrator cannot evaluate. */
  handoffExpression: "WF-HANDOFF-002",
  /** A schema a handoff or `payloadSchema` names cannot be found, read, or compiled. */
  handoffSchema: "WF-HANDOFF-003",
  /** A handoff can never fire here: its agent or outcome is not this workflow's (warning). */
  handoffNeverFires: "WF-HANDOFF-004",
  /** `land` is not shaped as the format says. */
  landShape: "WF-LAND-001",
  /** `--prioritize` but the workflow has no `prioritizer`. */
  batchNoPrioritizer: "WF-BATCH-001",
  /** `prioritizer.labels` is missing or empty, or not a list of names. */
  prioritizerLabels: "WF-PRIO-001",
  /** `prioritizer.defaultLabel` is not one of `prioritizer.labels`. */
  prioritizerDefaultLabel: "WF-PRIO-002",

  /** `gh` is not installed (or not on PATH). */
  ghNotFound: "ORC-GH-001",
  /** A `gh` command exited non-zero; its stderr is in the message. */
  ghFailed: "ORC-GH-002",
  /** A `gh` command did not finish within its time limit. */
  ghTimedOut: "ORC-GH-003",
  /** `gh` printed something that is not the JSON asked for. */
  ghBadOutput: "ORC-GH-004",
  /** The agent of a phase cannot be loaded (its folder is missing or invalid). */
  dispatchAgentInvalid: "ORC-DISPATCH-001",
  /** The runner refused the run (bad arguments, a missing working directory). */
  dispatchRefused: "ORC-DISPATCH-002",
  /** The worktree or branch could not be made. */
  dispatchWorktree: "ORC-DISPATCH-003",
  /** A crashed run could not be read back from its journal. */
  dispatchJournal: "ORC-DISPATCH-004",
  /** The run stopped for a reason that is not the agent's (interrupted, the model API failing); it is resumed on the next pass. */
  dispatchInterrupted: "ORC-DISPATCH-005",
  /**
   * The run was interrupted (stopped, killed, the model API out of reach) on too many
   * passes in a row: it fails, takes the fallback phase, and a comment says why.
   */
  dispatchInterruptedTooOften: "ORC-DISPATCH-006",
  /** A handoff's `payloadFrom` expression has no value in the run's output. */
  handoffUnresolved: "ORC-HANDOFF-001",
  /** A payload does not satisfy its schema (the handoff's `schemaRef`, or `payloadSchema`). */
  handoffInvalid: "ORC-HANDOFF-002",
  /** A handoff's artifact cannot be written (its path leaves the worktree, an I/O error). */
  handoffWrite: "ORC-HANDOFF-003",
  /** The branch does not merge cleanly into the base branch; the base is unchanged. */
  landConflict: "ORC-LAND-001",
  /** The base branch cannot take the merge (uncommitted changes there, no branch to merge into). */
  landBase: "ORC-LAND-002",
  /** `git push` of the branch (or of the base after the merge) failed. */
  landPush: "ORC-LAND-003",
  /** The pull request for the branch could not be found or opened. */
  landPullRequest: "ORC-LAND-004",
  /** A validator's run reported no verdict: the issue takes the fallback phase. */
  verdictMissing: "ORC-VERDICT-001",
  /** A validator's verdict is not a key of its `outputPhases`: the issue takes the fallback phase. */
  verdictUnknown: "ORC-VERDICT-002",
  /** The issue reached `rules.maxCycles` transitions. */
  cycleLimit: "ORC-CYCLE-001",
  /** The issue entered the same phase `rules.maxConsecutivePhases` times in a row. */
  consecutiveLimit: "ORC-CYCLE-002",
  /** The orchestrator's record of an issue cannot be read (corrupt file). */
  stateUnreadable: "ORC-STATE-001",
  /** Another orchestrator is working on the issue. */
  stateLocked: "ORC-STATE-002",
  /**
   * The lock was lost while this orchestrator held it (its lease ran out, another worker
   * took the issue): the run is stopped, resumable, and nothing more is written for the issue.
   */
  stateLockLost: "ORC-STATE-003",
  /**
   * The issue is held in its phase: a run's outcome there had no phase to go to (no fallback, no
   * blocking phase). It is not dispatched again until a person relabels it.
   */
  stateHalted: "ORC-STATE-004",
  /** The prioritizer's run failed or gave no usable order; the batch runs in issue order. */
  prioritizerFailed: "ORC-PRIO-001",
  /** Redis cannot be reached at the queue URL. */
  queueUnreachable: "ORC-QUEUE-001",
  /** The queue URL is not a redis:// or rediss:// URL. */
  queueBadUrl: "ORC-QUEUE-002",
  /** A job's data is not what `climpt orchestrate --queue` enqueues. */
  queueBadJob: "ORC-QUEUE-003",
  /** A model request waited longer than the limiter's bound for a slot. */
  limiterTimeout: "ORC-LIMIT-001",
  /**
   * The Redis journal refused an event: it is not the stream's next one (another worker writes
   * the run), or Redis failed; or an entry there is not an event.
   */
  journalRefused: "ORC-JOURNAL-001",
} as const;

export type OrchestratorCode = (typeof ORCHESTRATOR_CODES)[keyof typeof ORCHESTRATOR_CODES];

/** A coded run-time failure, as data. */
export interface OrchestratorError {
  /** The specific code (`AC-MODEL-003`, `WF-LOAD-001`, …). */
  readonly code: string;
  /**
   * The run-level family of a run's error when the runner reported one (`AGENT_INTERRUPTED`,
   * `GATE_INTERPRETATION_ERROR`, …). Decisions route on `family ?? code`.
   */
  readonly family?: string;
  readonly message: string;
  readonly hint?: string;
  /** Where the problem is, when it has a place: a JSON path (`$.pr_number`, `$.handoffs[0]…`). */
  readonly path?: string;
}
