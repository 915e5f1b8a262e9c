import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { ClimptError, type JsonValue, type LoadedAgent } from "@climpt/model";
import {
  fileJournalStore,
  inspectJournal,
  type JournalStore,
  type JournalStoreFactory,
  journalDirectory,
  journalPath,
  loadAgentDefinition,
  type RunEvent,
  type RunnerOptions,
  type RunResult,
  runSnapshotRefspec,
  StepFlowRunner,
} from "@climpt/runner";
import { createAnthropicClient, type ModelClient } from "@climpt/sdk-adapter";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { GhClient } from "../github/gh-client.ts";
import { type LimitedClientOptions, limitModelClient } from "../limiter/limited-model-client.ts";
import type { ModelRequestLimiter } from "../limiter/model-limiter.ts";
import { lockLostError } from "../state/lock-lost.ts";
import type { WorkflowAgent } from "../workflow-model.ts";
import type {
  Dispatcher,
  DispatchOutcome,
  DispatchRequest,
  LandRequest,
  PrioritizeOutcome,
  PrioritizeRequest,
} from "./dispatcher.ts";
import { argumentsOf, writeArtifacts } from "./issue-inputs.ts";
import {
  ensureIssueWorktree,
  type IssueWorktree,
  pushIssueBranch,
  worktreeHead,
} from "./issue-worktree.ts";
import { checkedOutBranch, landWork } from "./land-work.ts";
import { isInterruption, outcomeOfRun, setupFailure } from "./run-outcome.ts";
import type { StepCommitLedger } from "./step-commits.ts";

export interface RunnerDispatcherOptions {
  /** The repository checkout: agents are found under `<repoDir>/.agent`, worktrees made from it. */
  readonly repoDir: string;
  /** Folder holding the agent folders. Default `<repoDir>/.agent`. */
  readonly agentDir?: string;
  /** Where issue worktrees go. Default `../climpt-worktrees/<repository>` next to the repository. */
  readonly worktreeRoot?: string;
  /**
   * The shared model-request limiter. When given, every run's model client goes through it (an
   * Anthropic client that does not retry by itself, wrapped by `limitModelClient`).
   */
  readonly limiter?: ModelRequestLimiter;
  readonly limiterOptions?: LimitedClientOptions;
  /** A client to use instead of Anthropic (tests, replay). Wrapped by the limiter when one is given. */
  readonly modelClient?: ModelClient;
  /** Passed to each StepFlowRunner (`ghCommand`, `env`, `fsync`, `callTimeoutMs`, `prices`, …). */
  readonly runner?: Omit<
    RunnerOptions,
    "modelClient" | "onEvent" | "journalDir" | "journalStore" | "onStepEnd"
  >;
  /**
   * Where runs' journals are kept besides their files (a fleet: `redisJournalStore`). Runs write
   * through it, and a run to resume or read back is read from it.
   */
  readonly journalStore?: JournalStoreFactory;
  /**
   * The remote a fleet shares issue branches through (a worker on another machine). Each run
   * pushes the issue's branch there at every step end; the worktree is made or reset from it
   * before each dispatch, and a resumed run continues in it with its interrupted step's tool
   * calls run again (`RunOptions.resumeIn`).
   */
  readonly remote?: string;
  /**
   * With `remote`: where each step end's commit is recorded before the push, so a run resumed
   * from a branch the push never reached runs that step again (`StepCommitLedger`).
   */
  readonly stepCommits?: StepCommitLedger;
  /** Every run's events, tagged with the issue (progress display, logs). */
  readonly onEvent?: (issue: number, event: RunEvent) => void;
  /** gh, for landing work as a pull request (`land: "pull-request"`). */
  readonly gh?: GhClient;
}

function problemText(error: unknown): OrchestratorError {
  if (ClimptError.isInstance(error)) {
    const problems = (
      error as ClimptError & { problems?: readonly { code: string; message: string }[] }
    ).problems;
    const first = problems?.[0];
    return {
      code: error.code,
      ...(error.family === undefined ? {} : { family: error.family }),
      message: first === undefined ? error.message : `${first.code}: ${first.message}`,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    };
  }
  return {
    code: C.dispatchRefused,
    message: error instanceof Error ? error.message : String(error),
  };
}

/** The agent's newest run in `dir` that started at or after `since` (run ids sort by start time). */
function newestRun(dir: string, loaded: LoadedAgent, since: string): string | null {
  if (!existsSync(dir)) return null;
  const ids = readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => name.slice(0, -".jsonl".length))
    .sort()
    .reverse();
  for (const id of ids) {
    // Only the run_start matters here: a journal with an unreadable line elsewhere still names
    // its run, and one that cannot be read at all names none.
    let events: RunEvent[];
    try {
      events = inspectJournal(path.join(dir, `${id}.jsonl`)).events;
    } catch {
      continue;
    }
    const start = events.find((event) => event.type === "run_start");
    if (start?.type === "run_start" && start.agent === loaded.agent.name && start.time >= since)
      return id;
  }
  return null;
}

/**
 * Runs a phase's agent as a climpt run (`StepFlowRunner`) in the issue's own worktree and branch,
 * with `--issue N` when the agent declares an `issue` parameter. A crashed run is resumed from
 * its journal (completed model calls served from it, not repeated); a run whose journal already
 * ends is read back, not run again.
 */
export class RunnerDispatcher implements Dispatcher {
  readonly #options: RunnerDispatcherOptions;
  #client: ModelClient | undefined;
  #startingBranch: Promise<string | null> | undefined;

  constructor(options: RunnerDispatcherOptions) {
    this.#options = options;
  }

  /**
   * The branch the repository had checked out when this dispatcher first ran something: where
   * `land: "merge"` puts the work, as `climpt run --worktree` merges into the branch it started
   * from (read once, so a later checkout in the repository does not redirect the work).
   */
  #baseBranch(): Promise<string | null> {
    this.#startingBranch ??= checkedOutBranch(this.#options.repoDir);
    return this.#startingBranch;
  }

  /**
   * Lands a successful run's work: by default merged into the starting branch, or — for a fleet
   * (`remote`), whose workers do not share a checkout — pushed to the remote; a workflow's or the
   * command line's `land` picks `pull-request` (pushed, with a pull request closing the issue).
   */
  land(request: LandRequest): ReturnType<NonNullable<Dispatcher["land"]>> {
    const remote = this.#options.remote;
    return landWork(
      {
        repoDir: this.#options.repoDir,
        startingBranch: () => this.#baseBranch(),
        defaultMode: remote === undefined ? "merge" : "push",
        defaultRemote: remote ?? "origin",
        ...(this.#options.gh === undefined ? {} : { gh: this.#options.gh }),
      },
      request,
    );
  }

  /**
   * The model client every run shares, made on first use (a dry run or a label sync never needs
   * one, and the SDK refuses to start without credentials).
   */
  #modelClient(): ModelClient | undefined {
    const options = this.#options;
    if (this.#client !== undefined || options.limiter === undefined)
      return this.#client ?? options.modelClient;
    const inner =
      options.modelClient ??
      createAnthropicClient({
        maxRetries: 0,
        ...(options.runner?.callTimeoutMs === undefined
          ? {}
          : { timeoutMs: options.runner.callTimeoutMs }),
        ...(options.runner?.prices === undefined ? {} : { prices: options.runner.prices }),
      });
    this.#client = limitModelClient(inner, options.limiter, options.limiterOptions);
    return this.#client;
  }

  async #load(agent: WorkflowAgent): Promise<LoadedAgent | OrchestratorError> {
    const dir = path.join(
      this.#options.agentDir ?? path.join(this.#options.repoDir, ".agent"),
      agent.directory,
    );
    try {
      return await loadAgentDefinition(dir);
    } catch (error) {
      const problem = problemText(error);
      return {
        code: C.dispatchAgentInvalid,
        message: `The agent "${agent.id}" (${dir}) does not load: ${problem.code}: ${problem.message}`,
        hint: `Run \`climpt validate ${dir}\` and fix what it lists.`,
      };
    }
  }

  #runner(
    loaded: LoadedAgent,
    issue: number,
    fleet: Pick<RunnerOptions, "journalStore" | "onStepEnd">,
    onEvent?: (event: RunEvent) => void,
  ): StepFlowRunner {
    const modelClient = this.#modelClient();
    return new StepFlowRunner(loaded, {
      ...this.#options.runner,
      ...fleet,
      ...(modelClient === undefined ? {} : { modelClient }),
      onEvent: (event) => {
        onEvent?.(event);
        this.#options.onEvent?.(issue, event);
      },
    });
  }

  /** The journals of `loaded`'s runs in `cwd`, as the runs write them. */
  #journals(cwd: string, loaded: LoadedAgent): JournalStore {
    const files = fileJournalStore({
      cwd,
      agent: loaded.agent,
      fsync: this.#options.runner?.fsync ?? true,
    });
    const factory = this.#options.journalStore;
    return factory === undefined ? files : factory({ cwd, agent: loaded.agent, files });
  }

  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    void this.#baseBranch();
    const loaded = await this.#load(request.agent);
    // An agent that does not load never will: a failed run, not an interruption.
    if ("code" in loaded) return setupFailure(loaded, null, { interrupted: false });
    const remote = this.#options.remote;
    let worktree: IssueWorktree;
    try {
      worktree = await ensureIssueWorktree({
        repoDir: this.#options.repoDir,
        issue: request.issue.number,
        ...(this.#options.worktreeRoot === undefined ? {} : { root: this.#options.worktreeRoot }),
        ...(remote === undefined ? {} : { remote }),
      });
    } catch (error) {
      return setupFailure(problemText(error));
    }
    const cwd = worktree.path;
    let runId: string | null = null;
    if (request.resume !== undefined) {
      runId =
        request.resume.runId ??
        newestRun(journalDirectory({ cwd, agent: loaded.agent }), loaded, request.resume.startedAt);
    }
    if (runId !== null) {
      // A run whose journal ends with an outcome of the agent's (success, or a failure such as a
      // refused validation) is over: read its result back instead of running anything; its
      // boundary hook may have acted. A run that ended interrupted (a signal, the model API
      // failing) is continued.
      const file = journalPath({ cwd, agent: loaded.agent, runId });
      let events: RunEvent[];
      try {
        events =
          this.#options.journalStore !== undefined || existsSync(file)
            ? await this.#journals(cwd, loaded).read(runId)
            : [];
      } catch (error) {
        // Nowhere to be found (the run had not started writing): it starts afresh below.
        if (ClimptError.isInstance(error) && error.code === "RUN-JOURNAL-001") events = [];
        else return setupFailure({ ...problemText(error), code: C.dispatchJournal }, runId);
      }
      const end = events.findLast((event) => event.type === "run_end");
      if (end?.type === "run_end" && !isInterruption(end.result.error)) {
        return outcomeOfRun(end.result, events, worktree.branch);
      }
      if (events.length === 0) runId = null;
      else if (remote !== undefined) {
        try {
          await this.#rewindToBranch(loaded, runId, events, cwd);
        } catch (error) {
          return setupFailure({ ...problemText(error), code: C.dispatchJournal }, runId);
        }
      }
    }
    try {
      await writeArtifacts(cwd, request.artifacts ?? []);
    } catch (error) {
      return setupFailure(
        {
          code: C.handoffWrite,
          message: `An artifact of issue #${request.issue.number} cannot be written into ${cwd}: ${(error as Error).message}`,
        },
        runId,
        { interrupted: false },
      );
    }
    const args = argumentsOf(loaded, request);
    const runner = this.#runner(
      loaded,
      request.issue.number,
      {
        ...(this.#options.journalStore === undefined
          ? {}
          : { journalStore: this.#options.journalStore }),
        ...(remote === undefined
          ? {}
          : {
              onStepEnd: async (step) => {
                // A run whose issue lock was lost pushes nothing: the branch on the remote is
                // the new holder's now.
                if (!((await request.holds?.()) ?? true))
                  throw lockLostError(request.issue.number, "before the push of its branch");
                // The commit first, the push second: a resume that finds the branch short of
                // the recorded commit knows the push never happened (#rewindToBranch).
                await this.#options.stepCommits?.record(
                  loaded.agent.name,
                  step.runId,
                  step.iteration,
                  await worktreeHead(step.cwd, this.#options.repoDir),
                );
                // Its snapshots go with it: a fork of the run on another clone starts from them.
                await pushIssueBranch(step.cwd, remote, worktree.branch, this.#options.repoDir, [
                  runSnapshotRefspec(step.runId),
                ]);
              },
            }),
      },
      (event) => {
        if (event.type === "run_start") {
          request.onRunStarted?.({
            runId: event.runId,
            journalPath: journalPath({ cwd, agent: loaded.agent, runId: event.runId }),
            worktree: cwd,
          });
        }
      },
    );
    let result: RunResult;
    try {
      result = await runner.run({
        cwd,
        worktree: false,
        ...(runId === null
          ? { args }
          : { resume: runId, ...(remote === undefined ? {} : { resumeIn: cwd }) }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
    } catch (error) {
      // The runner refused the run for its arguments or its definition (problems listed): it
      // never starts as it is, so it failed. Anything else may pass: the issue keeps its phase.
      const refused = Array.isArray((error as { problems?: unknown }).problems);
      return setupFailure(problemText(error), runId, { interrupted: !refused });
    }
    // The result carries the final output: the journal (in the issue's worktree, where the run's
    // commands could write) is not read again to learn how the run ended.
    return outcomeOfRun(result, [], worktree.branch);
  }

  /**
   * Before a run is resumed in a worktree made from the fleet's remote: when the worktree's HEAD
   * is not the commit recorded for the journal's last step end (the worker was killed between
   * that step end and its push, or the push failed), the journal is rewound to before that
   * `step_end`, so the step runs again here — its recorded model replies served, its tool calls
   * run again — instead of the run going on without the step's file changes. A final step end
   * needs nothing: resume runs the last step again anyway.
   */
  async #rewindToBranch(
    loaded: LoadedAgent,
    runId: string,
    events: readonly RunEvent[],
    cwd: string,
  ): Promise<void> {
    const ledger = this.#options.stepCommits;
    if (ledger === undefined) return;
    const last = events.findLast((event) => event.type === "step_end" && event.final !== true);
    if (last?.type !== "step_end") return;
    const recorded = await ledger.commitOf(loaded.agent.name, runId, last.iteration);
    if (recorded !== null && recorded === (await worktreeHead(cwd, this.#options.repoDir))) return;
    await ledger.rewind(loaded.agent.name, runId, last.seq);
  }

  /**
   * Runs the prioritizer in the repository checkout (it only reads issues and answers with an
   * order), with `--issues "3,5,8"` when the agent declares an `issues` parameter.
   */
  async prioritize(request: PrioritizeRequest): Promise<PrioritizeOutcome> {
    const loaded = await this.#load(request.agent);
    if ("code" in loaded) return { success: false, output: null, error: loaded, runId: null };
    const args: Record<string, JsonValue> = {};
    if (loaded.agent.parameters.issues !== undefined) {
      args.issues = request.issues.map((issue) => issue.number).join(",");
    }
    try {
      const result = await this.#runner(loaded, 0, {}).run({
        cwd: this.#options.repoDir,
        worktree: false,
        args,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      return {
        success: result.success,
        output: result.output ?? null,
        error:
          result.error === undefined
            ? null
            : {
                code: result.error.code,
                ...(result.error.family === undefined ? {} : { family: result.error.family }),
                message: result.error.message,
              },
        runId: result.runId,
      };
    } catch (error) {
      return { success: false, output: null, error: problemText(error), runId: null };
    }
  }
}
