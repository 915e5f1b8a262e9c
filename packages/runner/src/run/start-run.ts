import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { resolveEntryStep } from "@climpt/registry-schema";
import { RUNNER_CODES } from "../codes.ts";
import { preRunChecks, reportWarnings } from "../definition-checks/pre-run-checks.ts";
import { recordRunBaseline } from "../git/run-baseline.ts";
import { recordRunGit } from "../git/run-git.ts";
import type { RunSnapshots } from "../git/run-snapshot.ts";
import { runJournalStore } from "../journal/journal-store.ts";
import { JOURNAL_FORMAT } from "../journal/step-end-record.ts";
import { AgentDefinitionError, RunnerError } from "../runner-error.ts";
import { createRunWorktree, discardRunWorktree } from "../worktree/worktree.ts";
import { digestDefinition } from "./definition-digest.ts";
import {
  buildRunContext,
  type RunContext,
  resolveRunCap,
  type SessionInputs,
} from "./run-context.ts";
import { newRunId } from "./run-id.ts";
import { openRunSnapshots, START_SNAPSHOT, takeSnapshot } from "./run-snapshots.ts";
import { initialRunState, type RunState } from "./run-state.ts";
import { validateArgs } from "./validate-args.ts";

/**
 * Setup of a new run: checks the working directory, the arguments, the entry step and everything
 * `climpt validate` checks (prompts, flow, the working folder) before anything is written, makes
 * the worktree (worktree mode), builds the run context, opens the journal and records
 * `run_start`, which holds everything resume needs to continue.
 */
export async function startRun(inputs: SessionInputs): Promise<{
  readonly context: RunContext;
  readonly state: RunState;
  readonly snapshots: RunSnapshots | null;
  /** The snapshot the first step's changes are compared with (none: the run took none). */
  readonly startSnapshot: string | undefined;
}> {
  const { loaded, runOptions, runnerOptions } = inputs;
  const { agent, registry } = loaded;
  const originCwd = path.resolve(runOptions.cwd ?? process.cwd());
  // Checked before anything is written: the journal's folder would otherwise create it.
  if (!existsSync(originCwd) || !statSync(originCwd).isDirectory()) {
    throw new RunnerError({
      code: RUNNER_CODES.noWorkingDirectory,
      message: `The working directory ${originCwd} does not exist or is not a folder.`,
      hint: "Pass --cwd (RunOptions.cwd) an existing folder: the repository the agent works on.",
    });
  }
  const args = validateArgs(agent, runOptions.args ?? {});
  if (!args.ok) throw new AgentDefinitionError(args.issues);
  const entry = resolveEntryStep(registry, agent.verdict.type);
  if (!entry.ok) throw new AgentDefinitionError(entry.issues);
  const warnings = await preRunChecks(loaded, {
    args: args.value,
    cwd: originCwd,
    sandbox: runnerOptions.stepExecutor === undefined,
  });
  const runId = newRunId();
  const branches = runOptions.worktreeOptions;
  const worktree =
    (runOptions.worktree ?? agent.worktree.enabled)
      ? await createRunWorktree({
          repoDir: originCwd,
          ...(agent.worktree.root === undefined ? {} : { root: agent.worktree.root }),
          agentName: agent.name,
          runId,
          branches: {
            ...(branches?.branch === undefined ? {} : { branch: branches.branch }),
            ...(branches?.baseBranch === undefined ? {} : { baseBranch: branches.baseBranch }),
          },
        })
      : null;
  let context: RunContext;
  try {
    // Before the first step: where git finds the repository, recorded (and a configuration
    // that includes a file from the working tree refused).
    const git = await recordRunGit({
      cwd: worktree?.path ?? originCwd,
      ...(worktree === null ? {} : { originCwd }),
      ...(runnerOptions.env === undefined ? {} : { env: runnerOptions.env }),
    });
    // Before the first step too: what failures will be compared with (git/run-baseline.ts).
    const baseline = await recordRunBaseline({
      cwd: worktree?.path ?? originCwd,
      worktree,
      ...(runnerOptions.env === undefined ? {} : { env: runnerOptions.env }),
    });
    // The journal lives with the repository the run was started from, not in the worktree,
    // which is removed after a successful run.
    const store =
      runnerOptions.journalDir === false
        ? null
        : runJournalStore(
            {
              cwd: originCwd,
              agent,
              journalDir: runnerOptions.journalDir,
              fsync: runnerOptions.fsync ?? true,
            },
            runnerOptions.journalStore,
          );
    context = await buildRunContext(inputs, {
      runId,
      args: args.value,
      cwd: worktree?.path ?? originCwd,
      originCwd,
      worktree,
      modelOverride: runOptions.model,
      iterationCap: resolveRunCap(inputs),
      journal: {
        path: store?.locate(runId) ?? null,
        open: store === null ? null : () => store.create(runId),
      },
      lastSeq: 0,
      git,
      baseline,
    });
  } catch (error) {
    // Setup failed before the first step: nothing ran in the worktree, so none is left behind.
    if (worktree !== null) {
      await discardRunWorktree({ repoDir: originCwd, worktree }).catch(() => undefined);
    }
    throw error;
  }
  const started = context.router.start(entry.value);
  if (!started.ok) throw new AgentDefinitionError(started.issues);
  const state = initialRunState(started.value, context.registry);
  // What the agent folder holds now (its journal folder left out, should it lie inside):
  // resume refuses to run a definition that changed since (resume-checks.ts).
  const definition = digestDefinition(
    loaded.dir,
    context.journalPath === null ? [] : [path.dirname(context.journalPath)],
  );
  // The working tree as the run found it: what a fork at the first iteration starts from.
  const snapshots = await openRunSnapshots({
    runnerOptions,
    runId,
    cwd: context.cwd,
    ...(worktree === null ? {} : { originCwd }),
    journaled: context.journalPath !== null,
    git: context.git,
  });
  const snapshotWarnings: string[] = [];
  const snapshot = await takeSnapshot(snapshots, START_SNAPSHOT, (message) =>
    snapshotWarnings.push(message),
  );
  context.events.emit({
    type: "run_start",
    journalFormat: JOURNAL_FORMAT,
    agent: agent.name,
    agentDir: loaded.dir,
    cwd: context.cwd,
    originCwd,
    args: context.args,
    entryStepId: entry.value,
    dialect: registry.dialect,
    verdictType: agent.verdict.type,
    registryVersion: registry.version,
    modelOverride: context.modelOverride ?? null,
    iterationCap: context.router.iterationCap,
    git: context.git,
    definition,
    worktree,
    baseline: context.baseline,
    ...(snapshot === undefined ? {} : { snapshot }),
  });
  reportWarnings(context.events, warnings);
  for (const message of snapshotWarnings)
    context.events.emit({ type: "notice", level: "warning", message });
  return { context, state, snapshots, startSnapshot: snapshot };
}
