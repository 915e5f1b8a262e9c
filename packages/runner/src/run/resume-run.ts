import { existsSync } from "node:fs";
import path from "node:path";
import { ledgerOf } from "@climpt/protocol";
import { RUNNER_CODES } from "../codes.ts";
import { preRunChecks, reportWarnings } from "../definition-checks/pre-run-checks.ts";
import { checkResumedGit, type RunGit, recordRunGit } from "../git/run-git.ts";
import { runJournalStore } from "../journal/journal-store.ts";
import {
  type MidStepReplay,
  recordedMidStep,
  recordedTotals,
  replayCounts,
  withoutToolResults,
} from "../journal/mid-step-replay.ts";
import { StepEndFold } from "../journal/step-end-record.ts";
import { observeJournaledStepEnd } from "../phases/verdict-observation.ts";
import type { RunEvent, RunStartEvent } from "../run-event.ts";
import type { RunResult } from "../run-result.ts";
import { AgentDefinitionError, RunnerError } from "../runner-error.ts";
import { forkSessionInputs } from "./fork-run.ts";
import { checkResumeDefinition, checkResumeLocation } from "./resume-checks.ts";
import {
  buildRunContext,
  type RunContext,
  resolveRunCap,
  type SessionInputs,
} from "./run-context.ts";
import { resumeCommandOf } from "./run-options.ts";
import { applyStepEnd, initialRunState, type RunState } from "./run-state.ts";

export type ResumedRun =
  | {
      readonly kind: "resumed";
      readonly context: RunContext;
      readonly state: RunState;
      readonly replay: MidStepReplay;
    }
  /** The run had completed: its stored result. */
  | { readonly kind: "finished"; readonly result: RunResult };

/**
 * Setup of a resumed run, from its journal. The state is the fold of its `step_end` events
 * (the verdict strategy is fed the same records); the step that was running when it stopped
 * starts again, with the model replies and tool results the journal holds for it served from
 * the journal, so no completed model call is repeated. A run that completed returns its stored
 * result; a run whose boundary hook ran (or started) is refused, so nothing acts twice.
 */
export async function resumeRun(inputs: SessionInputs, runId: string): Promise<ResumedRun> {
  const { loaded, runOptions, runnerOptions } = inputs;
  const { agent, registry } = loaded;
  const relocated =
    runOptions.resumeIn === undefined ? undefined : path.resolve(runOptions.resumeIn);
  const storeOptions = {
    cwd: relocated ?? path.resolve(runOptions.cwd ?? process.cwd()),
    agent,
    journalDir: typeof runnerOptions.journalDir === "string" ? runnerOptions.journalDir : undefined,
    fsync: runnerOptions.fsync ?? true,
  };
  const store =
    runnerOptions.journalDir === false
      ? runJournalStore(storeOptions, undefined)
      : runJournalStore(storeOptions, runnerOptions.journalStore);
  const file = store.locate(runId);
  const events = await store.read(runId);
  const start = events.find((event): event is RunStartEvent => event.type === "run_start");
  if (start === undefined) {
    throw new RunnerError({
      code: RUNNER_CODES.resumeNoRunStart,
      message: `The journal ${file} has no run_start event, so there is nothing to resume.`,
      file,
      hint: "Start a new run instead.",
    });
  }
  let lastEnd: RunResult | undefined;
  for (const event of events) if (event.type === "run_end") lastEnd = event.result;
  if (lastEnd?.success) return { kind: "finished", result: lastEnd };

  // A relocated run's folder is the caller's: worktree mode does not manage (or remove) it.
  const worktree = relocated === undefined ? start.worktree : null;
  if (worktree !== null && !existsSync(worktree.path)) {
    throw new RunnerError({
      code: RUNNER_CODES.resumeWorktreeGone,
      message: `The run's worktree ${worktree.path} no longer exists.`,
      hint: `Recreate it with \`git worktree add ${worktree.path} ${worktree.branch}\`, or start a new run.`,
    });
  }
  if (events.some((e) => e.type === "boundary_hook" || e.type === "boundary_hook_start")) {
    const finished = events.some((event) => event.type === "boundary_hook");
    throw new RunnerError({
      code: RUNNER_CODES.resumeHookRan,
      message: finished
        ? `Run ${runId} already ran its boundary hook; resuming could act twice.`
        : `Run ${runId} stopped while its boundary hook was running; resuming could act twice.`,
      file,
      hint: "Read the run's result in the journal; start a new run if more work is needed.",
    });
  }

  // Where git finds the repository must be what the run recorded, before anything runs again
  // (and before the location check below asks git for the repository's worktrees). This reads
  // files and lists the configuration with host git (@climpt/host-git), whatever the journal names.
  // A journal from before the record (or a relocated run) takes the repository as it is now.
  const git: RunGit | null =
    start.git !== undefined && relocated === undefined
      ? start.git
      : await recordRunGit({
          cwd: relocated ?? start.cwd,
          ...(worktree === null ? {} : { originCwd: start.originCwd }),
          ...(runnerOptions.env === undefined ? {} : { env: runnerOptions.env }),
        });
  checkResumedGit(git, resumeCommandOf(runnerOptions, runId));
  // The journal is evidence, not an instruction: it must describe a run of this agent started
  // here, on the definition the agent folder holds now (resume-checks.ts).
  await checkResumeLocation({
    runId,
    start,
    file,
    here: storeOptions.cwd,
    agentName: agent.name,
    relocated: relocated !== undefined,
    env: hostEnv(runnerOptions.env),
  });
  const checked = checkResumeDefinition({
    events,
    agentDir: loaded.dir,
    excluded: [path.dirname(file)],
    file,
    accept: runOptions.acceptChangedDefinition === true,
    resumeCommand: resumeCommandOf(runnerOptions, runId),
  });

  // The definition may have changed since the run started: a resumed run is checked like a new
  // one, with the arguments it started with, before it can spend anything.
  const prechecked = await preRunChecks(loaded, {
    args: start.args,
    cwd: relocated ?? start.originCwd,
    sandbox: runnerOptions.stepExecutor === undefined,
  });
  const warnings = [...checked.warnings, ...prechecked];
  // A fork keeps its rule on resume: merged only when asked (fork-run.ts).
  const context = await buildRunContext(
    start.forkedFrom === undefined ? inputs : forkSessionInputs(inputs),
    {
      runId,
      args: { ...start.args },
      cwd: relocated ?? start.cwd,
      originCwd: relocated ?? start.originCwd,
      worktree,
      modelOverride: runOptions.model ?? start.modelOverride ?? undefined,
      iterationCap: resolveRunCap(inputs, start.iterationCap),
      journal: {
        path: file,
        open: runnerOptions.journalDir === false ? null : () => store.reopen(runId),
      },
      lastSeq: events.reduce((max, event) => Math.max(max, event.seq), 0),
      // Usage is summed over every call made, a failed attempt's too; replayed calls add nothing.
      totals: recordedTotals(events),
      git,
      // As the run recorded it at its start; a journal from before the record compares nothing.
      baseline: start.baseline ?? {
        unavailable: "the run's journal is from before failures were compared with a base",
      },
    },
  );

  try {
    const started = context.router.start(start.entryStepId);
    if (!started.ok) throw new AgentDefinitionError(started.issues);
    let state = initialRunState(started.value, context.registry);
    // Rebuilds each record's full router state (a format-2 step_end holds only the per-step
    // totals it changed); a format-1 journal's records hold them whole.
    // The ledger and the step snapshots continue from what the journal recorded.
    context.events.restoreLedger(ledgerOf(events));
    context.changes.restore(events);
    const fold = new StepEndFold(state.routerState);
    let lastEndIndex = -1;
    events.forEach((event, index) => {
      // A failed run's last step_end records the failing step; resume runs that step again.
      if (event.type !== "step_end" || event.final) return;
      state = applyStepEnd(state, fold.apply(event));
      lastEndIndex = index;
      // The verdict is fed what the live run fed it, by the same function (verdict-observation).
      observeJournaledStepEnd(context.verdict, event, registry.steps[event.stepId]?.kind ?? "work");
    });

    // The interrupted step: what the journal recorded after the last step_end.
    const recorded = recordedMidStep(events.slice(lastEndIndex + 1));
    // A relocated run's folder was rebuilt as of the last step end: the tools run again there.
    const phases = relocated === undefined ? recorded : withoutToolResults(recorded);
    inputs.telemetry.restore(start);
    context.events.emit({
      type: "run_resume",
      stepId: state.routerState.stepId,
      iteration: state.routerState.iteration,
      ...replayCounts(phases),
      definition: checked.definition,
    });
    reportWarnings(context.events, warnings);
    // The step the recorded replies belong to: the one the journal says started after the last
    // step end. It is the folded state's step, unless a budget sent the run to its onBudget
    // step; the session finds the same budget again (or, raised, runs the step that was next,
    // which these replies are then not served to).
    const interrupted = lastStepStart(events.slice(lastEndIndex + 1));
    const replay: MidStepReplay = {
      stepId: interrupted?.stepId ?? state.routerState.stepId,
      iteration: interrupted?.iteration ?? state.routerState.iteration,
      phases,
    };
    return { kind: "resumed", context, state, replay };
  } catch (error) {
    // A verdict that throws while the journal is folded: the run does not start, so its
    // journal must not stay open.
    context.events.close();
    throw error;
  }
}

function lastStepStart(
  events: readonly RunEvent[],
): { readonly stepId: string; readonly iteration: number } | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === "step_start") return { stepId: event.stepId, iteration: event.iteration };
  }
  return undefined;
}

/** The caller's environment with the run's overrides, for host git. */
function hostEnv(
  overrides: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...overrides })) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}
