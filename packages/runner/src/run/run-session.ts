import { type LoadedAgent, problem } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import { runGitChange } from "../git/run-git.ts";
import type { RunSnapshots } from "../git/run-snapshot.ts";
import type { MidStepReplay } from "../journal/mid-step-replay.ts";
import { stepEndRecord } from "../journal/step-end-record.ts";
import { checkDialectStep } from "../phases/check-step.ts";
import { afterFailedPhase } from "../phases/failed-phase.ts";
import { gateDialectStep } from "../phases/gate-step.ts";
import { runModelPhase } from "../phases/model-phase.ts";
import { programStep } from "../phases/program-step.ts";
import type { StepEnd } from "../phases/step-end.ts";
import { endRun, type RunEnding, type StepOutcome } from "../phases/step-outcome.ts";
import type { RunEvent } from "../run-event.ts";
import type { RunError, RunResult } from "../run-result.ts";
import { announceStepEnd } from "./announce-step-end.ts";
import { budgetError, budgetReached, budgetStepDidNotCloseError } from "./budgets.ts";
import { finishRun, runBoundary } from "./finish-run.ts";
import { forkRun } from "./fork-run.ts";
import { resumeRun } from "./resume-run.ts";
import type { RunContext, SessionInputs } from "./run-context.ts";
import { errorOf } from "./run-errors.ts";
import type { RunnerOptions, RunOptions } from "./run-options.ts";
import { openRunSnapshots, snapshotWarning, stepEndLabel, takeSnapshot } from "./run-snapshots.ts";
import { applyStepEnd, enterOnBudget, type RunState } from "./run-state.ts";
import { RunStop } from "./run-stop.ts";
import { startRun } from "./start-run.ts";
import { RunTelemetry } from "./telemetry.ts";

/**
 * One run of an agent: its lifecycle (setup or resume, the stop switch and the wall-clock
 * timer, finishing) and the flow loop. Each iteration runs the step's model phase, then its
 * dialect's phase; every phase returns a `StepOutcome`, and only this loop journals a step's
 * `StepEnd` and folds it into the state, or ends the run. `StepFlowRunner#run` creates one per
 * call.
 *
 * What changes during a run: `state` (the fold of the step ends), `replay` (served once, to the
 * first iteration of a resumed run), and the context's usage meter, stop switch and event
 * stream. Everything else is in the immutable `RunContext`.
 */
export class RunSession {
  private readonly inputs: SessionInputs;
  private readonly startedAt = Date.now();
  private state: RunState | undefined;
  private replay: MidStepReplay | undefined;
  /** Takes the working tree's snapshot at each step end (null: the run takes none). */
  private snapshots: RunSnapshots | null = null;
  /** The snapshot a new run (or fork) started from: the first step's changes are diffed from it. */
  private startSnapshot: string | undefined;

  constructor(
    loaded: LoadedAgent,
    runnerOptions: RunnerOptions,
    private readonly runOptions: RunOptions,
    listeners: ReadonlySet<(event: RunEvent) => void>,
  ) {
    this.inputs = {
      loaded,
      runnerOptions,
      runOptions,
      listeners,
      telemetry: new RunTelemetry(),
      stop: new RunStop(),
    };
  }

  async execute(): Promise<RunResult> {
    const { stop } = this.inputs;
    const signal = this.runOptions.signal;
    const onAbort = (): void => stop.stop("signal");
    if (signal?.aborted) stop.stop("signal");
    signal?.addEventListener("abort", onAbort, { once: true });
    let ctx: RunContext | undefined;
    let wallClock: NodeJS.Timeout | undefined;
    try {
      // Before the first event: the OpenTelemetry API is loaded only when an SDK is registered.
      await this.inputs.telemetry.load();
      // Setup failures (bad input, an agent that cannot run) reject: there is no run to end.
      const resumeId = this.runOptions.resume;
      const fork = this.runOptions.fork;
      if (resumeId === undefined && fork !== undefined) {
        ({
          context: ctx,
          state: this.state,
          snapshots: this.snapshots,
          startSnapshot: this.startSnapshot,
        } = await forkRun(this.inputs, fork));
      } else if (resumeId === undefined) {
        ({
          context: ctx,
          state: this.state,
          snapshots: this.snapshots,
          startSnapshot: this.startSnapshot,
        } = await startRun(this.inputs));
      } else {
        const resumed = await resumeRun(this.inputs, resumeId);
        if (resumed.kind === "finished") return resumed.result;
        ({ context: ctx, state: this.state, replay: this.replay } = resumed);
        this.snapshots = await openRunSnapshots({
          runnerOptions: this.inputs.runnerOptions,
          runId: ctx.runId,
          cwd: ctx.cwd,
          ...(ctx.worktree === null ? {} : { originCwd: ctx.originCwd }),
          journaled: ctx.journalPath !== null,
          git: ctx.git,
        });
      }
      const maxWall = this.runOptions.budgets?.maxWallClockMs;
      if (maxWall !== undefined) {
        wallClock = setTimeout(() => stop.stop("wallclock"), Math.max(0, maxWall));
        wallClock.unref();
      }
      try {
        return await this.loop(ctx);
      } catch (error) {
        // A package that throws (a bug, a custom verdict or hook) must not leave a journal without
        // its run_end or reject the run: it ends as a coded failure the user can resume.
        const failure = ctx.stopped() ?? unexpectedError(ctx, error);
        return await this.finish(ctx, { finalStepId: null, error: failure });
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (wallClock !== undefined) clearTimeout(wallClock);
      // Already stopped by finish() on a run that ended; a setup failure or a throw gets here.
      await ctx?.mcp?.close();
      ctx?.events.close();
      await this.snapshots?.close();
    }
  }

  private get current(): RunState {
    if (this.state === undefined) throw new Error("The run state is read before setup.");
    return this.state;
  }

  private async loop(ctx: RunContext): Promise<RunResult> {
    if (runGitChange(ctx.git, ctx.resumeCommand) === undefined) {
      await ctx.changes.begin(ctx.events, this.startSnapshot);
    }
    for (;;) {
      const outcome = this.budgetOutcome(ctx, await this.iteration(ctx));
      if (outcome.kind === "end") return this.finish(ctx, outcome.ending);
      await this.record(ctx, outcome.stepEnd);
      await announceStepEnd(ctx, this.inputs.runnerOptions, outcome.stepEnd);
    }
  }

  /**
   * One iteration: the budgets first (a spent one sends the run to its `onBudget` step, else
   * ends it), then the step's model phase, then its dialect's phase.
   */
  private async iteration(ctx: RunContext): Promise<StepOutcome> {
    const stopped = ctx.stopped();
    if (stopped !== undefined) return endRun(stopped);
    const reached =
      this.current.budget === undefined ? budgetReached(ctx, this.current) : undefined;
    if (reached !== undefined) {
      if (reached.onBudget === null) {
        return {
          kind: "end",
          ending: { finalStepId: null, error: budgetError(ctx, reached), budget: reached },
        };
      }
      ctx.events.emit({
        type: "budget",
        iteration: this.current.routerState.iteration,
        stepId: this.current.routerState.stepId,
        reached,
      });
      this.state = enterOnBudget(this.current, reached.onBudget, reached);
    }
    const gitMoved = runGitChange(ctx.git, ctx.resumeCommand);
    if (gitMoved !== undefined) return endRun(gitMoved);
    const state = this.current;
    const { stepId, iteration } = state.routerState;
    const step = ctx.registry.steps[stepId];
    if (step === undefined) {
      return endRun(problem(RUNNER_CODES.stepRouting, `Step "${stepId}" does not exist.`));
    }
    // A resumed run serves the interrupted step's recorded replies once, to that step only.
    const replay =
      this.replay?.stepId === stepId && this.replay.iteration === iteration
        ? this.replay.phases
        : undefined;
    this.replay = undefined;

    if (step.subprocess !== undefined) return programStep(ctx, state, step, step.subprocess);
    const phase = await runModelPhase(ctx, state, step, "step", { replay: replay?.step });
    // What the step's tools did, checked before the completion chain runs any git.
    const gitChanged = runGitChange(ctx.git, ctx.resumeCommand);
    if (gitChanged !== undefined) return endRun(gitChanged, stepId);
    if (!phase.ok) return afterFailedPhase(ctx, state, step, phase);
    return ctx.registry.dialect === "check" || step.check !== undefined
      ? checkDialectStep(ctx, state, step, phase.answer, phase.toolbox, replay?.check)
      : gateDialectStep(ctx, state, step, phase.answer, phase.toolbox);
  }

  /**
   * What budgets make of an iteration's outcome. The `onBudget` step has one execution: whatever
   * it did but close (its closing ended the run in follow-decision.ts) ends the run here
   * (`RUN-BUDGET-002`), and a failure on its way keeps its own error with the budget noted. A
   * run that reaches its iteration cap (the router refuses the move, `AGENT_MAX_ITERATIONS`) goes
   * to `onBudget` as the next iteration, one past the cap, instead of ending.
   */
  private budgetOutcome(ctx: RunContext, outcome: StepOutcome): StepOutcome {
    const budget = this.current.budget;
    if (budget !== undefined) {
      if (outcome.kind === "end") return { kind: "end", ending: { ...outcome.ending, budget } };
      const record = outcome.stepEnd;
      return {
        kind: "end",
        ending: {
          finalStepId: record.stepId,
          error: budgetStepDidNotCloseError(ctx, budget, describeMove(record.history.transition)),
          stepEnd: { ...record, final: true },
          budget,
        },
      };
    }
    const onBudget = ctx.registry.onBudget;
    const ending = outcome.kind === "end" ? outcome.ending : undefined;
    const record = ending?.stepEnd;
    if (
      onBudget === undefined ||
      ending?.error?.code !== "AGENT_MAX_ITERATIONS" ||
      record === undefined ||
      record.stepId === onBudget
    ) {
      return outcome;
    }
    const routerState = {
      ...record.routerState,
      iteration: record.routerState.iteration + 1,
      stepId: onBudget,
      previousStepId: record.stepId,
      visitExecutions: 0,
      checkRetries: 0,
      awaitingCheck: false,
    };
    return {
      kind: "continue",
      stepEnd: {
        ...record,
        history: { ...record.history, transition: onBudget },
        routerState,
        pendingRetry: null,
        consecutiveSchemaFailures: 0,
        final: false,
      },
    };
  }

  /**
   * The one place a step's end is journaled and folded into the state. The journal gets the
   * router's per-step totals as what this step changed, so its lines do not grow with the run.
   */
  private async record(ctx: RunContext, stepEnd: StepEnd): Promise<void> {
    const previous = this.current.routerState;
    // The working tree as the step left it, before its record says so: what a fork starts from.
    // Not in a repository whose git metadata changed: the guard ends the run before more git.
    const gitChanged = runGitChange(ctx.git, ctx.resumeCommand) !== undefined;
    const snapshot = await takeSnapshot(
      gitChanged ? null : this.snapshots,
      stepEndLabel(stepEnd.iteration, stepEnd.stepId),
      snapshotWarning(ctx.events),
    );
    // What the step changed (`step_changes`), from the same snapshot, before its `step_end`.
    if (!gitChanged) {
      await ctx.changes.record(ctx.events, stepEnd.stepId, stepEnd.iteration, snapshot);
    }
    // The record (what changed in the router's totals) exists for the journal and listeners.
    ctx.events.emitBuilt("step_end", () => ({
      type: "step_end",
      ...stepEndRecord(previous, stepEnd),
      ...(snapshot === undefined ? {} : { snapshot }),
    }));
    this.state = applyStepEnd(this.current, stepEnd);
  }

  /**
   * Ends the run: the last step's record, then (after a validated completion) the boundary
   * hook, then the result and `run_end`.
   */
  private async finish(ctx: RunContext, ending: RunEnding): Promise<RunResult> {
    let final = ending;
    // The MCP servers stop with the model's work, before the boundary hook and the worktree's
    // finish act on the repository: a server's sandbox hands back its git changes as it ends.
    await ctx.mcp?.close();
    if (ending.stepEnd !== undefined) {
      await this.record(ctx, ending.stepEnd);
      // A hook that fails here ends the run through the caller's catch, before the boundary hook.
      await announceStepEnd(ctx, this.inputs.runnerOptions, ending.stepEnd);
    }
    // The boundary hook and the worktree finish run git on the host: not in a repository whose
    // git metadata changed since the start.
    const gitChanged =
      ending.error === undefined ? runGitChange(ctx.git, ctx.resumeCommand) : undefined;
    if (gitChanged !== undefined) final = { finalStepId: ending.finalStepId, error: gitChanged };
    else if (ending.error === undefined && ending.boundary !== undefined) {
      const unconfirmed = await runBoundary(ctx, ending.boundary);
      if (unconfirmed !== undefined) final = { ...ending, error: unconfirmed };
    }
    return finishRun(ctx, this.current, final, this.startedAt);
  }
}

/** "it went to "x"", "it asked to repeat", … for RUN-BUDGET-002's message. */
function describeMove(transition: string): string {
  if (transition === "schema-failure") return "it gave no output matching its schema";
  if (transition === "error") return "it failed";
  return `it went to "${transition}"`;
}

function unexpectedError(ctx: RunContext, error: unknown): RunError {
  const coded = errorOf(error, RUNNER_CODES.stepFailed);
  if (coded.hint !== undefined) return coded;
  return {
    ...coded,
    hint: `Unexpected error; the journal is complete up to it. Fix the cause and continue with \`${ctx.resumeCommand}\`.`,
  };
}
