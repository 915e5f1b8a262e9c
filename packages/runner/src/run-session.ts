import { existsSync, statSync } from "node:fs";
import path from "node:path";
import {
  createAgentPromptSource,
  type PromptSource,
  resolveStepPrompt,
  resolveSystemPrompt,
  type StepPrompt,
} from "@climpt/c3l-resolver";
import {
  type BoundaryHookResult,
  type ChainEvent,
  type CommandRunner,
  createExecaCommandRunner,
  createVerdictStrategy,
  runBoundaryHook,
  runCompletionChain,
  type VerdictStrategy,
} from "@climpt/completion-chain";
import { extractHandoff, interpretGate, interpretStepCheck } from "@climpt/gate-interpreter";
import {
  ClimptError,
  DEFAULT_RUN_ITERATION_CAP,
  formatProblem,
  type JsonValue,
  type LoadedAgent,
  type Problem,
  type Result,
  type Step,
} from "@climpt/model";
import { resolveEntryStep } from "@climpt/registry-schema";
import {
  beforeCheck,
  createRouterState,
  type RouteDecision,
  type RouterState,
  returnAfterFailedValidation,
  route,
  routeCheck,
} from "@climpt/router";
import {
  type ModelClient,
  modelId,
  resolveModel,
  runStep,
  StepError,
  type StepEvent,
  type StepResult,
  type ToolExecutor,
  type ToolResult,
} from "@climpt/sdk-adapter";
import { createToolbox, type Toolbox } from "@climpt/tools";
import { CHECK_OUTPUT_SCHEMA, stepOutputSchema } from "./check-schemas.ts";
import { endJournalAtLineBoundary, JournalWriter, journalPath, readJournal } from "./journal.ts";
import { JournalModelReplay, JournalToolReplay, type RecordedReply } from "./journal-replay.ts";
import { runModelClient } from "./model-client.ts";
import type { RunEvent, RunEventInput, RunStartEvent, StepEndEvent } from "./run-event.ts";
import { newRunId } from "./run-id.ts";
import type { RunnerOptions, RunOptions } from "./run-options.ts";
import type { BoundaryReport, HistoryEntry, RunError, RunResult, RunUsage } from "./run-result.ts";
import { applyStepEnd, initialRunState, type RunState, ZERO_TOTALS } from "./run-state.ts";
import { AgentDefinitionError, RunnerError } from "./runner-error.ts";
import { RunTelemetry } from "./telemetry.ts";
import { validateArgs } from "./validate-args.ts";
import { createRunWorktree, type RunWorktree, removeRunWorktree } from "./worktree.ts";

type Phase = "step" | "check";

/** Errors whose journal can continue mid-step: nothing the model said caused them. */
function continuesMidStep(code: string | undefined): boolean {
  return (
    code === undefined ||
    code === "AGENT_INTERRUPTED" ||
    code === "AGENT_BUDGET_EXCEEDED" ||
    code.startsWith("AC-MODEL-")
  );
}

/** What resume serves from the journal for the step that was interrupted. */
interface MidStepReplay {
  readonly stepId: string;
  readonly iteration: number;
  readonly replies: Readonly<Record<Phase, RecordedReply[]>>;
  /** Per phase, tool_use id → its recorded results in order (an id may come back). */
  readonly toolResults: Readonly<Record<Phase, ReadonlyMap<string, readonly ToolResult[]>>>;
}

/**
 * What the journal recorded of the step that was running when the run stopped: the events after
 * its last step_end. Replies and tool results a resumed session served from the journal are
 * marked `replayed` and skipped (the original record is already collected), a tool result cut off
 * by the stop is skipped (the tool runs again), and an attempt that ended on what the model said
 * is dropped (the step runs again live): see `continuesMidStep`.
 */
function recordedMidStep(events: readonly RunEvent[]): Omit<MidStepReplay, "stepId" | "iteration"> {
  let replies: Record<Phase, RecordedReply[]> = { step: [], check: [] };
  let toolResults: Record<Phase, Map<string, ToolResult[]>> = { step: new Map(), check: new Map() };
  let phase: Phase = "step";
  for (const event of events) {
    switch (event.type) {
      case "step_start":
        phase = event.phase;
        break;
      case "model_response":
        phase = event.phase;
        if (event.replayed === true) break;
        replies[event.phase].push({
          content: event.content,
          usage: event.usage,
          costUsd: event.costUsd,
          stopReason: event.stopReason,
          model: event.model,
          requestId: event.requestId,
        });
        break;
      case "tool_result": {
        if (event.replayed === true || event.interrupted === true) break;
        const queue = toolResults[phase].get(event.call.id);
        if (queue === undefined) toolResults[phase].set(event.call.id, [event.result]);
        else queue.push(event.result);
        break;
      }
      case "run_end":
        if (!continuesMidStep(event.result.error?.code)) {
          replies = { step: [], check: [] };
          toolResults = { step: new Map(), check: new Map() };
        }
        break;
      default:
        break;
    }
  }
  return { replies, toolResults };
}

/** The run's usage as last recorded: every call made so far, including a failed attempt's. */
function recordedTotals(events: readonly RunEvent[]): RunUsage {
  let totals: RunUsage = ZERO_TOTALS;
  for (const event of events) {
    if (event.type === "step_end" || event.type === "model_response") totals = event.totals;
    else if (event.type === "run_end") totals = event.result.usage;
  }
  return totals;
}

/** "git-clean failed (exit 0)": the first failed validator, for the verdict event. */
function failedValidatorText(
  results: readonly { id: string; passed: boolean; exitCode: number | null; timedOut: boolean }[],
): string {
  const failed = results.find((result) => !result.passed);
  if (failed === undefined) return "validation failed";
  const how = failed.timedOut ? "timed out" : `exit ${failed.exitCode ?? "none"}`;
  return `validator ${failed.id} failed (${how})`;
}

/** What a finished step hands to routing and to the completion chain. */
interface StepContext {
  readonly intent: string | null;
  readonly output: JsonValue;
  readonly handoff: Readonly<Record<string, JsonValue>>;
  readonly handoffPaths: Readonly<Record<string, JsonValue>>;
  readonly toolbox: Toolbox;
  readonly text: string;
  readonly checkResult: { readonly passed: boolean; readonly message: string } | null;
}

/** The part of a step's context its `step_end` records. */
function recordedFields(context: StepContext) {
  return {
    intent: context.intent,
    output: context.output,
    handoff: context.handoff,
    handoffPaths: context.handoffPaths,
    checkResult: context.checkResult,
  };
}

/** How one step phase ended when it produced no usable output. */
type PhaseFailure =
  | { readonly kind: "schema"; readonly error: RunError }
  | { readonly kind: "fatal"; readonly error: RunError };

interface PhaseOutcome {
  readonly result?: StepResult;
  readonly failure?: PhaseFailure;
  readonly toolbox: Toolbox;
}

function errorOf(error: unknown, fallbackCode: string): RunError {
  if (ClimptError.isInstance(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.file === undefined ? {} : { file: error.file }),
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    };
  }
  return { code: fallbackCode, message: error instanceof Error ? error.message : String(error) };
}

function problemError(problems: readonly Problem[], fallbackCode?: string): RunError {
  const first = problems[0];
  // The first problem's code, file, path and hint are the error's own fields; further problems
  // (rare: a prompt with several missing variables) are appended whole so none is lost.
  const rest = problems.slice(1).map((problem) => formatProblem(problem));
  // A problem with a run-level family (the gate's) fails the run with the family; its specific
  // code leads the message as a clause ("SR-INTENT-007: step …"), as the run result has a single
  // code field.
  const message =
    first?.family === undefined
      ? first?.message
      : `${first.code}: ${first.message.charAt(0).toLowerCase()}${first.message.slice(1)}`;
  return {
    code: fallbackCode ?? first?.family ?? first?.code ?? "FAILED_STEP_ROUTING",
    message: [message ?? "The step could not be routed.", ...rest].join("\n"),
    ...(first?.file === undefined ? {} : { file: first.file }),
    ...(first?.path === undefined ? {} : { path: first.path }),
    ...(first?.hint === undefined ? {} : { hint: first.hint }),
  };
}

function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

function addTotals(totals: RunUsage, result: Pick<StepResult, "usage" | "costUsd">): RunUsage {
  return {
    inputTokens: totals.inputTokens + result.usage.inputTokens,
    outputTokens: totals.outputTokens + result.usage.outputTokens,
    cacheReadInputTokens: totals.cacheReadInputTokens + result.usage.cacheReadInputTokens,
    cacheCreationInputTokens:
      totals.cacheCreationInputTokens + result.usage.cacheCreationInputTokens,
    costUsd: totals.costUsd + result.costUsd,
  };
}

/**
 * One run of an agent: the flow loop, the completion loop, the journal, budgets and resume.
 * `StepFlowRunner#run` creates one per call.
 */
export class RunSession {
  private seq = 0;
  private journal: JournalWriter | undefined;
  private readonly telemetry = new RunTelemetry();
  private readonly controller = new AbortController();
  private stopReason: "signal" | "wallclock" | undefined;
  private wallClockTimer: NodeJS.Timeout | undefined;
  private readonly startedAt = Date.now();
  private state!: RunState;
  private runId = "";
  private cwd = "";
  private originCwd = "";
  private args: Record<string, JsonValue> = {};
  private iterationCap = DEFAULT_RUN_ITERATION_CAP;
  private modelOverride: string | undefined;
  private worktree: RunWorktree | null = null;
  private client!: ModelClient;
  private verdict!: VerdictStrategy;
  private system = "";
  private promptSource!: PromptSource;
  private midStep: MidStepReplay | undefined;
  private boundary: BoundaryReport | undefined;
  private journalFile: string | null = null;
  private boundaryStarted = false;
  private commandRunner!: CommandRunner;
  /** The step whose model ran in this iteration (its prompt resolved) and has no step_end yet. */
  private executedStep: Step | undefined;

  constructor(
    private readonly loaded: LoadedAgent,
    private readonly runnerOptions: RunnerOptions,
    private readonly runOptions: RunOptions,
    private readonly listeners: ReadonlySet<(event: RunEvent) => void>,
  ) {}

  async execute(): Promise<RunResult> {
    const signal = this.runOptions.signal;
    const onAbort = (): void => this.stop("signal");
    if (signal?.aborted) this.stop("signal");
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (this.runOptions.resume === undefined) await this.start();
      else {
        const finished = await this.resume(this.runOptions.resume);
        if (finished !== undefined) return finished;
      }
      const maxWall = this.runOptions.budgets?.maxWallClockMs;
      if (maxWall !== undefined) {
        this.wallClockTimer = setTimeout(() => this.stop("wallclock"), Math.max(0, maxWall));
        this.wallClockTimer.unref();
      }
      try {
        return await this.loop();
      } catch (error) {
        // A package that throws (a bug, a custom verdict or hook) must not leave a journal without
        // its run_end or reject the run: it ends as a coded failure the user can resume.
        return await this.finish({ error: this.stoppedError() ?? this.unexpectedError(error) });
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (this.wallClockTimer !== undefined) clearTimeout(this.wallClockTimer);
      this.journal?.close();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Setup

  private get agent() {
    return this.loaded.agent;
  }

  private get registry() {
    return this.loaded.registry;
  }

  private stop(reason: "signal" | "wallclock"): void {
    if (this.stopReason !== undefined) return;
    this.stopReason = reason;
    this.controller.abort(new Error(reason === "signal" ? "interrupted" : "wall-clock budget"));
  }

  private emit(input: RunEventInput): void {
    this.seq += 1;
    const event = {
      ...input,
      runId: this.runId,
      time: new Date().toISOString(),
      seq: this.seq,
    } as RunEvent;
    this.journal?.append(event);
    this.telemetry.handle(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (a display) must not break the run or its journal.
      }
    }
  }

  private resolveCap(fromJournal?: number): number {
    return (
      this.runOptions.maxIterations ??
      fromJournal ??
      this.agent.limits.maxIterations ??
      DEFAULT_RUN_ITERATION_CAP
    );
  }

  private async commonSetup(): Promise<void> {
    this.promptSource = createAgentPromptSource(this.loaded.dir, this.registry);
    const system = await resolveSystemPrompt(this.loaded.dir, this.agent.systemPromptPath);
    if (!system.ok) throw new AgentDefinitionError(system.issues);
    this.system = system.value.text;
    this.client = runModelClient(this.runnerOptions, this.runOptions);
    // One way to run gh and hook commands, for the verdict (poll:state) and the boundary hook.
    const base = createExecaCommandRunner(
      this.runnerOptions.env === undefined
        ? {}
        : { env: { ...process.env, ...this.runnerOptions.env } },
    );
    const gh = this.runnerOptions.ghCommand;
    this.commandRunner =
      gh === undefined
        ? base
        : (command, args, options) => base(command === "gh" ? gh : command, args, options);
    this.verdict = await createVerdictStrategy(this.agent.verdict, {
      agentDir: this.loaded.dir,
      params: this.args,
      cwd: this.cwd,
      agent: this.agent,
      commandRunner: this.commandRunner,
    });
  }

  private openJournal(cwdForLogs: string): void {
    if (this.runnerOptions.journalDir === false) return;
    this.journalFile = journalPath({
      cwd: cwdForLogs,
      agent: this.agent,
      runId: this.runId,
      ...(this.runnerOptions.journalDir === undefined
        ? {}
        : { journalDir: this.runnerOptions.journalDir }),
    });
    this.journal = new JournalWriter(this.journalFile, this.runnerOptions.fsync ?? true);
  }

  private async start(): Promise<void> {
    this.originCwd = path.resolve(this.runOptions.cwd ?? process.cwd());
    // Checked before anything is written: the journal's folder would otherwise create it.
    if (!existsSync(this.originCwd) || !statSync(this.originCwd).isDirectory()) {
      throw new RunnerError({
        code: "RUN-CWD-001",
        message: `The working directory ${this.originCwd} does not exist or is not a folder.`,
        hint: "Pass --cwd (RunOptions.cwd) an existing folder: the repository the agent works on.",
      });
    }
    const args = validateArgs(this.agent, this.runOptions.args ?? {});
    if (!args.ok) throw new AgentDefinitionError(args.issues);
    this.args = args.value;
    const entry = resolveEntryStep(this.registry, this.agent.verdict.type);
    if (!entry.ok) throw new AgentDefinitionError(entry.issues);
    this.iterationCap = this.resolveCap();
    this.modelOverride = this.runOptions.model;
    this.runId = newRunId();
    this.cwd = this.originCwd;
    if (this.runOptions.worktree ?? this.agent.worktree.enabled) {
      this.worktree = await createRunWorktree({
        repoDir: this.originCwd,
        ...(this.agent.worktree.root === undefined ? {} : { root: this.agent.worktree.root }),
        agentName: this.agent.name,
        runId: this.runId,
      });
      this.cwd = this.worktree.path;
    }
    await this.commonSetup();
    this.state = initialRunState(createRouterState(this.registry, entry.value));
    // The journal lives with the repository the run was started from, not in the worktree,
    // which is removed after a successful run.
    this.openJournal(this.originCwd);
    this.emit({
      type: "run_start",
      agent: this.agent.name,
      agentDir: this.loaded.dir,
      cwd: this.cwd,
      originCwd: this.originCwd,
      args: this.args,
      entryStepId: entry.value,
      dialect: this.registry.dialect,
      verdictType: this.agent.verdict.type,
      registryVersion: this.registry.version,
      modelOverride: this.modelOverride ?? null,
      iterationCap: this.iterationCap,
      worktree: this.worktree,
    });
  }

  /**
   * Continues a run from its journal. The state is the fold of its `step_end` events; the step
   * that was running when it stopped starts again, with the model replies and tool results the
   * journal holds for it served from the journal, so no completed model call is repeated.
   * Returns the stored result when the run already completed.
   */
  private async resume(runId: string): Promise<RunResult | undefined> {
    const originCwd = path.resolve(this.runOptions.cwd ?? process.cwd());
    const file = journalPath({
      cwd: originCwd,
      agent: this.agent,
      runId,
      ...(typeof this.runnerOptions.journalDir === "string"
        ? { journalDir: this.runnerOptions.journalDir }
        : {}),
    });
    const events = readJournal(file);
    const start = events.find((event): event is RunStartEvent => event.type === "run_start");
    if (start === undefined) {
      throw new RunnerError({
        code: "RUN-RESUME-001",
        message: `The journal ${file} has no run_start event, so there is nothing to resume.`,
        file,
        hint: "Start a new run instead.",
      });
    }
    let lastEnd: RunResult | undefined;
    for (const event of events) if (event.type === "run_end") lastEnd = event.result;
    if (lastEnd?.success) return lastEnd;

    this.runId = runId;
    this.seq = events.reduce((max, event) => Math.max(max, event.seq), 0);
    this.originCwd = start.originCwd;
    this.cwd = start.cwd;
    this.args = { ...start.args };
    this.modelOverride = this.runOptions.model ?? start.modelOverride ?? undefined;
    this.iterationCap = this.resolveCap(start.iterationCap);
    this.worktree = start.worktree;
    if (this.worktree !== null && !existsSync(this.worktree.path)) {
      throw new RunnerError({
        code: "RUN-RESUME-002",
        message: `The run's worktree ${this.worktree.path} no longer exists.`,
        hint: `Recreate it with \`git worktree add ${this.worktree.path} ${this.worktree.branch}\`, or start a new run.`,
      });
    }
    await this.commonSetup();

    let state = initialRunState(createRouterState(this.registry, start.entryStepId));
    let lastEndIndex = -1;
    events.forEach((event, index) => {
      // A failed run's last step_end records the failing step; resume runs that step again.
      if (event.type !== "step_end" || event.final) return;
      state = applyStepEnd(state, event);
      lastEndIndex = index;
      const check = event.history.checkResult;
      this.verdict.observe({
        iteration: event.iteration,
        stepId: event.stepId,
        stepKind: this.registry.steps[event.stepId]?.kind ?? "work",
        intent: event.history.intent ?? undefined,
        output: event.output,
        text: typeof event.output === "string" ? event.output : "",
        // The live run reported the check (count:check counts it); so does the fold.
        ...(check === null ? {} : { check }),
      });
    });
    if (
      events.some((event) => event.type === "boundary_hook" || event.type === "boundary_hook_start")
    ) {
      const finished = events.some((event) => event.type === "boundary_hook");
      throw new RunnerError({
        code: "RUN-RESUME-003",
        message: finished
          ? `Run ${runId} already ran its boundary hook; resuming could act twice.`
          : `Run ${runId} stopped while its boundary hook was running; resuming could act twice.`,
        file,
        hint: "Read the run's result in the journal; start a new run if more work is needed.",
      });
    }
    // Usage is summed over every call made, a failed attempt's too; replayed calls add nothing.
    this.state = { ...state, totals: recordedTotals(events) };

    // The interrupted step: what the journal recorded after the last step_end.
    const recorded = recordedMidStep(events.slice(lastEndIndex + 1));
    this.midStep = {
      stepId: state.routerState.stepId,
      iteration: state.routerState.iteration,
      ...recorded,
    };
    this.journalFile = file;
    if (this.runnerOptions.journalDir !== false) {
      endJournalAtLineBoundary(file);
      this.journal = new JournalWriter(file, this.runnerOptions.fsync ?? true);
    }
    this.telemetry.restore(start);
    let replayedToolResults = 0;
    for (const byId of Object.values(recorded.toolResults))
      for (const results of byId.values()) replayedToolResults += results.length;
    this.emit({
      type: "run_resume",
      stepId: state.routerState.stepId,
      iteration: state.routerState.iteration,
      replayedModelCalls: recorded.replies.step.length + recorded.replies.check.length,
      replayedToolResults,
    });
    return undefined;
  }

  // -------------------------------------------------------------------------------------------
  // The flow loop

  private async loop(): Promise<RunResult> {
    for (;;) {
      this.executedStep = undefined;
      const stopped = this.stoppedError() ?? this.budgetError();
      if (stopped !== undefined) return this.finish({ error: stopped });

      const routerState = this.state.routerState;
      const step = this.registry.steps[routerState.stepId];
      if (step === undefined) {
        return this.finish({
          error: {
            code: "FAILED_STEP_ROUTING",
            message: `Step "${routerState.stepId}" does not exist.`,
          },
        });
      }
      const outcome = await this.runPhase(step, "step");
      if (outcome.failure !== undefined) {
        const ended = await this.afterFailedPhase(step, outcome.failure);
        if (ended !== undefined) return ended;
        continue;
      }
      const result = outcome.result as StepResult;
      const ended =
        this.registry.dialect === "check" || step.check !== undefined
          ? await this.afterCheckStep(step, result, outcome.toolbox)
          : await this.afterGateStep(step, result, outcome.toolbox);
      if (ended !== undefined) return ended;
    }
  }

  private unexpectedError(error: unknown): RunError {
    const coded = errorOf(error, "AGENT_STEP_FAILED");
    return coded.hint === undefined
      ? {
          ...coded,
          hint: `Unexpected error; the journal is complete up to it. Fix the cause and continue with \`climpt run ${this.agent.name} --resume ${this.runId}\`.`,
        }
      : coded;
  }

  private stoppedError(): RunError | undefined {
    if (this.stopReason === "signal") {
      return {
        code: "AGENT_INTERRUPTED",
        message:
          "The run was interrupted (signal). Its journal is complete up to the last finished step.",
        hint: `Continue it with \`climpt run ${this.agent.name} --resume ${this.runId}\`.`,
      };
    }
    if (this.stopReason === "wallclock") {
      return {
        code: "AGENT_BUDGET_EXCEEDED",
        message: `The wall-clock budget of ${this.runOptions.budgets?.maxWallClockMs} ms ran out.`,
        hint: `Raise --max-time and continue with \`climpt run ${this.agent.name} --resume ${this.runId}\`.`,
      };
    }
    return undefined;
  }

  private budgetError(): RunError | undefined {
    const budgets = this.runOptions.budgets;
    const totals = this.state.totals;
    const tokens = totals.inputTokens + totals.outputTokens;
    const maxTokens = budgets?.maxTokens ?? this.agent.limits.maxTokens;
    const maxCost = budgets?.maxCostUsd ?? this.agent.limits.maxCostUsd;
    const resumeHint = `Raise the budget and continue with \`climpt run ${this.agent.name} --resume ${this.runId}\`.`;
    if (maxTokens !== undefined && tokens >= maxTokens) {
      return {
        code: "AGENT_BUDGET_EXCEEDED",
        message: `The token budget is spent: ${tokens} tokens used, budget ${maxTokens}.`,
        hint: resumeHint,
      };
    }
    if (maxCost !== undefined && totals.costUsd >= maxCost) {
      return {
        code: "AGENT_BUDGET_EXCEEDED",
        message: `The cost budget is spent: $${totals.costUsd.toFixed(4)} used, budget $${maxCost}.`,
        hint: resumeHint,
      };
    }
    return undefined;
  }

  private modelFor(step: Step): string {
    return modelId(resolveModel(step.model, this.modelOverride ?? this.agent.defaultModel));
  }

  private runtimeVariables(iteration: number): Record<string, JsonValue> {
    return {
      iteration,
      completed_iterations: iteration - 1,
      max_iterations: this.iterationCap,
      remaining: Math.max(0, this.iterationCap - iteration),
      previous_summary: this.state.previousSummary,
      ...this.verdict.uvVariables(),
    };
  }

  private async resolvePrompt(
    step: Step,
    phase: Phase,
    iteration: number,
  ): Promise<Result<StepPrompt>> {
    return resolveStepPrompt({
      registry: this.registry,
      step,
      source: this.promptSource,
      channels: {
        parameters: this.args,
        runtime: this.runtimeVariables(iteration),
        handoff: this.state.handoff,
      },
      ...(phase === "check" && step.check?.prompt !== undefined
        ? { prompt: step.check.prompt }
        : {}),
      registryFile: this.loaded.files.registry,
    });
  }

  /** Runs the step prompt (or the check prompt) through the tool loop and the output schema. */
  private async runPhase(step: Step, phase: Phase, toolbox?: Toolbox): Promise<PhaseOutcome> {
    const iteration = this.state.routerState.iteration;
    const model = this.modelFor(step);
    const retry = phase === "step" && this.state.pendingRetry?.stepId === step.id;
    const box =
      toolbox ??
      createToolbox({
        cwd: this.cwd,
        agent: this.agent,
        step,
        ...(this.runnerOptions.ghCommand === undefined
          ? {}
          : { ghCommand: this.runnerOptions.ghCommand }),
        ...(this.runnerOptions.env === undefined ? {} : { env: this.runnerOptions.env }),
        onEvent: (event) => {
          if (event.type === "tool_refused") {
            this.emit({
              type: "tool_refused",
              iteration,
              stepId: step.id,
              tool: event.tool,
              reason: event.reason,
            });
          }
        },
      });
    this.emit({
      type: "step_start",
      iteration,
      stepId: step.id,
      stepKind: step.kind,
      model,
      phase,
      retry,
    });

    let text: string;
    let promptFile: string | null = null;
    let source: string;
    if (retry && this.state.pendingRetry !== null) {
      text = this.state.pendingRetry.text;
      source = "retry";
    } else {
      const prompt = await this.resolvePrompt(step, phase, iteration);
      if (!prompt.ok)
        return { failure: { kind: "fatal", error: problemError(prompt.issues) }, toolbox: box };
      text = prompt.value.text;
      source = prompt.value.source.kind === "file" ? "file" : `fallback:${prompt.value.source.key}`;
      if (prompt.value.source.kind === "file") {
        promptFile = path.relative(this.loaded.dir, prompt.value.source.path);
      }
    }
    this.emit({
      type: "prompt_resolved",
      iteration,
      stepId: step.id,
      phase,
      source,
      promptFile,
      text,
    });

    if (phase === "step") this.executedStep = step;

    let client: ModelClient = this.client;
    let tools: ToolExecutor = box;
    let replay: { model: JournalModelReplay; tools: JournalToolReplay } | undefined;
    const mid = this.midStep;
    if (mid !== undefined && mid.stepId === step.id && mid.iteration === iteration) {
      replay = {
        model: new JournalModelReplay(this.client, mid.replies[phase]),
        tools: new JournalToolReplay(box, mid.toolResults[phase]),
      };
      client = replay.model;
      tools = replay.tools;
      if (phase === "check" || step.check === undefined) this.midStep = undefined;
    }

    const schema = phase === "check" ? CHECK_OUTPUT_SCHEMA : stepOutputSchema(step);
    let call = 0;
    const onEvent = (event: StepEvent): void => {
      switch (event.type) {
        case "model-request":
          call = event.turn;
          this.emit({
            type: "model_request",
            iteration,
            stepId: step.id,
            phase,
            call,
            model: event.model,
            repair: event.repair,
          });
          break;
        case "model-response":
          break; // emitted with its content through the wrapped client below
        case "tool-call":
          this.emit({ type: "tool_call", iteration, stepId: step.id, call: event.call });
          break;
        case "tool-result": {
          const replayed = replay?.tools.servedFromJournal(event.call) === true;
          const interrupted = !replayed && event.result.isError && this.controller.signal.aborted;
          this.emit({
            type: "tool_result",
            iteration,
            stepId: step.id,
            call: event.call,
            result: event.result,
            durationMs: event.durationMs,
            ...(replayed ? { replayed } : {}),
            ...(interrupted ? { interrupted } : {}),
          });
          break;
        }
        default:
          break;
      }
    };
    // The response event carries the reply's content (for resume), which StepEvent does not: take
    // it from the client, in the order runStep makes its calls.
    let running = this.state.totals;
    const recordingClient: ModelClient = {
      call: async (request) => {
        const started = Date.now();
        // A reply served from the journal was paid for before the stop: its usage is already in
        // the totals the resumed run started from.
        const replayed = replay !== undefined && replay.model.remaining > 0;
        const response = await client.call(request);
        if (!replayed) running = addTotals(running, response);
        this.emit({
          type: "model_response",
          iteration,
          stepId: step.id,
          phase,
          call,
          model: response.model,
          stopReason: response.stopReason,
          usage: response.usage,
          costUsd: response.costUsd,
          requestId: response.requestId ?? null,
          durationMs: Date.now() - started,
          content: response.content,
          totals: running,
          ...(replayed ? { replayed } : {}),
        });
        return response;
      },
    };
    try {
      const limits = this.agent.limits;
      const result = await runStep({
        client: recordingClient,
        model,
        system: this.system,
        prompt: text,
        ...(schema === undefined ? {} : { outputSchema: schema }),
        tools,
        ...(limits.maxTurnsPerStep === undefined ? {} : { maxTurns: limits.maxTurnsPerStep }),
        ...(limits.callTimeoutMs === undefined ? {} : { timeoutMs: limits.callTimeoutMs }),
        signal: this.controller.signal,
        onEvent,
        ...(this.runOptions.onTextDelta === undefined
          ? {}
          : {
              onTextDelta: (delta: string) =>
                this.runOptions.onTextDelta?.(delta, { stepId: step.id, iteration }),
            }),
      });
      this.state = { ...this.state, totals: running };
      return { result, toolbox: box };
    } catch (error) {
      this.state = { ...this.state, totals: running };
      const stopped = this.stoppedError();
      if (stopped !== undefined)
        return { failure: { kind: "fatal", error: stopped }, toolbox: box };
      const reason = StepError.isInstance(error) ? error.reason : undefined;
      if (reason === "schema-invalid" || reason === "output-missing") {
        return {
          failure: { kind: "schema", error: errorOf(error, "FAILED_SCHEMA_RESOLUTION") },
          toolbox: box,
        };
      }
      return {
        failure: { kind: "fatal", error: errorOf(error, "AGENT_STEP_FAILED") },
        toolbox: box,
      };
    }
  }

  /**
   * A phase without usable output. A schema failure aborts the iteration and the step runs again
   * as the next one; two in a row end the run with FAILED_SCHEMA_RESOLUTION (seed 001 §5).
   */
  private async afterFailedPhase(
    step: Step,
    failure: PhaseFailure,
  ): Promise<RunResult | undefined> {
    const iteration = this.state.routerState.iteration;
    if (failure.kind === "fatal") return this.finish({ error: failure.error, stepId: step.id });
    const consecutive = this.state.consecutiveSchemaFailures + 1;
    this.emit({
      type: "step_failed",
      iteration,
      stepId: step.id,
      error: failure.error,
      consecutiveSchemaFailures: consecutive,
    });
    if (consecutive >= 2) {
      return this.finish({
        stepId: step.id,
        transition: "error",
        error: {
          code: "FAILED_SCHEMA_RESOLUTION",
          message: `Step "${step.id}" failed to produce output matching its schema twice in a row. Last: ${failure.error.message}`,
          hint: "Make the prompt say exactly which JSON object to return, or loosen the step's output schema.",
        },
      });
    }
    if (iteration + 1 > this.iterationCap) {
      return this.finish({ stepId: step.id, error: this.capError() });
    }
    const next: RouterState = { ...this.state.routerState, iteration: iteration + 1 };
    this.endStep(step, {
      intent: null,
      transition: "schema-failure",
      routerState: next,
      output: null,
      handoff: {},
      handoffPaths: {},
      pendingRetry: this.state.pendingRetry,
      consecutiveSchemaFailures: consecutive,
    });
    return undefined;
  }

  private capError(): RunError {
    return {
      code: "AGENT_MAX_ITERATIONS",
      message: `The run reached its iteration cap of ${this.iterationCap} without completing.`,
      hint: "Raise --max-iterations (or limits.maxIterations), or look in the journal for a loop.",
    };
  }

  private endStep(
    step: Step,
    fields: {
      intent: string | null;
      transition: string;
      routerState: RouterState;
      output: JsonValue;
      handoff: Readonly<Record<string, JsonValue>>;
      handoffPaths: Readonly<Record<string, JsonValue>>;
      pendingRetry: { stepId: string; text: string } | null;
      consecutiveSchemaFailures?: number;
      checkResult?: { passed: boolean; message: string } | null;
      final?: boolean;
    },
  ): void {
    const iteration = this.state.routerState.iteration;
    const history: HistoryEntry = {
      iteration,
      stepId: step.id,
      intent: fields.intent,
      transition: fields.transition,
      checkResult: fields.checkResult ?? null,
    };
    const event: RunEventInput = {
      type: "step_end",
      iteration,
      stepId: step.id,
      history,
      routerState: fields.routerState,
      output: fields.output,
      handoff: fields.handoff,
      handoffPaths: fields.handoffPaths,
      pendingRetry: fields.pendingRetry,
      consecutiveSchemaFailures: fields.consecutiveSchemaFailures ?? 0,
      totals: this.state.totals,
      final: fields.final ?? false,
    };
    this.emit(event);
    this.state = applyStepEnd(this.state, {
      ...event,
      runId: this.runId,
      time: "",
      seq: 0,
    } as StepEndEvent);
  }

  private observe(
    step: Step,
    result: StepResult,
    intent: string | undefined,
    check?: { passed: boolean; message: string },
  ): void {
    this.verdict.observe({
      iteration: this.state.routerState.iteration,
      stepId: step.id,
      stepKind: step.kind,
      intent,
      output: toJson(result.output ?? null),
      text: result.text,
      ...(check === undefined ? {} : { check }),
    });
  }

  // Gate dialect -------------------------------------------------------------------------------

  private async afterGateStep(
    step: Step,
    result: StepResult,
    toolbox: Toolbox,
  ): Promise<RunResult | undefined> {
    const iteration = this.state.routerState.iteration;
    const output = toJson(result.output ?? result.text);
    const gate = interpretGate(step, result.output, { iteration });
    if (!gate.ok) {
      return this.finish({ stepId: step.id, error: problemError(gate.issues) });
    }
    const interpretation = gate.value;
    this.emit({
      type: "gate",
      iteration,
      stepId: step.id,
      intent: interpretation.intent,
      usedFallback: interpretation.usedFallback,
      reason: interpretation.reason ?? null,
      target: interpretation.target ?? null,
      handoff: interpretation.handoff,
    });
    this.observe(step, result, interpretation.intent);
    const decision = route(this.registry, this.state.routerState, interpretation, {
      iterationCap: this.iterationCap,
      handoff: { ...this.state.flatHandoff, ...interpretation.handoff },
    });
    if (!decision.ok) return this.finish({ stepId: step.id, error: problemError(decision.issues) });
    return this.followDecision(step, decision.value, {
      intent: interpretation.intent,
      output,
      handoff: interpretation.handoff,
      handoffPaths: interpretation.handoffPaths,
      toolbox,
      text: result.text,
      checkResult: null,
    });
  }

  // Check dialect ------------------------------------------------------------------------------

  private async afterCheckStep(
    step: Step,
    result: StepResult,
    toolbox: Toolbox,
  ): Promise<RunResult | undefined> {
    const iteration = this.state.routerState.iteration;
    const output = toJson(result.output ?? result.text);
    const extracted = extractHandoff(step, result.output ?? null);
    const before = beforeCheck(this.registry, this.state.routerState, {
      iterationCap: this.iterationCap,
    });
    if (!before.ok) return this.finish({ stepId: step.id, error: problemError(before.issues) });
    if (before.value.kind === "step") {
      this.observe(step, result, undefined);
      this.emit({
        type: "route",
        iteration,
        from: step.id,
        decision: "step",
        to: before.value.stepId,
        via: before.value.via,
      });
      this.endStep(step, {
        intent: null,
        transition: before.value.stepId,
        routerState: before.value.state,
        output,
        handoff: extracted.handoff,
        handoffPaths: {},
        pendingRetry: null,
      });
      return undefined;
    }

    // The check: its own model call when the step names a check prompt, else the step's output.
    let checkOutput: unknown;
    if (step.check?.prompt !== undefined) {
      const phase = await this.runPhase(step, "check", toolbox);
      if (phase.failure !== undefined) {
        // Seed 000: a check response that cannot be parsed is NG, not a run failure.
        checkOutput = {
          result: "ng",
          message: `The check gave no usable answer: ${phase.failure.error.message}`,
        };
        if (phase.failure.kind === "fatal" && !phase.failure.error.code.startsWith("AC-STEP-")) {
          return this.finish({ stepId: step.id, error: phase.failure.error });
        }
      } else {
        checkOutput = phase.result?.output ?? phase.result?.text;
      }
    }
    const check = interpretStepCheck(step, {
      stepOutput: result.output ?? result.text,
      checkOutput,
    });
    const checkResult = { passed: check.passed, message: check.message ?? "" };
    this.emit({
      type: "check",
      iteration,
      stepId: step.id,
      passed: check.passed,
      message: checkResult.message,
    });
    this.observe(step, result, undefined, checkResult);
    const decision = routeCheck(this.registry, before.value.state, check, {
      iterationCap: this.iterationCap,
    });
    if (!decision.ok) {
      return this.finish({ stepId: step.id, error: problemError(decision.issues), checkResult });
    }
    return this.followDecision(step, decision.value, {
      intent: null,
      output,
      handoff: extracted.handoff,
      handoffPaths: {},
      toolbox,
      text: result.text,
      checkResult,
    });
  }

  // Both dialects ------------------------------------------------------------------------------

  private async followDecision(
    step: Step,
    decision: RouteDecision,
    context: StepContext,
  ): Promise<RunResult | undefined> {
    const iteration = this.state.routerState.iteration;
    const base = recordedFields(context);
    switch (decision.kind) {
      case "step": {
        let next = decision.state;
        let to = decision.stepId;
        let via: string = decision.via;
        const forced = await this.verdict.afterIteration({
          iteration,
          stepId: step.id,
          stepKind: step.kind,
          intent: context.intent ?? undefined,
        });
        const closure = forced?.enterClosure ? this.closureStepFor(step) : undefined;
        if (closure !== undefined && closure !== decision.stepId) {
          // A budget (count:iteration, count:check) sends the flow to its closure step now.
          // Like the router's own moves into closure, remember the work step that led in, so a
          // failed validation returns to work (DESIGN 4.4.11), not to the closure step itself.
          const leadIn = decision.state.lastWorkStepId ?? step.id;
          next = {
            ...decision.state,
            stepId: closure,
            previousStepId: step.id,
            visitExecutions: 0,
            closureLeadIn: { ...decision.state.closureLeadIn, [closure]: leadIn },
          };
          to = closure;
          via = "enter-closure";
        }
        this.emit({ type: "route", iteration, from: step.id, decision: "step", to, via });
        this.endStep(step, { ...base, transition: to, routerState: next, pendingRetry: null });
        return undefined;
      }
      case "abort": {
        this.emit({
          type: "route",
          iteration,
          from: step.id,
          decision: "abort",
          to: null,
          via: null,
        });
        return this.finish({
          stepId: step.id,
          ...base,
          transition: "abort",
          error: {
            code: "AGENT_ABORTED",
            message: `Step "${step.id}" chose abort: ${decision.reason || "no reason given"}.`,
          },
        });
      }
      case "closing":
      case "complete": {
        this.emit({
          type: "route",
          iteration,
          from: step.id,
          decision: decision.kind,
          to: null,
          via: null,
        });
        return this.completion(step, decision.state, decision.kind, { ...context });
      }
    }
  }

  /** The closure step a budget sends the flow to: the registry's first closure step. */
  private closureStepFor(current: Step): string | undefined {
    if (current.kind === "closure") return undefined;
    return Object.values(this.registry.steps).find((candidate) => candidate.kind === "closure")?.id;
  }

  /** Seed 004's completion loop: closure output → validation → verdict, then done or retry. */
  private async completion(
    step: Step,
    routerState: RouterState,
    kind: "closing" | "complete",
    context: StepContext,
  ): Promise<RunResult | undefined> {
    const iteration = routerState.iteration;
    const attempt = routerState.validationAttempts[step.id] ?? 0;
    const base = recordedFields(context);
    const chain = await runCompletionChain({
      loaded: this.loaded,
      closureStepId: step.id,
      closureOutput: context.output,
      closureText: context.text,
      handoff: { ...this.state.handoff, [step.id]: context.handoff },
      returnStepId: routerState.closureLeadIn[step.id] ?? step.id,
      attempt,
      iteration,
      cwd: this.cwd,
      params: this.args,
      verdict: this.verdict,
      promptSource: this.promptSource,
      channels: {
        parameters: this.args,
        runtime: this.runtimeVariables(iteration + 1),
        handoff: { ...this.state.handoff, [step.id]: context.handoff },
      },
      boundaryRequests: context.toolbox.boundaryRequests(),
      signal: this.controller.signal,
      onEvent: (event) => this.onChainEvent(step, iteration, event),
    });
    // Stopped while validators or the verdict ran: their outcome says nothing about the work.
    // End as the stop, without a step_end, so resume serves this step's replies from the journal
    // and validates again (and the boundary hook never runs after a stop).
    const stopped = this.stoppedError();
    if (stopped !== undefined) return this.finish({ stepId: step.id, error: stopped });

    if (chain.kind === "done") {
      this.emit({
        type: "verdict",
        iteration,
        stepId: step.id,
        outcome: "done",
        reason: chain.reason,
        returnStepId: null,
        failurePattern: null,
      });
      this.endStep(step, {
        ...base,
        transition: kind,
        routerState,
        pendingRetry: null,
        final: true,
      });
      const hook = await this.runBoundary(step, context);
      if (chain.verdict.awaitsBoundary && this.verdict.confirmAfterBoundary !== undefined) {
        // poll:state: the hook's close was what puts the issue into its target state; check it did.
        const confirmed = await this.verdict.confirmAfterBoundary({
          signal: this.controller.signal,
        });
        if (!confirmed.done) {
          return this.finish({
            stepId: step.id,
            error: {
              code: "AGENT_VERDICT_UNCONFIRMED",
              message: `The boundary hook ran, but the verdict is not met afterwards: ${confirmed.reason}`,
              hint: "Read the boundary_hook event in the journal for the commands' output.",
            },
          });
        }
      }
      return this.finish({ stepId: step.id, success: true, completionReason: chain.reason, hook });
    }
    if (chain.kind === "abort") {
      this.emit({
        type: "verdict",
        iteration,
        stepId: step.id,
        outcome: "abort",
        reason: chain.error.message,
        returnStepId: null,
        failurePattern: null,
      });
      return this.finish({ stepId: step.id, ...base, transition: kind, error: chain.error });
    }
    this.emit({
      type: "verdict",
      iteration,
      stepId: step.id,
      outcome: "retry",
      reason: chain.verdict?.reason ?? failedValidatorText(chain.validation.results),
      returnStepId: chain.returnStepId,
      failurePattern: chain.failurePattern ?? null,
    });
    const maxAttempts = this.validationMaxAttempts(step.id);
    const back = returnAfterFailedValidation(this.registry, routerState, {
      closureStepId: step.id,
      ...(maxAttempts === undefined ? {} : { maxAttempts }),
      iterationCap: this.iterationCap,
    });
    if (!back.ok)
      return this.finish({
        stepId: step.id,
        ...base,
        transition: kind,
        error: problemError(back.issues),
      });
    this.emit({
      type: "route",
      iteration,
      from: step.id,
      decision: "validation-retry",
      to: back.value.stepId,
      via: "validation-retry",
    });
    this.endStep(step, {
      ...base,
      transition: `validation-retry:${back.value.stepId}`,
      routerState: back.value.state,
      pendingRetry: { stepId: back.value.stepId, text: chain.retryPrompt },
    });
    return undefined;
  }

  private validationMaxAttempts(stepId: string): number | undefined {
    const entry =
      this.registry.validationSteps[stepId] ??
      Object.values(this.registry.validationSteps).find((candidate) => candidate.stepId === stepId);
    return entry?.onFailure.maxAttempts;
  }

  private onChainEvent(step: Step, iteration: number, event: ChainEvent): void {
    if (event.type !== "validator-finished") return;
    const result = event.result;
    this.emit({
      type: "validator",
      iteration,
      stepId: step.id,
      validator: result.id,
      passed: result.passed,
      command: result.command,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      output: `${result.stdout}${result.stderr}`.slice(0, 4000),
    });
  }

  private async runBoundary(
    step: Step,
    context: { output: JsonValue; toolbox: Toolbox },
  ): Promise<BoundaryHookResult | undefined> {
    this.boundaryStarted = true;
    this.emit({ type: "boundary_hook_start" });
    const result = await runBoundaryHook({
      agent: this.agent,
      params: this.args,
      closureOutput: context.output,
      boundaryRequests: context.toolbox.boundaryRequests(),
      commandRunner: this.commandRunner,
      cwd: this.cwd,
      runId: this.runId,
      signal: this.controller.signal,
    });
    if (result.actions.length === 0 && result.problems.length === 0) return undefined;
    this.boundary = { ok: result.ok, actions: toJson(result.actions) as JsonValue[] };
    this.emit({ type: "boundary_hook", ok: result.ok, actions: this.boundary.actions });
    void step;
    return result;
  }

  // -------------------------------------------------------------------------------------------
  // The end

  private async finish(outcome: {
    stepId?: string;
    success?: boolean;
    completionReason?: string;
    error?: RunError;
    hook?: BoundaryHookResult | undefined;
    intent?: string | null;
    transition?: string;
    output?: JsonValue;
    handoff?: Readonly<Record<string, JsonValue>>;
    handoffPaths?: Readonly<Record<string, JsonValue>>;
    checkResult?: { passed: boolean; message: string } | null;
  }): Promise<RunResult> {
    const success = outcome.success === true && outcome.error === undefined;
    // A step that ended the run (its output was refused, it aborted, it hit the cap) appears in
    // the history. A step cut off by an interruption, a budget or an API error does not: it did
    // not finish, and resume runs it again from the journal.
    const ended = outcome.stepId === undefined ? undefined : this.registry.steps[outcome.stepId];
    if (
      !success &&
      ended !== undefined &&
      (outcome.transition !== undefined || this.executedStep === ended) &&
      !continuesMidStep(outcome.error?.code)
    ) {
      this.endStep(ended, {
        intent: outcome.intent ?? null,
        transition: outcome.transition ?? "error",
        routerState: this.state.routerState,
        output: outcome.output ?? null,
        handoff: outcome.handoff ?? {},
        handoffPaths: outcome.handoffPaths ?? {},
        pendingRetry: null,
        checkResult: outcome.checkResult ?? null,
        final: true,
      });
    }
    if (success && this.worktree !== null) {
      try {
        await removeRunWorktree({ repoDir: this.originCwd, worktree: this.worktree });
      } catch (error) {
        this.emit({
          type: "notice",
          level: "warning",
          message: `The worktree was kept: ${(error as Error).message}`,
        });
      }
    }
    const error = outcome.error;
    const result: RunResult = {
      runId: this.runId,
      success,
      finalStepId: outcome.stepId ?? this.state.routerState.stepId ?? null,
      completionReason: success
        ? (outcome.completionReason ?? "completed")
        : `${error?.code ?? "FAILED"}: ${error?.message ?? "the run failed"}`,
      iterations:
        this.state.history.length === 0
          ? 0
          : Math.max(...this.state.history.map((entry) => entry.iteration)),
      ...(error === undefined ? {} : { error }),
      state: { history: this.state.history, handoff: this.state.handoff },
      usage: this.state.totals,
      ...(this.boundary === undefined ? {} : { boundary: this.boundary }),
      journalPath: this.journalFile,
      // A run whose boundary hook ran cannot be resumed (RUN-RESUME-003): it acted already.
      // Once the boundary hook has started, resume refuses (RUN-RESUME-003): never act twice.
      resumable: !success && this.journalFile !== null && !this.boundaryStarted,
      durationMs: Date.now() - this.startedAt,
    };
    this.emit({ type: "run_end", result });
    return result;
  }
}
