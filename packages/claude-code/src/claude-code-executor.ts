import { query, type SDKResultMessage, type WarmQuery } from "@anthropic-ai/claude-agent-sdk";
import {
  type AgentDefinition,
  ClimptError,
  type JsonSchema,
  type JsonValue,
  type Step,
} from "@climpt/model";
import type { StepEvent, StepResult, ToolExecutor } from "@climpt/sdk-adapter";
import type { ProtectedPath } from "@climpt/tools";
import { CLAUDE_CODE_CODES } from "./codes.ts";
import type { Env, SandboxOptions } from "./session-env.ts";
import { planSession, type SessionPlan } from "./session-plan.ts";
import { stepOutcome, thrownOutcome } from "./step-outcome.ts";
import { type ModelReply, StepTranscript } from "./step-transcript.ts";

/** Which settings files Claude Code reads (`~/.claude`, the project's `.claude/`, the local one). */
export type SettingSource = "user" | "project" | "local";

/** How the executor runs Claude Code: the same for every step of a run. */
export interface ClaudeCodeSettings {
  /** The environment Claude Code starts from (credentials, HOME, PATH). Default: this process's. */
  readonly env?: Env;
  /** A `claude` binary to run instead of the one the SDK's platform package carries. */
  readonly executable?: string;
  /** Default: all three, as `claude` reads them; `[]` reads none (no CLAUDE.md either). */
  readonly settingSources?: readonly SettingSource[];
  /**
   * `"required"` (default): commands run in Claude Code's OS sandbox (writes only in the working
   * directory, no network but `allowedDomains`, no API credentials), and a step fails with
   * `AC-CC-002` when it cannot start. `"off"`: commands run unsandboxed with the session's
   * environment, credentials included; only the policy checks guard them.
   */
  readonly sandbox?: "required" | "off";
  /** Domains sandboxed commands may reach. Default: none. */
  readonly allowedDomains?: SandboxOptions["allowedDomains"];
  /**
   * `"agent"` (default): the agent's system prompt is the whole system prompt, as with the default
   * executor. `"claude-code"`: Claude Code's own system prompt with the agent's appended (about
   * 10k more input tokens per call, and Claude Code's guidance on its tools).
   */
  readonly systemPrompt?: "agent" | "claude-code";
  /** API retries inside Claude Code per call. Default: Claude Code's own (10). */
  readonly maxRetries?: number;
  /** Each line Claude Code writes to stderr, secrets removed. */
  readonly onStderr?: (text: string) => void;
}

/** A refused tool call, as the default executor's toolbox reports one (`tool_refused`). */
export interface ToolRefusalEvent {
  readonly id: string;
  readonly tool: string;
  readonly code: string;
  readonly reason: string;
  readonly input: JsonValue;
}

/** One step phase, as the runner hands it to an executor. */
export interface ClaudeCodeStepInput {
  /** An alias (`opus`, `sonnet`, `haiku`) or a full model id. */
  readonly model: string;
  readonly system?: string;
  /** The resolved step prompt: the first (and only) user message of a fresh session. */
  readonly prompt: string;
  /** The step's output schema, sent as Claude Code's structured output. */
  readonly outputSchema?: JsonSchema;
  /** The run's working directory (absolute). */
  readonly cwd: string;
  readonly agent: AgentDefinition;
  readonly step: Step;
  /**
   * The climpt toolbox of this step execution (`createToolbox`). Its GitHub tools are offered to
   * the model in closure steps, so close and label requests collect there for the boundary hook.
   */
  readonly toolbox?: ToolExecutor;
  /**
   * What no tool of the run may change (the journal folder, the agent definitions): the guard
   * refuses Write, Edit and NotebookEdit there, and Claude Code's sandbox holds them read-only.
   */
  readonly protectedPaths?: readonly ProtectedPath[];
  /** Model calls allowed in the step (Claude Code's `maxTurns`). Default 30. */
  readonly maxTurns?: number;
  /** Output tokens per call. Default: Claude Code's. */
  readonly maxTokens?: number;
  /** Per API request, in ms. Default: Claude Code's. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: StepEvent) => void;
  readonly onTextDelta?: (delta: string) => void;
  readonly onToolRefused?: (event: ToolRefusalEvent) => void;
  /** Each finished model call with its content (what a journal records of a reply). */
  readonly onReply?: (reply: ModelReply) => void;
}

export interface ClaudeCodeExecutor {
  readonly name: "claude-code";
  readonly settings: ClaudeCodeSettings;
  /** Runs one step phase as one fresh Claude Code session. */
  runStep(input: ClaudeCodeStepInput): Promise<StepResult>;
}

const SETTING_SOURCES: readonly SettingSource[] = ["user", "project", "local"];

function checkSettings(settings: ClaudeCodeSettings): void {
  const bad = (settings.settingSources ?? []).filter((source) => !SETTING_SOURCES.includes(source));
  if (bad.length > 0) {
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.badSettings,
      message: `Unknown Claude Code settings source(s): ${bad.join(", ")}.`,
      hint: `Use any of ${SETTING_SOURCES.join(", ")}, or [] to read no settings files.`,
    });
  }
  if (
    settings.sandbox !== undefined &&
    settings.sandbox !== "required" &&
    settings.sandbox !== "off"
  ) {
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.badSettings,
      message: `The executor's sandbox setting is "${String(settings.sandbox)}".`,
      hint: 'Use "required" (the default) or "off".',
    });
  }
}

/**
 * The Claude Code executor: each step phase runs as one fresh Claude Code session through the
 * Claude Agent SDK's `query()`, under climpt's tool policy, and returns the same `StepResult`
 * (and `StepEvent`s) as the default executor's `runStep`.
 */
export function createClaudeCodeExecutor(settings: ClaudeCodeSettings = {}): ClaudeCodeExecutor {
  checkSettings(settings);
  return {
    name: "claude-code",
    settings,
    runStep: (input) => runClaudeCodeStep(settings, input),
  };
}

/** A session started ahead for this step (warm-sessions.ts): its plan and its warm process. */
export interface ClaimedSession {
  readonly plan: SessionPlan;
  readonly warm: WarmQuery;
}

/**
 * Runs one step phase: in the pre-started session `claimed` when there is one (its plan was
 * built from the same fingerprint as this step's: same policy, same options), else in a fresh
 * one.
 */
export async function runClaudeCodeStep(
  settings: ClaudeCodeSettings,
  input: ClaudeCodeStepInput,
  claimed?: ClaimedSession,
): Promise<StepResult> {
  const plan = claimed?.plan ?? (await planSession(settings, input));
  plan.bind({ onToolRefused: input.onToolRefused });
  const { abortController, model, schema, maxTurns } = plan;
  const transcript = new StepTranscript({
    prompt: input.prompt,
    model,
    ...(input.onEvent === undefined ? {} : { onEvent: input.onEvent }),
    ...(input.onTextDelta === undefined ? {} : { onTextDelta: input.onTextDelta }),
    ...(input.onReply === undefined ? {} : { onReply: input.onReply }),
  });
  const onAbort = (): void => abortController.abort();
  if (input.signal?.aborted === true) abortController.abort();
  input.signal?.addEventListener("abort", onAbort, { once: true });

  const context = { model, schema, maxTurns, transcript, stderrTail: plan.stderrTail };
  let result: SDKResultMessage | undefined;
  try {
    const session =
      claimed === undefined
        ? query({ prompt: input.prompt, options: plan.options })
        : claimed.warm.query(input.prompt);
    for await (const message of session) {
      if (message.type === "result") {
        result ??= message;
        continue;
      }
      transcript.accept(message);
    }
  } catch (error) {
    // query() throws after an error result too ("Claude Code returned an error result"): the
    // result message says more than the exception, so it decides when there is one.
    if (result === undefined || abortController.signal.aborted) {
      transcript.finish();
      throw thrownOutcome(error, { ...context, aborted: abortController.signal.aborted });
    }
  } finally {
    input.signal?.removeEventListener("abort", onAbort);
    await plan.release();
  }
  transcript.finish();
  if (result === undefined) {
    throw thrownOutcome(new Error("the session ended without a result message"), {
      ...context,
      aborted: abortController.signal.aborted,
    });
  }
  return stepOutcome(result, context);
}
