import path from "node:path";
import { type PromptOverride, resolveStepPrompt, type StepPrompt } from "@climpt/c3l-resolver";
import type { JsonValue, Result, Step } from "@climpt/model";
import { modelId, resolveModel, type ToolExecutor } from "@climpt/sdk-adapter";
import {
  createToolbox,
  type McpStepTools,
  stepMcpTools,
  type Toolbox,
  type ToolboxOptions,
} from "@climpt/tools";
import { RUNNER_CODES } from "../codes.ts";
import type { RunContext } from "../run/run-context.ts";
import { errorOf, problemError } from "../run/run-errors.ts";
import type { RunState } from "../run/run-state.ts";
import type { RunError } from "../run-result.ts";
import type { PhaseReplay, StepAnswer, StepExecutionObserver } from "../step-executor.ts";
import { CHECK_OUTPUT_SCHEMA, stepOutputSchema } from "./check-schemas.ts";

/** `step`: the step's own prompt; `check`: a check-dialect step's check prompt. */
export type Phase = "step" | "check";

export type PhaseResult =
  | { readonly ok: true; readonly answer: StepAnswer; readonly toolbox: Toolbox }
  | {
      readonly ok: false;
      /** `schema`: no output matching the schema; `fatal`: anything else (a stop included). */
      readonly kind: "schema" | "fatal";
      readonly error: RunError;
      /** Whether the step ran (its prompt resolved and the model was asked). */
      readonly ran: boolean;
      readonly toolbox: Toolbox;
    };

/**
 * The step's tools, each run only once the reply that asked for it is on disk: a crash while
 * a tool runs then leaves the reply in the journal, and resume serves it instead of asking
 * again.
 */
function durableTools(ctx: RunContext, toolbox: Toolbox): ToolExecutor {
  return {
    definitions: toolbox.definitions,
    execute: async (call, signal) => {
      await ctx.events.durable();
      return toolbox.execute(call, signal);
    },
  };
}

/** Runs whose sandbox-off notice is already in the journal (the toolbox repeats it per step). */
const sandboxNoticed = new WeakSet<RunContext>();

/**
 * The agent's sandbox setting as the toolbox takes it. The pre-run checks already recorded an
 * "off" setting as a notice; the toolbox's own notice (the first unsandboxed command) is
 * journaled once per run, never written to stderr, which `--json` keeps for the result. A Bash
 * command's git changes the host did not keep (`TOOL-GIT-001`) are journaled each time.
 */
function toolboxSandbox(ctx: RunContext): Pick<ToolboxOptions, "sandbox" | "onNotice"> {
  const sandbox = ctx.agent.sandbox;
  return {
    ...(sandbox === undefined
      ? {}
      : {
          sandbox: {
            mode: sandbox.mode,
            network: { allow: sandbox.networkAllow },
            readable: sandbox.readable,
          },
        }),
    onNotice: (notice) => {
      // The sandbox-off notice once per run; the others (git changes not kept) each time.
      if (notice.code === "TOOL-SANDBOX-002") {
        if (sandboxNoticed.has(ctx)) return;
        sandboxNoticed.add(ctx);
      }
      ctx.events.emit({
        type: "notice",
        level: "warning",
        message: `${notice.code}: ${notice.message}`,
      });
    },
  };
}

/**
 * The UV runtime channel of the prompt of `iteration`: where the run is, and the verdict's own
 * variables. `remaining` is the iterations left after this one, never negative, in every
 * template (docs/design.md#variables); a budget verdict computes it from its own budget.
 */
export function runtimeVariables(
  ctx: RunContext,
  state: RunState,
  iteration: number,
): Record<string, JsonValue> {
  const cap = ctx.router.iterationCap;
  return {
    iteration,
    completed_iterations: iteration - 1,
    max_iterations: cap,
    remaining: Math.max(0, cap - iteration),
    previous_summary: state.previousSummary,
    ...ctx.verdict.uvVariables({ iteration }),
  };
}

/**
 * The prompt variant a closure step's own prompt uses: with GitHub integration on and a
 * `defaultClosureAction` other than `close`, the file whose adaptation is that action
 * (`f_default_label-only.md`), else the plain file, which the resolver falls back to by itself
 * (docs/design.md#prompts).
 */
function closureVariant(ctx: RunContext, step: Step): PromptOverride | undefined {
  const { github } = ctx.agent;
  if (step.kind !== "closure" || step.prompt.kind !== "c3l") return undefined;
  if (!github.enabled || github.defaultClosureAction === "close") return undefined;
  return { edition: step.prompt.edition, adaptation: github.defaultClosureAction };
}

function resolvePrompt(
  ctx: RunContext,
  state: RunState,
  step: Step,
  phase: Phase,
): Promise<Result<StepPrompt>> {
  const variant = phase === "step" ? closureVariant(ctx, step) : undefined;
  return resolveStepPrompt({
    registry: ctx.registry,
    step,
    source: ctx.promptSource,
    channels: {
      parameters: ctx.args,
      runtime: runtimeVariables(ctx, state, state.routerState.iteration),
      handoff: state.handoffVariables,
    },
    ...(phase === "check" && step.check?.prompt !== undefined ? { prompt: step.check.prompt } : {}),
    ...(variant === undefined ? {} : { override: variant, allowFallback: true }),
    registryFile: ctx.loaded.files.registry,
    parameterFlags: Object.fromEntries(
      Object.values(ctx.agent.parameters).map((parameter) => [parameter.name, parameter.cli]),
    ),
  });
}

/**
 * One model phase of the current iteration: the step prompt (or the pending retry prompt, or
 * the check prompt) through the step executor with the step's tools and output schema. It
 * journals what happens (step_start, prompt_resolved, every call and tool result) and adds each
 * call's usage to the run's meter; it decides nothing about the flow.
 */
export async function runModelPhase(
  ctx: RunContext,
  state: RunState,
  step: Step,
  phase: Phase,
  options: { readonly toolbox?: Toolbox; readonly replay?: PhaseReplay | undefined } = {},
): Promise<PhaseResult> {
  const iteration = state.routerState.iteration;
  const model = modelId(resolveModel(step.model, ctx.modelOverride ?? ctx.agent.defaultModel));
  const pendingRetry = phase === "step" && state.pendingRetry?.stepId === step.id;
  // The step's MCP tools: the run's servers start here the first time a step may use them.
  let mcp: McpStepTools | undefined;
  let mcpFailure: RunError | undefined;
  if (options.toolbox === undefined && ctx.mcp !== undefined) {
    try {
      mcp = await stepMcpTools(ctx.mcp, ctx.agent, step);
    } catch (error) {
      mcpFailure = errorOf(error, RUNNER_CODES.stepFailed);
    }
  }
  const toolbox =
    options.toolbox ??
    createToolbox({
      ...(mcp === undefined ? {} : { mcp }),
      cwd: ctx.cwd,
      agent: ctx.agent,
      step,
      ...(ctx.ghCommand === undefined ? {} : { ghCommand: ctx.ghCommand }),
      ...(ctx.env === undefined ? {} : { env: ctx.env }),
      // The run's issue (`issue`) and pull request (`prNumber`/`pr`): the only ones its GitHub
      // writes may touch unless agent.json declares more.
      params: ctx.args,
      // The repository they act in unless a call names another, fixed before the first step.
      ...(ctx.githubRepository === undefined ? {} : { githubRepository: ctx.githubRepository }),
      ...toolboxSandbox(ctx),
      gitPush: ctx.gitPush,
      protectedPaths: ctx.protectedPaths,
      // The run's one scrubber, and the variables the agent declares secret, which the
      // sandbox leaves out of a command's environment.
      scrubber: ctx.events.scrubber,
      ...(ctx.agent.secretEnvNames === undefined
        ? {}
        : { secrets: { env: ctx.agent.secretEnvNames } }),
      onEvent: (event) => {
        if (event.type !== "tool_refused") return;
        ctx.events.emit({
          type: "tool_refused",
          iteration,
          stepId: step.id,
          tool: event.tool,
          reason: event.reason,
        });
      },
    });
  const emit = ctx.events.emit.bind(ctx.events);
  if (mcpFailure !== undefined)
    return { ok: false, kind: "fatal", error: mcpFailure, ran: false, toolbox };
  emit({
    type: "step_start",
    iteration,
    stepId: step.id,
    stepKind: step.kind,
    model,
    phase,
    retry: pendingRetry,
  });

  let text: string;
  let source = "retry";
  let promptFile: string | null = null;
  if (pendingRetry && state.pendingRetry !== null) {
    text = state.pendingRetry.text;
  } else {
    const prompt = await resolvePrompt(ctx, state, step, phase);
    if (!prompt.ok) {
      return { ok: false, kind: "fatal", error: problemError(prompt.issues), ran: false, toolbox };
    }
    text = prompt.value.text;
    const from = prompt.value.source;
    source = from.kind === "file" ? "file" : `fallback:${from.key}`;
    // Only the event names the file: no path arithmetic when nobody reads it.
    if (from.kind === "file" && ctx.events.observed) {
      promptFile = path.relative(ctx.loaded.dir, from.path);
    }
  }
  emit({ type: "prompt_resolved", iteration, stepId: step.id, phase, source, promptFile, text });

  const observer: StepExecutionObserver = {
    modelRequest: ({ call, model: requested, repair }) =>
      emit({
        type: "model_request",
        iteration,
        stepId: step.id,
        phase,
        call,
        model: requested,
        repair,
      }),
    modelResponse: ({ call, reply, durationMs, replayed }) => {
      // A reply served from the journal was paid for before the stop: its usage is already in
      // the totals the resumed run started from.
      const totals = replayed ? ctx.usage.totals : ctx.usage.add(reply);
      emit({
        type: "model_response",
        iteration,
        stepId: step.id,
        phase,
        call,
        model: reply.model,
        stopReason: reply.stopReason,
        usage: reply.usage,
        costUsd: reply.costUsd,
        requestId: reply.requestId,
        durationMs,
        content: reply.content,
        totals,
        ...(replayed ? { replayed } : {}),
      });
    },
    toolCall: (call) => emit({ type: "tool_call", iteration, stepId: step.id, call }),
    toolRefused: ({ tool, reason }) =>
      emit({ type: "tool_refused", iteration, stepId: step.id, tool, reason }),
    toolResult: ({ call, result, durationMs, replayed }) => {
      // A tool the stop cut off comes back as an error: resume tells the model its effect is
      // unknown instead of serving the abort notice (or running it again).
      const interrupted = !replayed && result.isError && ctx.signal.aborted;
      emit({
        type: "tool_result",
        iteration,
        stepId: step.id,
        call,
        result,
        durationMs,
        ...(replayed ? { replayed } : {}),
        ...(interrupted ? { interrupted } : {}),
      });
    },
    durable: () => ctx.events.durable(),
    textDelta:
      ctx.onTextDelta === undefined
        ? undefined
        : (delta) => ctx.onTextDelta?.(delta, { stepId: step.id, iteration }),
  };
  const limits = ctx.agent.limits;
  // The step before this one (its step_end) is on disk before this step does anything.
  await ctx.events.durable();
  const result = await ctx.executor.execute({
    model,
    system: ctx.system,
    prompt: text,
    outputSchema: phase === "check" ? CHECK_OUTPUT_SCHEMA : stepOutputSchema(step),
    // An alias of an allowed intent passes the schema check; the gate maps it.
    ...(phase === "check" || step.acceptedOutputSchema === undefined
      ? {}
      : { acceptedOutputSchema: step.acceptedOutputSchema }),
    tools: durableTools(ctx, toolbox),
    maxTurns: limits.maxTurnsPerStep,
    callTimeoutMs: limits.callTimeoutMs,
    connectTimeoutMs: ctx.modelWaits.connectTimeoutMs,
    streamIdleTimeoutMs: ctx.modelWaits.streamIdleTimeoutMs,
    signal: ctx.signal,
    replay: options.replay,
    observer,
    step,
    agent: ctx.agent,
    cwd: ctx.cwd,
    protectedPaths: ctx.protectedPaths,
  });
  if (result.ok) return { ok: true, answer: { output: result.output, text: result.text }, toolbox };
  // Stopped while the model or a tool ran: the failure says nothing about the step.
  const stopped = ctx.stopped();
  if (stopped !== undefined)
    return { ok: false, kind: "fatal", error: stopped, ran: true, toolbox };
  return {
    ok: false,
    kind: result.reason === "schema" ? "schema" : "fatal",
    error: result.error,
    ran: true,
    toolbox,
  };
}
