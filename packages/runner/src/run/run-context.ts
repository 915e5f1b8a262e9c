import {
  createAgentPromptSource,
  type PromptSource,
  resolveSystemPrompt,
} from "@climpt/c3l-resolver";
import {
  type CommandRunner,
  createExecaCommandRunner,
  createVerdictStrategy,
  type VerdictStrategy,
} from "@climpt/completion-chain";
import {
  type AgentDefinition,
  type JsonValue,
  type LoadedAgent,
  problem,
  type Registry,
  resolveRunIterationCap,
  type WorktreeFinish,
} from "@climpt/model";
import type { RunBaseline } from "@climpt/protocol";
import { createRouter, type Router } from "@climpt/router";
import {
  type GitPushSetting,
  type McpServers,
  type ProtectedPath,
  type RunRepository,
  resolveGitPushTarget,
  resolveRunRepository,
  resolveToolPolicy,
} from "@climpt/tools";
import { RUNNER_CODES } from "../codes.ts";
import type { RunGit } from "../git/run-git.ts";
import { workGitOf } from "../git/work-state.ts";
import type { JournalSink } from "../journal/journal-sink.ts";
import { createMessagesStepExecutor } from "../messages-step-executor.ts";
import type { RunEvent } from "../run-event.ts";
import { RunEventStream } from "../run-events.ts";
import type { RunError, RunUsage } from "../run-result.ts";
import { AgentDefinitionError } from "../runner-error.ts";
import type { StepExecutor } from "../step-executor.ts";
import type { RunWorktree } from "../worktree/worktree.ts";
import { resolveWorktreeFinish } from "../worktree/worktree-finish.ts";
import { runModelClient } from "./model-client.ts";
import { runMcpServers } from "./run-mcp.ts";
import {
  type RunBudgets,
  type RunnerOptions,
  type RunOptions,
  resumeCommandOf,
} from "./run-options.ts";
import { runProtectedPaths } from "./run-protected-paths.ts";
import { runScrubber } from "./run-secrets.ts";
import type { RunStop } from "./run-stop.ts";
import { StepChanges } from "./step-changes.ts";
import type { RunTelemetry } from "./telemetry.ts";
import { UsageMeter } from "./usage-meter.ts";

/**
 * Everything a run's phases read, built once by setup (a new run or a resumed one) and never
 * changed: the agent, the router holding the iteration cap, the model executor, the verdict,
 * the event stream. What changes during the run lives elsewhere: the run state (folded from
 * step ends), the usage meter and the stop switch, each an object of its own.
 */
export interface RunContext {
  readonly loaded: LoadedAgent;
  readonly agent: AgentDefinition;
  readonly registry: Registry;
  readonly runId: string;
  readonly args: Readonly<Record<string, JsonValue>>;
  /** Where the agent works (the worktree in worktree mode). */
  readonly cwd: string;
  /** The folder the run was started from; the journal lives there. */
  readonly originCwd: string;
  readonly worktree: RunWorktree | null;
  /** What a successful run does with its worktree's branch (agent.json, then the run's options). */
  readonly worktreeFinish: WorktreeFinish;
  /** A resumed run (its journal held events before this session). */
  readonly resumed: boolean;
  readonly modelOverride: string | undefined;
  /** The router for this registry and this run's iteration cap (`router.iterationCap`). */
  readonly router: Router;
  readonly system: string;
  readonly promptSource: PromptSource;
  readonly executor: StepExecutor;
  readonly verdict: VerdictStrategy;
  /** Runs gh and hook commands for the verdict (poll:state) and the boundary hook. */
  readonly commandRunner: CommandRunner;
  readonly journalPath: string | null;
  readonly events: RunEventStream;
  readonly usage: UsageMeter;
  readonly signal: AbortSignal;
  /** The stop as the run's error, once the caller's signal or the wall-clock budget fired. */
  stopped(): RunError | undefined;
  readonly budgets: RunBudgets | undefined;
  /**
   * The bounds of each model call's waits: the run's options over agent.json's limits;
   * undefined leaves the model client's default (docs/design.md#waits).
   */
  readonly modelWaits: {
    readonly connectTimeoutMs: number | undefined;
    readonly streamIdleTimeoutMs: number | undefined;
  };
  readonly ghCommand: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * What `git push` inside the sandbox may push in this run, read before its first step (the
   * repository's git directories, the run's branch, the protected branches), or why nothing.
   */
  readonly gitPush: GitPushSetting;
  /**
   * The run's GitHub repository, read before its first step from its working directory's root
   * (`resolveRunRepository`): every gh call of the run that names no repository acts there — the
   * broker's, the GitHub tools', the boundary hook's. Undefined when the run cannot reach GitHub
   * (no Bash, no GitHub tool, integration off).
   */
  readonly githubRepository: RunRepository | undefined;
  /**
   * What no tool of the run may change: the journal folder and, unless the agent declares
   * `editAgents`, the agent definitions (run-protected-paths.ts).
   */
  readonly protectedPaths: readonly ProtectedPath[];
  /**
   * The agent's MCP servers for this run session (run-mcp.ts): started by the first step that
   * may use them, stopped when the run ends; on `--replay`, the cassette's recording. Undefined
   * when the agent declares none.
   */
  readonly mcp: McpServers | undefined;
  readonly onTextDelta: RunOptions["onTextDelta"];
  /** The command that continues this run, for hints (`RunnerOptions.resumeCommand`). */
  readonly resumeCommand: string;
  /** The git metadata recorded at the run's start (null outside a repository): run-git.ts. */
  readonly git: RunGit | null;
  /** What failures are compared with, recorded at the run's start (git/run-baseline.ts). */
  readonly baseline: RunBaseline;
  /** The snapshots behind each step's `step_changes`; its `git` reads the ledger's commit. */
  readonly changes: StepChanges;
}

/** What setup is given: the session's inputs and its stop switch. */
export interface SessionInputs {
  readonly loaded: LoadedAgent;
  readonly runnerOptions: RunnerOptions;
  readonly runOptions: RunOptions;
  readonly listeners: ReadonlySet<(event: RunEvent) => void>;
  readonly telemetry: RunTelemetry;
  readonly stop: RunStop;
}

/** What a new run and a resumed one establish before the common part of setup. */
export interface RunIdentity {
  readonly runId: string;
  readonly args: Readonly<Record<string, JsonValue>>;
  readonly cwd: string;
  readonly originCwd: string;
  readonly worktree: RunWorktree | null;
  readonly modelOverride: string | undefined;
  /** Undefined: the router's default (100). */
  readonly iterationCap: number | undefined;
  /** Where the journal is, and how to open it for writing (null: the run keeps none). */
  readonly journal: { readonly path: string | null; readonly open: (() => JournalSink) | null };
  /** The last `seq` and usage totals the journal holds (a resumed run continues from them). */
  readonly lastSeq: number;
  readonly totals?: RunUsage;
  /** The git metadata the run recorded at its start (run-git.ts). */
  readonly git: RunGit | null;
  /** The base failures are compared with, as recorded at the start (git/run-baseline.ts). */
  readonly baseline: RunBaseline;
}

function stoppedError(inputs: SessionInputs, runId: string): RunError | undefined {
  const resume = resumeCommandOf(inputs.runnerOptions, runId);
  switch (inputs.stop.reason) {
    case "signal":
      return problem(
        RUNNER_CODES.interrupted,
        "The run was interrupted (signal). Its journal is complete up to the last finished step.",
        { hint: `Continue it with \`${resume}\`.` },
      );
    case "wallclock":
      return problem(
        RUNNER_CODES.budgetExceeded,
        `The wall-clock budget of ${inputs.runOptions.budgets?.maxWallClockMs} ms ran out.`,
        { hint: `Continue with a larger budget: \`${resume} --max-time <duration>\`.` },
      );
    default:
      return undefined;
  }
}

/** The part of setup a new run and a resumed one share. */
export async function buildRunContext(
  inputs: SessionInputs,
  identity: RunIdentity,
): Promise<RunContext> {
  const { loaded, runnerOptions, runOptions } = inputs;
  const { agent, registry } = loaded;
  const router = createRouter(registry, {
    iterationCap: identity.iterationCap,
    verdictType: agent.verdict.type,
  });
  const promptSource = createAgentPromptSource(loaded.dir, registry);
  const system = await resolveSystemPrompt(loaded.dir, agent.systemPromptPath);
  if (!system.ok) throw new AgentDefinitionError(system.issues);
  const scrubber = runScrubber(runnerOptions, agent, registry);
  const executor =
    runnerOptions.stepExecutor ??
    createMessagesStepExecutor(runModelClient(runnerOptions, runOptions, scrubber));
  // One way to run gh and hook commands, for the verdict (poll:state) and the boundary hook.
  const base = createExecaCommandRunner(
    runnerOptions.env === undefined ? {} : { env: { ...process.env, ...runnerOptions.env } },
  );
  const gh = runnerOptions.ghCommand;
  const commandRunner: CommandRunner =
    gh === undefined
      ? base
      : (command, args, options) => base(command === "gh" ? gh : command, args, options);
  const verdict = await createVerdictStrategy(agent.verdict, {
    agentDir: loaded.dir,
    params: identity.args,
    cwd: identity.cwd,
    agent,
    commandRunner,
  });
  // Both before the first step, at once: neither may depend on what the model does later.
  const [gitPush, githubRepository] = await Promise.all([
    runGitPush(inputs, identity),
    runGithubRepository(inputs, identity),
  ]);
  const { runId } = identity;
  // Opened last: a run whose setup fails leaves no journal behind.
  const sink = identity.journal.open?.() ?? null;
  const protectedPaths = runProtectedPaths({
    cwd: identity.cwd,
    journalPath: identity.journal.path,
    agentDir: loaded.dir,
    agent,
  });
  const events = new RunEventStream(
    runId,
    sink,
    inputs.telemetry,
    inputs.listeners,
    identity.lastSeq,
    scrubber,
  );
  const mcp = runMcpServers({
    loaded,
    runnerOptions,
    runOptions,
    cwd: identity.cwd,
    scrubber,
    protectedPaths,
    onNotice: (notice) =>
      events.emit({
        type: "notice",
        level: "warning",
        message: `${notice.code}: ${notice.message}`,
      }),
  });
  return {
    loaded,
    agent,
    registry,
    runId,
    args: identity.args,
    cwd: identity.cwd,
    originCwd: identity.originCwd,
    worktree: identity.worktree,
    worktreeFinish: resolveWorktreeFinish(agent, runOptions.worktreeOptions),
    resumed: identity.lastSeq > 0,
    modelOverride: identity.modelOverride,
    router,
    system: system.value.text,
    promptSource,
    executor,
    verdict,
    commandRunner,
    journalPath: identity.journal.path,
    events,
    usage: new UsageMeter(identity.totals),
    changes: new StepChanges(
      identity.git === null ? null : workGitOf(identity.cwd, runnerOptions.env, identity.originCwd),
    ),
    signal: inputs.stop.signal,
    stopped: () => stoppedError(inputs, runId),
    budgets: runOptions.budgets,
    modelWaits: {
      connectTimeoutMs:
        runOptions.connectTimeoutMs ??
        runnerOptions.connectTimeoutMs ??
        loaded.agent.limits.connectTimeoutMs,
      streamIdleTimeoutMs:
        runOptions.streamIdleTimeoutMs ??
        runnerOptions.streamIdleTimeoutMs ??
        loaded.agent.limits.streamIdleTimeoutMs,
    },
    ghCommand: runnerOptions.ghCommand,
    env: runnerOptions.env,
    gitPush,
    githubRepository,
    protectedPaths,
    mcp,
    onTextDelta: runOptions.onTextDelta,
    resumeCommand: resumeCommandOf(runnerOptions, runId),
    git: identity.git,
    baseline: identity.baseline,
  };
}

/**
 * The run's push target (docs/design.md#tools-and-their-boundary): the worktree's branch in
 * worktree mode with its base branch protected, else the branch checked out now (a resumed run:
 * now, at resume); the branches agent.json declares; nothing when it says `"off"`.
 */
async function runGitPush(inputs: SessionInputs, identity: RunIdentity): Promise<GitPushSetting> {
  const { agent } = inputs.loaded;
  if (agent.push?.enabled === false) {
    return {
      refused:
        'git push is off for this agent (agent.json runner.boundaries.push is "off"): its work leaves the sandbox through the run\'s finish, not a push.',
    };
  }
  const env = hostEnv(inputs);
  const worktree = identity.worktree;
  return resolveGitPushTarget({
    cwd: identity.cwd,
    ...(worktree === null
      ? {}
      : { runBranch: worktree.branch, baseBranch: worktree.baseBranch ?? null }),
    branches: agent.push?.branches ?? [],
    env,
  });
}

/** The caller's environment with the runner's overrides: what the host's git and gh run with. */
function hostEnv(inputs: SessionInputs): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...inputs.runnerOptions.env })) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * The run's GitHub repository (docs/design.md#the-boundary-hook), asked of gh at the working
 * directory's root before the model acts — in worktree mode the worktree, whose remotes are the
 * repository's; a resumed run asks again at resume. Not asked when nothing in the run can reach
 * GitHub: no step with Bash or a GitHub tool, and GitHub integration off.
 */
async function runGithubRepository(
  inputs: SessionInputs,
  identity: RunIdentity,
): Promise<RunRepository | undefined> {
  const { agent, registry } = inputs.loaded;
  const reaches =
    agent.github.enabled ||
    Object.values(registry.steps).some((step) =>
      resolveToolPolicy(agent, step).tools.some(
        (tool) => tool === "Bash" || tool.startsWith("github_"),
      ),
    );
  if (!reaches) return undefined;
  return resolveRunRepository({
    ghCommand: inputs.runnerOptions.ghCommand ?? "gh",
    env: hostEnv(inputs),
    cwd: identity.cwd,
    signal: inputs.stop.signal,
  });
}

/**
 * The run-wide cap: the run's option, else the journal's (resume keeps the cap it started with),
 * else `resolveRunIterationCap` (limits, the verdict's maxIterations, the dialect's default;
 * docs/design.md#limits-and-budgets). An option that is not a positive integer is passed on so
 * the router refuses it (AGENT_MAX_ITERATIONS) instead of it silently falling back.
 */
export function resolveRunCap(inputs: SessionInputs, fromJournal?: number): number {
  const given = inputs.runOptions.maxIterations ?? fromJournal;
  if (given !== undefined) return given;
  return resolveRunIterationCap(inputs.loaded.agent, inputs.loaded.registry).cap;
}
