import type { JsonValue, WorktreeFinish } from "@climpt/model";
import type { ModelClient, PriceTable } from "@climpt/sdk-adapter";
import type { JournalStoreFactory } from "../journal/journal-store.ts";
import type { RunEvent } from "../run-event.ts";
import type { StepExecutor } from "../step-executor.ts";

/** What `RunnerOptions.onStepEnd` is told about a step that just ended. */
export interface StepEndNotice {
  readonly runId: string;
  readonly stepId: string;
  readonly iteration: number;
  /** The step's transition (`closing`, the next step's id, `validation-retry:<step>`, …). */
  readonly transition: string;
  /** The run ends with this step (its boundary hook, if any, has not run yet). */
  readonly final: boolean;
  /** Where the agent works: the folder whose state the step left behind. */
  readonly cwd: string;
}

/** Budgets that end a run with a coded error (and a resumable journal) when exceeded. */
export interface RunBudgets {
  /** Input + output tokens summed over the run. */
  readonly maxTokens?: number;
  readonly maxCostUsd?: number;
  readonly maxWallClockMs?: number;
}

export interface WorktreeRunOptions extends Partial<WorktreeFinish> {
  /** The run's branch; default `climpt/<agent>/<runId>`. An existing branch is checked out. */
  readonly branch?: string;
  /** Where the worktree starts and the branch is merged back; default the current branch. */
  readonly baseBranch?: string;
}

export interface RunOptions {
  /** Agent parameters (channel 1): `{ issue: 123 }`. Checked against the agent's declarations. */
  readonly args?: Readonly<Record<string, JsonValue>>;
  /** Where the agent works: tools, validators and the journal folder are relative to it. */
  readonly cwd?: string;
  /** Replaces the agent's default model (a step's own `model` still wins). */
  readonly model?: string;
  /** Run-wide iteration cap; else the agent's, else 100. */
  readonly maxIterations?: number;
  readonly budgets?: RunBudgets;
  /**
   * The bounds of each model call's waits (docs/design.md#waits), over agent.json's
   * `limits.connectTimeoutMs` / `limits.streamIdleTimeoutMs`: how long a response may take to
   * start, and the longest silence in a streamed response. Unset: the agent's, else the model
   * client's defaults (60 s and 180 s). A call that waits past one fails coded (AC-MODEL-004,
   * AC-MODEL-011) and the run stays resumable.
   */
  readonly connectTimeoutMs?: number;
  readonly streamIdleTimeoutMs?: number;
  /** Continue the run with this id from its journal. */
  readonly resume?: string;
  /**
   * Start a new run from a point of an earlier one (`climpt fork`): its iterations before `at`
   * are the source's (their step ends copied from its journal: no model call, no tool runs),
   * its working tree a new worktree made from the source's snapshot at that point, and from
   * there it runs live with its own `args` (over the source's), `model` and budgets. `at` is an
   * iteration number, or a step id (its first execution). The source's journal, branch and
   * worktree are never changed. `remote`: the source is a fleet's run (its journal read through
   * `RunnerOptions.journalStore`, e.g. from Redis), whose snapshot refs the fleet pushed to this
   * git remote: the fork fetches the ones it needs from there, and the run may have started in
   * another folder (a worker's) than the fork's.
   */
  readonly fork?: {
    readonly runId: string;
    readonly at: string | number;
    readonly remote?: string;
  };
  /**
   * With `resume`: continue the run in this folder instead of the one it started in (a fleet
   * worker on another machine rebuilt the run's worktree there from the branch as it was pushed
   * at the last step end). The interrupted step's recorded model replies are still served from
   * the journal, but its recorded tool calls run again: their effects since the last step end
   * are not in the rebuilt folder.
   */
  readonly resumeIn?: string;
  /**
   * With `resume`: continue although the agent definition changed since the run started (or
   * was last resumed), instead of refusing with `RUN-RESUME-006`; recorded as a warning. For a
   * change the user made and reviewed (CLI `--accept-changed-definition`).
   */
  readonly acceptChangedDefinition?: boolean;
  /** Run in a fresh git worktree on its own branch (overrides agent.json). */
  readonly worktree?: boolean;
  /**
   * Worktree mode: the branch names, and what a successful run does with its branch; each key
   * overrides agent.json's `worktree` section (CLI `--branch`, `--base-branch`, `--no-merge`,
   * `--push`, `--push-remote`, `--create-pr`, `--pr-target`). A resumed run keeps its branches.
   */
  readonly worktreeOptions?: WorktreeRunOptions;
  /**
   * Replay model calls from this cassette (offline; a request it does not hold fails
   * `AC-REPLAY-001`). With `record` too: what it holds is served from it, the other requests go
   * to the model, and every exchange is recorded there (a different file).
   */
  readonly replay?: string;
  /** Record model calls to this cassette. */
  readonly record?: string;
  /** Stops the run cleanly: the journal is written and the run can be resumed. */
  readonly signal?: AbortSignal;
  /** Streamed model text, for live display. */
  readonly onTextDelta?: (delta: string, context: { stepId: string; iteration: number }) => void;
}

export interface RunnerOptions {
  /** The model client. Default: Anthropic through @anthropic-ai/sdk (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL). */
  readonly modelClient?: ModelClient;
  /**
   * Runs each step phase (prompt → tool loop → structured output + usage) instead of the
   * Messages API path. `modelClient`, `replay`, `record`, `callTimeoutMs`, `maxRetries` and
   * `prices` configure the default executor only. See `StepExecutor`.
   */
  readonly stepExecutor?: StepExecutor;
  /** Event listener; more can be added with `runner.on`. */
  readonly onEvent?: (event: RunEvent) => void;
  /** Journal folder; default `<cwd>/<agent.logging.directory>`. `false` keeps no journal. */
  readonly journalDir?: string | false;
  /**
   * Where journals are written and read instead of (or next to) the files: given the file store
   * of the run's folder, returns the store to use (a fleet tees every event to Redis, so a worker
   * on another machine can resume the run). Not used with `journalDir: false`.
   */
  readonly journalStore?: JournalStoreFactory;
  /**
   * Called after each step's `step_end` is durable, awaited before the next step (or, after the
   * last, before the boundary hook) starts. A fleet worker pushes the run's branch here. A hook
   * that throws ends the run with `RUN-STEP-HOOK-001`, resumable.
   */
  readonly onStepEnd?: (step: StepEndNotice) => Promise<void>;
  /**
   * fsync each journal line (default true). Off only for benchmarks: a crash could then lose the
   * last lines, and resume would repeat the steps they recorded.
   */
  readonly fsync?: boolean;
  /**
   * Snapshot the working tree at the run's start and at every step end (default true), as a
   * commit under `refs/climpt/<runId>/` recorded in `step_end.snapshot`: what `fork` starts
   * from. Taken only in a git repository with a commit, and only when the run keeps a journal.
   */
  readonly snapshots?: boolean;
  /** Per model call. */
  readonly callTimeoutMs?: number;
  /**
   * Defaults of `RunOptions.connectTimeoutMs` / `streamIdleTimeoutMs` for every run of this
   * runner (a run's own win; both win over agent.json's limits).
   */
  readonly connectTimeoutMs?: number;
  readonly streamIdleTimeoutMs?: number;
  /** SDK retries for 408/409/429/5xx. */
  readonly maxRetries?: number;
  /** Price overrides (USD per million tokens). */
  readonly prices?: PriceTable;
  /** The `gh` executable the boundary tools and hook use. Default `gh`. */
  readonly ghCommand?: string;
  /** Environment for tools, validators and hooks. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The command that continues a run, for the hints of a failed or interrupted run. Default
   * `climpt resume <runId>`; the CLI passes the one that finds the agent as the user named it.
   */
  readonly resumeCommand?: (runId: string) => string;
}

/** The command that continues run `runId` (`RunnerOptions.resumeCommand`). */
export function resumeCommandOf(options: RunnerOptions, runId: string): string {
  return options.resumeCommand?.(runId) ?? `climpt resume ${runId}`;
}
