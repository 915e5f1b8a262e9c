import { existsSync } from "node:fs";
import path from "node:path";
import type { RunUsage, StepEndEvent } from "@climpt/protocol";
import { RUNNER_CODES } from "../codes.ts";
import { preRunChecks, reportWarnings } from "../definition-checks/pre-run-checks.ts";
import { recordRunGit } from "../git/run-git.ts";
import { adoptSnapshots, type RunSnapshots, snapshotLabel } from "../git/run-snapshot.ts";
import {
  isPlainBranchName,
  isRemoteName,
  isSnapshotCommit,
  isSnapshotRunId,
} from "../git/snapshot-names.ts";
import { fetchRunSnapshots } from "../git/snapshot-remote.ts";
import { runJournalStore } from "../journal/journal-store.ts";
import { JOURNAL_FORMAT, StepEndFold } from "../journal/step-end-record.ts";
import { observeJournaledStepEnd } from "../phases/verdict-observation.ts";
import type { RunEvent, RunStartEvent } from "../run-event.ts";
import { AgentDefinitionError, RunnerError } from "../runner-error.ts";
import { createForkWorktree } from "../worktree/fork-worktree.ts";
import { discardRunWorktree, git, repositoryOf } from "../worktree/worktree.ts";
import { digestDefinition } from "./definition-digest.ts";
import {
  buildRunContext,
  type RunContext,
  resolveRunCap,
  type SessionInputs,
} from "./run-context.ts";
import { newRunId } from "./run-id.ts";
import { openRunSnapshots, START_SNAPSHOT } from "./run-snapshots.ts";
import { applyStepEnd, initialRunState, type RunState } from "./run-state.ts";
import { ZERO_TOTALS } from "./usage-meter.ts";
import { validateArgs } from "./validate-args.ts";

/** Where in the source run a fork starts: the state before `iteration`. */
interface ForkPoint {
  readonly iteration: number;
  readonly stepId: string;
  readonly snapshot: string | undefined;
  readonly totals: RunUsage;
  /** The step ends the fork inherits, in journal order (none at the first iteration). */
  readonly inherited: readonly StepEndEvent[];
}

/**
 * The points a run can be forked at, in journal order: before its first iteration, then after
 * each step end it folded (a failed run's final step end is not one: resume runs that step
 * again, and so does a fork). Each names the iteration and step the run went on with.
 */
function forkPoints(events: readonly RunEvent[], start: RunStartEvent): ForkPoint[] {
  const points: ForkPoint[] = [
    {
      iteration: 1,
      stepId: start.entryStepId,
      snapshot: start.snapshot,
      totals: ZERO_TOTALS,
      inherited: [],
    },
  ];
  const inherited: StepEndEvent[] = [];
  for (const event of events) {
    if (event.type !== "step_end" || event.final) continue;
    inherited.push(event);
    points.push({
      iteration: event.routerState.iteration,
      stepId: event.routerState.stepId,
      snapshot: event.snapshot,
      totals: event.totals,
      inherited: inherited.slice(),
    });
  }
  return points;
}

/** The point `at` names: an iteration (its last point), or a step id (its first). */
function findForkPoint(
  points: readonly ForkPoint[],
  at: string | number,
  context: { readonly runId: string; readonly file: string; readonly stepIds: ReadonlySet<string> },
): ForkPoint {
  const { runId, file } = context;
  const asNumber =
    typeof at === "number" ? at : !context.stepIds.has(at) && /^\d+$/.test(at) ? Number(at) : null;
  const last = points.at(-1) as ForkPoint;
  if (asNumber !== null) {
    const found = points.findLast((point) => point.iteration === asNumber);
    if (found !== undefined) return found;
    throw new RunnerError({
      code: RUNNER_CODES.forkPointNotReached,
      message:
        Number.isInteger(asNumber) && asNumber >= 1
          ? `Run ${runId} never reached iteration ${asNumber}: the last it reached is ${last.iteration} (${last.stepId}).`
          : `--at ${at} is not an iteration: iterations are whole numbers from 1.`,
      file,
      hint: `\`climpt show ${runId}\` lists its iterations; fork at one from 1 to ${last.iteration}, or at a step id it ran.`,
    });
  }
  const found = points.find((point) => point.stepId === at);
  if (found !== undefined) return found;
  const ran = [...new Set(points.map((point) => point.stepId))];
  throw new RunnerError({
    code: RUNNER_CODES.forkPointNotReached,
    message: context.stepIds.has(String(at))
      ? `Run ${runId} never ran step "${at}".`
      : `The agent has no step "${at}", and it is not an iteration number.`,
    file,
    hint: `Fork at a step the run ran (${ran.join(", ")}) or at an iteration number.`,
  });
}

/**
 * The snapshots up to the fork point, label → commit: the source's start and each inherited
 * step end's. A journal that names one with an iteration that is not a whole number or a
 * commit that is not an object id was not written by climpt (RUN-FORK-004): nothing is made.
 */
function inheritedSnapshots(
  start: RunStartEvent,
  point: ForkPoint,
  source: { readonly runId: string; readonly file: string },
): Map<string, string> {
  const labels = new Map<string, string>();
  const add = (label: string, commit: unknown, what: string): void => {
    if (commit === undefined) return;
    if (!isSnapshotCommit(commit)) {
      throw new RunnerError({
        code: RUNNER_CODES.forkJournalMalformed,
        message: `The journal of run ${source.runId} names ${JSON.stringify(commit)} as the snapshot ${what}: that is not a commit id, so the run is not forked.`,
        file: source.file,
        hint: "climpt records snapshots as full commit ids; the journal was edited or written by something else. Fork another run, or start a new one.",
      });
    }
    labels.set(label, commit);
  };
  add(START_SNAPSHOT, start.snapshot, "of its start");
  for (const end of point.inherited) {
    const iteration: unknown = end.iteration;
    if (!Number.isSafeInteger(iteration) || (iteration as number) < 1) {
      throw new RunnerError({
        code: RUNNER_CODES.forkJournalMalformed,
        message: `The journal of run ${source.runId} has a step end whose iteration is ${JSON.stringify(iteration)}, not a whole number from 1, so the run is not forked.`,
        file: source.file,
        hint: "The journal was edited or written by something else. Fork another run, or start a new one.",
      });
    }
    const at = `of iteration ${end.iteration} (${String(end.stepId)})`;
    add(snapshotLabel(end.iteration, String(end.stepId)), end.snapshot, at);
  }
  // The fork point's snapshot is one of these (the start's or the last inherited step end's).
  return labels;
}

/** The branch checked out in `dir` (null: a detached HEAD). */
async function currentBranch(dir: string): Promise<string | null> {
  const name = await git(repositoryOf(dir), ["rev-parse", "--abbrev-ref", "HEAD"]);
  return name === "HEAD" ? null : name;
}

/**
 * A fork's setup, in the inputs both it and its resume use: a fork is never merged unless the
 * caller asks (`worktreeOptions.merge`), since it exists to be compared with its source.
 */
export function forkSessionInputs(inputs: SessionInputs): SessionInputs {
  return {
    ...inputs,
    runOptions: {
      ...inputs.runOptions,
      worktreeOptions: {
        ...inputs.runOptions.worktreeOptions,
        merge: inputs.runOptions.worktreeOptions?.merge ?? false,
      },
    },
  };
}

/**
 * Setup of a fork (`RunOptions.fork`, `climpt fork`): a new run that starts where the source
 * run was before iteration `at`. Its state is the fold of the source's step ends up to there, by
 * the functions resume uses (`StepEndFold`, `applyStepEnd`, the verdict fed the same records),
 * and those step ends are copied into its own journal (marked `inheritedFrom`), so it never asks
 * the model or runs a tool for them, and resuming it folds them like its own. Its working tree is
 * a new worktree on a new branch made from the source's snapshot at that point; its arguments are
 * the source's with the caller's over them, and its model the caller's or the source's. The
 * source's journal is only read; its branch, worktree and snapshot refs are not touched.
 */
export async function forkRun(
  sessionInputs: SessionInputs,
  fork: { readonly runId: string; readonly at: string | number; readonly remote?: string },
): Promise<{
  readonly context: RunContext;
  readonly state: RunState;
  readonly snapshots: RunSnapshots | null;
  /** The snapshot the first step's changes are compared with (none: the run took none). */
  readonly startSnapshot: string | undefined;
}> {
  const inputs = forkSessionInputs(sessionInputs);
  const { loaded, runOptions, runnerOptions } = inputs;
  const { agent, registry } = loaded;
  const here = path.resolve(runOptions.cwd ?? process.cwd());
  const sourceId = fork.runId;
  // The run id names the source's snapshot refs on git's command line: checked before anything.
  if (!isSnapshotRunId(sourceId)) {
    throw new RunnerError({
      code: RUNNER_CODES.forkNoRun,
      message: `"${sourceId}" is not a run id.`,
      hint: "A run id is what `climpt runs` lists (20261122T003512Z-a1b2c3): letters, digits, _ and -.",
    });
  }
  const remote = fork.remote;
  if (remote !== undefined && !isRemoteName(remote)) {
    throw new RunnerError({
      code: RUNNER_CODES.forkNoSnapshot,
      message: `"${remote}" is not a git remote's name or URL to fetch run ${sourceId}'s snapshots from.`,
      hint: "Pass the remote the fleet pushes issue branches to (`climpt worker --remote`), e.g. --remote origin.",
    });
  }
  if (runnerOptions.journalDir === false) {
    throw new RunnerError({
      code: RUNNER_CODES.forkNoRun,
      message: `A fork of run ${sourceId} needs journals, and this runner keeps none (journalDir: false).`,
      hint: "Fork with a runner that keeps journals (the default).",
    });
  }
  const store = runJournalStore(
    {
      cwd: here,
      agent,
      journalDir:
        typeof runnerOptions.journalDir === "string" ? runnerOptions.journalDir : undefined,
      fsync: runnerOptions.fsync ?? true,
    },
    runnerOptions.journalStore,
  );
  const file = store.locate(sourceId);
  const noRun = (why: string): RunnerError =>
    new RunnerError({
      code: RUNNER_CODES.forkNoRun,
      message: `Cannot fork run ${sourceId}: ${why}`,
      file,
      hint: "`climpt runs` lists the runs; fork from the folder the run was started in, with its agent.",
    });
  if (runnerOptions.journalStore === undefined && !existsSync(file)) {
    throw noRun(`no journal at ${file}.`);
  }
  const events = await store.read(sourceId);
  const start = events.find((event): event is RunStartEvent => event.type === "run_start");
  if (start === undefined) throw noRun("its journal has no run_start.");
  if (start.agent !== agent.name) throw noRun(`it is a run of agent "${start.agent}".`);
  // A fleet's run worked in a worker's folder, on any machine: its snapshots come from the remote.
  if (remote === undefined && path.resolve(start.originCwd) !== here) {
    throw noRun(`it was started in ${start.originCwd}, not in ${here}.`);
  }

  const point = findForkPoint(forkPoints(events, start), fork.at, {
    runId: sourceId,
    file,
    stepIds: new Set(Object.keys(registry.steps)),
  });
  const where = `iteration ${point.iteration} (${point.stepId})`;
  const snapshot = point.snapshot;
  // The snapshots the fork takes refs to, by the source's labels; every id is checked before it
  // reaches git (a journal, above all one read from Redis, is not trusted input).
  const labels = inheritedSnapshots(start, point, { runId: sourceId, file });
  // The base branch a fork merges into when asked (--merge) reaches git's command line too.
  const recordedBase = start.worktree?.baseBranch ?? null;
  if (recordedBase !== null && !isPlainBranchName(recordedBase)) {
    throw new RunnerError({
      code: RUNNER_CODES.forkJournalMalformed,
      message: `The journal of run ${sourceId} names ${JSON.stringify(recordedBase)} as its base branch: that is not a branch name, so the run is not forked.`,
      file,
      hint: "The journal was edited or written by something else. Fork another run, or start a new one.",
    });
  }
  const repo = snapshot === undefined ? null : repositoryOf(here);
  if (remote !== undefined && repo !== null) {
    try {
      await fetchRunSnapshots(repo, remote, sourceId, [...labels.keys()], runnerOptions.env);
    } catch (error) {
      throw new RunnerError({
        code: RUNNER_CODES.forkNoSnapshot,
        message: `The snapshots of run ${sourceId} up to ${where} could not be fetched from ${remote}: ${(error as Error).message}`,
        file,
        hint: `A fleet pushes them with the issue's branch at every step end (climpt worker --remote); check that ${remote} is that remote, or fork at another point.`,
      });
    }
  }
  const exists =
    repo !== null &&
    (await git(repo, ["cat-file", "-e", `${snapshot}^{commit}`]).then(
      () => true,
      () => false,
    ));
  if (snapshot === undefined || repo === null || !exists) {
    throw new RunnerError({
      code: RUNNER_CODES.forkNoSnapshot,
      message:
        snapshot === undefined
          ? `Run ${sourceId} recorded no snapshot of its working tree before ${where}, so a fork cannot start there.`
          : `The snapshot ${snapshot} of run ${sourceId} before ${where} is no longer in the repository at ${here}.`,
      file,
      hint: "A journal from before snapshots, a run outside a repository, a failed snapshot (see the journal's notices) or removed refs have none; fork at another point, or start a new run.",
    });
  }

  // The caller's arguments over the source's, checked as a new run's: an undeclared one is
  // RUN-ARGS-001, before anything is made.
  const args = validateArgs(agent, { ...start.args, ...runOptions.args });
  if (!args.ok) throw new AgentDefinitionError(args.issues);
  const warnings = await preRunChecks(loaded, {
    args: args.value,
    cwd: here,
    sandbox: runnerOptions.stepExecutor === undefined,
  });

  const runId = newRunId();
  const worktree = await createForkWorktree({
    repoDir: here,
    ...(agent.worktree.root === undefined ? {} : { root: agent.worktree.root }),
    agentName: agent.name,
    runId,
    snapshot,
    baseBranch: start.worktree === null ? await currentBranch(here) : recordedBase,
    ...(runnerOptions.env === undefined ? {} : { env: runnerOptions.env }),
  });
  let context: RunContext;
  let snapshots: RunSnapshots | null = null;
  try {
    const gitRecord = await recordRunGit({
      cwd: worktree.path,
      originCwd: here,
      ...(runnerOptions.env === undefined ? {} : { env: runnerOptions.env }),
    });
    context = await buildRunContext(inputs, {
      runId,
      args: args.value,
      cwd: worktree.path,
      originCwd: here,
      worktree,
      modelOverride: runOptions.model ?? start.modelOverride ?? undefined,
      iterationCap: resolveRunCap(inputs, start.iterationCap),
      journal: { path: store.locate(runId), open: () => store.create(runId) },
      lastSeq: 0,
      // Budgets count what the source spent before the fork point: a fork never resets them.
      totals: point.totals,
      git: gitRecord,
      // The fork continues the source's work: its failures are compared with the same base.
      baseline: start.baseline ?? {
        unavailable: "the source run's journal is from before failures were compared with a base",
      },
    });
    snapshots = await openRunSnapshots({
      runnerOptions,
      runId,
      cwd: worktree.path,
      originCwd: here,
      journaled: true,
      git: gitRecord,
    });
  } catch (error) {
    await discardRunWorktree({ repoDir: here, worktree, runId }).catch(() => undefined);
    throw error;
  }

  try {
    const started = context.router.start(start.entryStepId);
    if (!started.ok) throw new AgentDefinitionError(started.issues);
    let state = initialRunState(started.value, context.registry);
    const fold = new StepEndFold(state.routerState);
    for (const end of point.inherited) {
      state = applyStepEnd(state, fold.apply(end));
      observeJournaledStepEnd(context.verdict, end, registry.steps[end.stepId]?.kind ?? "work");
    }
    // Where the fold leads is where the point said the source went on: a journal that disagrees
    // with itself is not forked.
    if (
      state.routerState.iteration !== point.iteration ||
      state.routerState.stepId !== point.stepId
    ) {
      throw new Error(
        `The folded journal of run ${sourceId} is at iteration ${state.routerState.iteration} (${state.routerState.stepId}), not at ${where}.`,
      );
    }
    context.events.emit({
      type: "run_start",
      journalFormat: JOURNAL_FORMAT,
      agent: agent.name,
      agentDir: loaded.dir,
      cwd: context.cwd,
      originCwd: here,
      args: context.args,
      entryStepId: start.entryStepId,
      dialect: registry.dialect,
      verdictType: agent.verdict.type,
      registryVersion: registry.version,
      modelOverride: context.modelOverride ?? null,
      iterationCap: context.router.iterationCap,
      git: context.git,
      definition: digestDefinition(loaded.dir, [path.dirname(file)]),
      worktree,
      baseline: context.baseline,
      ...(start.snapshot === undefined ? {} : { snapshot: start.snapshot }),
      forkedFrom: {
        runId: sourceId,
        iteration: point.iteration,
        stepId: point.stepId,
        snapshot,
        usage: point.totals,
      },
    });
    // The source's step ends as they were recorded (the fork's own stamps), so the fork's journal
    // alone rebuilds it, for `climpt show` and for resume.
    for (const end of point.inherited) {
      const { runId: source, time: _time, seq: _seq, type: _type, ...record } = end;
      context.events.emit({
        type: "step_end",
        ...record,
        inheritedFrom: end.inheritedFrom ?? source,
      });
    }
    // The fork's own refs to the snapshots it inherited: they outlive the source's.
    await adoptSnapshots(repo, runId, labels, runnerOptions.env);
    context.events.emit({
      type: "notice",
      level: "info",
      message: `Forked from run ${sourceId} at ${where}: its ${point.inherited.length} earlier step end(s) are copied from its journal, not run again; the working tree starts from its snapshot ${snapshot} on branch ${worktree.branch}.`,
    });
    reportWarnings(context.events, warnings);
    return { context, state, snapshots, startSnapshot: snapshot };
  } catch (error) {
    context.events.close();
    await snapshots?.close();
    throw error;
  }
}
