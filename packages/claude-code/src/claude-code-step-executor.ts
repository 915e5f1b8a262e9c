import path from "node:path";
import type { Step } from "@climpt/model";
import { ClimptError, type Problem, problem } from "@climpt/model";
import type { StepExecutionRequest, StepExecutionResult, StepExecutor } from "@climpt/protocol";
import { StepError, type StepEvent } from "@climpt/sdk-adapter";
import {
  type ClaudeCodeSettings,
  createClaudeCodeExecutor,
  runClaudeCodeStep,
} from "./claude-code-executor.ts";
import { nextPhase } from "./next-phase.ts";
import type { PhaseSpec } from "./session-plan.ts";
import { type WarmSessionLimits, WarmSessions } from "./warm-sessions.ts";

/**
 * The `StepExecutor` of @climpt/protocol on Claude Code, and the settings it runs every step
 * with. It extends the seam itself (no copy of it), so a duty the seam gains is one this
 * executor fails to compile without.
 */
export interface ClaudeCodeStepExecutor extends StepExecutor {
  readonly name: "claude-code";
  readonly settings: ClaudeCodeSettings;
  /** Closes a session started ahead that no step claimed (call it when the run is over). */
  close(): void;
}

/** Warm start: what the executor needs to start the next step's session ahead of it. */
export interface WarmStartOptions extends WarmSessionLimits {
  /**
   * The run's steps (the loaded registry's `steps`): the step a phase's intent leads to is
   * looked up here to start its session while the runner checks and routes. Absent: every
   * phase starts cold.
   */
  readonly steps?: Readonly<Record<string, Step>>;
}

/** A thrown error as the run's error: a coded error keeps its code, anything else gets `fallback`. */
function runErrorOf(error: unknown, fallback: string): Problem {
  if (ClimptError.isInstance(error)) return error.toProblem();
  return problem(fallback, error instanceof Error ? error.message : String(error));
}

/**
 * The model-step seam (`StepExecutor` of @climpt/protocol, `RunnerOptions.stepExecutor`) on the
 * Claude Agent SDK: each step
 * phase the runner hands over runs as one fresh Claude Code session (`runStep` of
 * `createClaudeCodeExecutor`), and what happens in it is reported to the runner's observer the
 * way the default executor reports it, so the journal, usage totals and budgets work unchanged.
 *
 * - Every model call → `modelRequest` / `modelResponse` (with the reply's content and usage);
 *   every tool call → `toolCall` / `toolResult`; every refusal of climpt's policy (the SDK's
 *   PreToolUse hook or `canUseTool`) → `toolRefused`.
 * - The toolbox the runner built is what serves the GitHub tools of closure steps, so close and
 *   label requests collect where the boundary hook reads them.
 * - No output matching the schema (after Claude Code's own nudge) → `schema`: the runner spends
 *   the iteration and asks again. Anything else → `failed` with the error's own code (`AC-MODEL-*`
 *   for API failures, which keeps the journal resumable mid-step; `AC-CC-*` for Claude Code's).
 * - `replay` is ignored: a Claude Code session cannot be fed recorded replies, so a step cut off
 *   mid-way runs again from its start on resume (its effects on files stay). A step the journal
 *   recorded as finished is never run again: that is the runner's resume, not the executor's.
 */
export function createClaudeCodeStepExecutor(
  settings: ClaudeCodeSettings = {},
  warmStart: WarmStartOptions = {},
): ClaudeCodeStepExecutor {
  // Checks the settings (AC-CC-004) once, up front.
  createClaudeCodeExecutor(settings);
  const warm = new WarmSessions(settings, warmStart);
  const steps = warmStart.steps;
  return {
    name: "claude-code",
    settings,
    close: () => warm.close(),
    async execute(request: StepExecutionRequest): Promise<StepExecutionResult> {
      const { observer } = request;
      const spec: PhaseSpec = {
        model: request.model,
        system: request.system,
        ...(request.outputSchema === undefined ? {} : { outputSchema: request.outputSchema }),
        cwd: path.resolve(request.cwd),
        agent: request.agent,
        step: request.step,
        toolbox: request.tools,
        ...(request.protectedPaths === undefined ? {} : { protectedPaths: request.protectedPaths }),
        ...(request.maxTurns === undefined ? {} : { maxTurns: request.maxTurns }),
        ...(request.callTimeoutMs === undefined ? {} : { timeoutMs: request.callTimeoutMs }),
      };
      const onEvent = (event: StepEvent): void => {
        if (event.type === "model-request") {
          observer.modelRequest({ call: event.turn, model: event.model, repair: event.repair });
        } else if (event.type === "tool-call") {
          observer.toolCall(event.call);
        } else if (event.type === "tool-result") {
          observer.toolResult({
            call: event.call,
            result: event.result,
            durationMs: event.durationMs,
            replayed: false,
          });
        }
      };
      // The session started ahead for this phase, if the guess was right (same fingerprint);
      // any other is closed here. Then the likeliest next phase starts while this one runs.
      const claimed = steps === undefined ? undefined : await warm.claim(spec, request.signal);
      const guess = steps === undefined ? undefined : nextPhase(spec, steps);
      if (guess !== undefined) warm.prestart(guess, request.signal);
      try {
        const result = await runClaudeCodeStep(
          settings,
          {
            ...spec,
            prompt: request.prompt,
            signal: request.signal,
            onEvent,
            onReply: (reply) =>
              observer.modelResponse({
                call: reply.turn,
                replayed: false,
                durationMs: reply.durationMs,
                reply: {
                  content: reply.content,
                  usage: reply.usage,
                  costUsd: reply.costUsd,
                  stopReason: reply.stopReason,
                  model: reply.model,
                  requestId: reply.requestId,
                },
              }),
            onToolRefused: (refusal) =>
              observer.toolRefused({
                tool: refusal.tool,
                reason: `${refusal.code}: ${refusal.reason}`,
              }),
            ...(observer.textDelta === undefined ? {} : { onTextDelta: observer.textDelta }),
          },
          claimed,
        );
        // The step the answer's intent leads to starts while the runner checks and routes.
        const next = steps === undefined ? undefined : nextPhase(spec, steps, result.output);
        if (next !== undefined) warm.prestart(next, request.signal);
        return { ok: true, output: result.output, text: result.text };
      } catch (error) {
        const reason = StepError.isInstance(error) ? error.reason : undefined;
        if (reason === "schema-invalid" || reason === "output-missing") {
          const schemaError = runErrorOf(error, "FAILED_SCHEMA_RESOLUTION");
          return {
            ok: false,
            reason: "schema",
            error:
              schemaError.family === undefined && schemaError.code !== "FAILED_SCHEMA_RESOLUTION"
                ? { ...schemaError, family: "FAILED_SCHEMA_RESOLUTION" }
                : schemaError,
          };
        }
        return { ok: false, reason: "failed", error: runErrorOf(error, "AGENT_STEP_FAILED") };
      }
    },
  };
}
