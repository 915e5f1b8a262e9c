import type {
  GitMetadata,
  JsonValue,
  ModelContentBlock,
  Problem,
  StepVia,
  ToolCall,
  ToolResult,
  Usage,
} from "@climpt/model";
import type { DefinitionRecord } from "./definition-record.ts";
import type { LedgerAttempt } from "./ledger.ts";
import type { BudgetReached, RunError, RunResult, RunUsage } from "./run-result.ts";
import type { StepEndRecord } from "./step-end.ts";

/**
 * Everything a run does, as one typed stream. The CLI's progress display, the journal and the
 * tests all consume it. Every event is plain JSON: the journal is these events, one per line,
 * and the journal alone rebuilds the run (resume folds its `step_end` events with
 * `applyStepEnd`).
 */
export type RunEvent =
  | RunStartEvent
  | RunResumeEvent
  | StepStartEvent
  | PromptResolvedEvent
  | ModelRequestEvent
  | ModelResponseEvent
  | ToolCallEvent
  | ToolResultEvent
  | ToolRefusedEvent
  | ProgramEvent
  | StepFailedEvent
  | GateEvent
  | CheckEvent
  | RouteEvent
  | ValidatorEvent
  | LedgerEvent
  | VerdictEvent
  | BoundaryHookStartEvent
  | BoundaryHookEvent
  | StepChangesEvent
  | StepEndEvent
  | BudgetEvent
  | NoticeEvent
  | RunEndEvent;

interface EventBase {
  readonly runId: string;
  /** ISO time the event was emitted. */
  readonly time: string;
  /** 1-based position in the run's journal. */
  readonly seq: number;
}

/** The inputs a run needs to be continued by `--resume`, recorded once at the start. */
export interface RunStartEvent extends EventBase {
  readonly type: "run_start";
  /** The journal's format (`JOURNAL_FORMAT`); absent in a journal of format 1. */
  readonly journalFormat?: number;
  readonly agent: string;
  readonly agentDir: string;
  /** Where the agent works (the worktree when worktree mode is on). */
  readonly cwd: string;
  /** The folder the run was started from (the repository, in worktree mode). */
  readonly originCwd: string;
  readonly args: Readonly<Record<string, JsonValue>>;
  readonly entryStepId: string;
  readonly dialect: "check" | "gate";
  readonly verdictType: string;
  readonly registryVersion: string;
  readonly modelOverride: string | null;
  readonly iterationCap: number;
  /**
   * What decides where git finds the run's repository, as it was at the start (the run's working
   * tree, and in worktree mode the repository it was started from); null outside a repository,
   * absent in journals before it. Checked after every step and on resume (`RUN-GIT-001`).
   */
  readonly git?: { readonly metadata: readonly GitMetadata[] } | null;
  /**
   * A digest of the agent folder the run started with (definition-digest.ts); `climpt resume`
   * refuses a changed one (`RUN-RESUME-006`). Absent in journals from before it.
   */
  readonly definition?: DefinitionRecord;
  /** Worktree mode: the folder, its branch, the base branch it merges back into. */
  readonly worktree: {
    readonly path: string;
    readonly branch: string;
    readonly baseBranch?: string | null;
    readonly createdBranch?: boolean;
  } | null;
  /**
   * What failures of validators with `baseline: "compare"` are compared with, fixed before the
   * model acts: a ref whose merge base with HEAD is checked (the base branch in worktree mode,
   * else the commit the run started on), its name, and that merge base at the start; or why
   * there is none. Absent in journals from before it (those runs compare nothing).
   */
  readonly baseline?: RunBaseline;
  /**
   * The commit recording the working tree as the run found it (`refs/climpt/<runId>/0-start`),
   * what a fork at the first iteration starts from. Absent when the run took no snapshot (no
   * repository, no journal, a journal from before snapshots, or the snapshot failed).
   */
  readonly snapshot?: string;
  /** Set when the run is a fork (`climpt fork`): the run and the point it started from. */
  readonly forkedFrom?: ForkOrigin;
}

/**
 * Where a forked run came from. Its iterations before `iteration` were not run: their `step_end`
 * records are the source run's, copied into the fork's journal (marked `inheritedFrom`), and its
 * working tree started from `snapshot`, the source's state at that point.
 */
export interface ForkOrigin {
  readonly runId: string;
  /** The first iteration the fork ran itself. */
  readonly iteration: number;
  /** The step it ran at that iteration. */
  readonly stepId: string;
  /** The commit its working tree started from (the source's snapshot before `iteration`). */
  readonly snapshot: string;
  /** The source's usage totals at that point, which the fork's totals start from. */
  readonly usage: RunUsage;
}

/** `RunStartEvent.baseline`: the run's base for comparing failures, or why it has none. */
export type RunBaseline =
  | { readonly ref: string; readonly name: string; readonly startBase: string }
  | { readonly unavailable: string };

export interface RunResumeEvent extends EventBase {
  readonly type: "run_resume";
  /** The step the resumed run continues with. */
  readonly stepId: string;
  readonly iteration: number;
  /** Model calls of the interrupted step that are served from the journal, not repeated. */
  readonly replayedModelCalls: number;
  readonly replayedToolResults: number;
  /** The agent folder's digest at this resume: the next resume compares with it. */
  readonly definition?: DefinitionRecord;
}

export interface StepStartEvent extends EventBase {
  readonly type: "step_start";
  readonly iteration: number;
  readonly stepId: string;
  readonly stepKind: string;
  readonly model: string;
  /** `step` for the step prompt, `check` for a check-dialect check call. */
  readonly phase: "step" | "check";
  /** True when the prompt is a validation retry prompt. */
  readonly retry: boolean;
}

/** A closure step's program ran (a step with `runner.command`): its argv, exit and output. */
export interface ProgramEvent extends EventBase {
  readonly type: "program";
  readonly iteration: number;
  readonly stepId: string;
  /** The program and its arguments after `${context.*}` substitution. */
  readonly command: readonly string[];
  readonly exitCode: number;
  readonly timedOut?: boolean;
  /** The first 4000 characters of each stream. */
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

export interface PromptResolvedEvent extends EventBase {
  readonly type: "prompt_resolved";
  readonly iteration: number;
  readonly stepId: string;
  readonly phase: "step" | "check";
  /** `file` (with the path relative to the agent folder), `fallback` (with its key), or `retry`. */
  readonly source: string;
  readonly promptFile: string | null;
  readonly text: string;
}

export interface ModelRequestEvent extends EventBase {
  readonly type: "model_request";
  readonly iteration: number;
  readonly stepId: string;
  readonly phase: "step" | "check";
  /** 1-based call number within the step phase. */
  readonly call: number;
  readonly model: string;
  readonly repair: boolean;
}

export interface ModelResponseEvent extends EventBase {
  readonly type: "model_response";
  readonly iteration: number;
  readonly stepId: string;
  readonly phase: "step" | "check";
  readonly call: number;
  readonly model: string;
  readonly stopReason: string | null;
  readonly usage: Usage;
  readonly costUsd: number;
  readonly requestId: string | null;
  readonly durationMs: number;
  /** The reply, so a resumed run can serve this call from the journal instead of repeating it. */
  readonly content: readonly ModelContentBlock[];
  /** Running totals of the run after this call. */
  readonly totals: RunUsage;
  /**
   * True when a resumed run served this reply from the journal (its usage is already in
   * `totals`). A later resume takes replies from the original record, never from a replay.
   */
  readonly replayed?: boolean;
}

export interface ToolCallEvent extends EventBase {
  readonly type: "tool_call";
  readonly iteration: number;
  readonly stepId: string;
  readonly call: ToolCall;
}

export interface ToolResultEvent extends EventBase {
  readonly type: "tool_result";
  readonly iteration: number;
  readonly stepId: string;
  readonly call: ToolCall;
  readonly result: ToolResult;
  readonly durationMs: number;
  /** True when a resumed run served this result from the journal instead of running the tool. */
  readonly replayed?: boolean;
  /**
   * True when the run was stopped (signal, wall-clock budget) while the tool ran and it came back
   * as an error: the command was cut off, so resume runs it again instead of serving this result.
   */
  readonly interrupted?: boolean;
}

export interface ToolRefusedEvent extends EventBase {
  readonly type: "tool_refused";
  readonly iteration: number;
  readonly stepId: string;
  readonly tool: string;
  readonly reason: string;
}

/** A step produced no usable structured output (counted toward FAILED_SCHEMA_RESOLUTION). */
export interface StepFailedEvent extends EventBase {
  readonly type: "step_failed";
  readonly iteration: number;
  readonly stepId: string;
  readonly error: RunError;
  readonly consecutiveSchemaFailures: number;
}

export interface GateEvent extends EventBase {
  readonly type: "gate";
  readonly iteration: number;
  readonly stepId: string;
  readonly intent: string;
  readonly usedFallback: boolean;
  readonly reason: string | null;
  readonly target: string | null;
  readonly handoff: Readonly<Record<string, JsonValue>>;
}

export interface CheckEvent extends EventBase {
  readonly type: "check";
  readonly iteration: number;
  readonly stepId: string;
  readonly passed: boolean;
  readonly message: string;
}

export interface RouteEvent extends EventBase {
  readonly type: "route";
  readonly iteration: number;
  readonly from: string;
  /** The router's decision, or `validation-retry` after the completion chain refused. */
  readonly decision: "step" | "closing" | "complete" | "abort" | "validation-retry";
  /** The step the flow moves to (`step`, `validation-retry`), else null. */
  readonly to: string | null;
  /** Why it moves there (`StepVia` of `@climpt/model`, re-exported by `@climpt/router`; `enter-closure` included), else null. */
  readonly via: StepVia | null;
}

export interface ValidatorEvent extends EventBase {
  readonly type: "validator";
  readonly iteration: number;
  readonly stepId: string;
  readonly validator: string;
  readonly passed: boolean;
  readonly command: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly output: string;
  /**
   * A failure compared with the run's base (`ValidatorResult.baseline` of @climpt/validators):
   * `passed` true with a failing exit code means every failure was pre-existing. Absent for a
   * validator that passed outright, and in journals from before it.
   */
  readonly baseline?: {
    readonly status: "compared" | "off" | "unavailable";
    readonly reason?: string;
    readonly baseSha?: string;
    readonly preExisting: readonly string[];
    readonly introduced: readonly string[];
  };
}

/**
 * One validation attempt of the completion ledger (ledger.ts), after its validators ran and
 * before the verdict: what ran, on which commit, with what result. Absent in journals before it.
 */
export interface LedgerEvent extends EventBase, Omit<LedgerAttempt, "time"> {
  readonly type: "ledger";
}

/** A file a step changed, as `git diff --numstat` counts it (null counts: a binary file). */
export interface StepFileChange {
  readonly path: string;
  readonly added: number | null;
  readonly removed: number | null;
}

/**
 * What a step changed in the working tree (tracked and untracked files git does not ignore),
 * written just before its `step_end`: the diff between snapshots of the tree before and after
 * it. Absent outside a repository and in journals before it.
 */
export interface StepChangesEvent extends EventBase {
  readonly type: "step_changes";
  readonly iteration: number;
  readonly stepId: string;
  /**
   * The snapshot after the step (the run's snapshot commit, or a tree when the run took none);
   * the next step's diff starts from it.
   */
  readonly tree: string;
  readonly files: readonly StepFileChange[];
  /** More files changed than the event lists (it keeps the first `STEP_CHANGES_MAX_FILES`). */
  readonly truncated?: boolean;
}

export interface VerdictEvent extends EventBase {
  readonly type: "verdict";
  readonly iteration: number;
  readonly stepId: string;
  /** `done`, `retry` or `abort`. */
  readonly outcome: "done" | "retry" | "abort";
  readonly reason: string;
  readonly returnStepId: string | null;
  readonly failurePattern: string | null;
}

/**
 * Written (and fsynced) just before the boundary hook acts: a crash while its commands run leaves
 * this without a `boundary_hook`, and resume then refuses, because acting twice (closing an issue
 * twice, deploying twice) is worse than asking the user to look.
 */
export interface BoundaryHookStartEvent extends EventBase {
  readonly type: "boundary_hook_start";
}

export interface BoundaryHookEvent extends EventBase {
  readonly type: "boundary_hook";
  readonly ok: boolean;
  readonly actions: readonly JsonValue[];
  /** Why an action was not taken or failed (`AC-HOOK-*`), each with its hint. */
  readonly problems: readonly Problem[];
}

/**
 * A step finished and the flow decided where to go: its `StepEnd` record as the journal stores
 * it (`stepEndRecord`: the router's per-step totals as the entries this step changed). It
 * carries everything needed to continue from here, so resume folds the journal up to the last
 * of these (`StepEndFold`, then `applyStepEnd`).
 */
export interface StepEndEvent extends EventBase, StepEndRecord {
  readonly type: "step_end";
}

/**
 * Before iteration `iteration` a budget was found reached: the run goes to its `onBudget` step
 * (`reached.onBudget`) instead of `stepId`, the step that was next. Recorded each time it is
 * found, a resume included; the budget itself is counted from the step ends' totals.
 */
export interface BudgetEvent extends EventBase {
  readonly type: "budget";
  readonly iteration: number;
  /** The step the flow was about to run. */
  readonly stepId: string;
  readonly reached: BudgetReached;
}

export interface NoticeEvent extends EventBase {
  readonly type: "notice";
  readonly level: "info" | "warning";
  readonly message: string;
}

export interface RunEndEvent extends EventBase {
  readonly type: "run_end";
  readonly result: RunResult;
}

export type RunEventType = RunEvent["type"];

/** An event before the runner stamps it with runId, time and seq. */
export type RunEventInput = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, "runId" | "time" | "seq">
    : never
  : never;
