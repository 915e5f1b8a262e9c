import type { SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
import { ClimptError, type JsonSchema, type JsonValue } from "@climpt/model";
import {
  addUsage,
  type CompiledSchema,
  compileSchema,
  ModelAbortedError,
  ModelAuthError,
  ModelBadRequestError,
  ModelConnectionError,
  ModelError,
  ModelOverloadedError,
  ModelRateLimitError,
  ModelServerError,
  ModelTimeoutError,
  SDK_ADAPTER_CODES,
  StepError,
  type StepFailureReason,
  type StepProgress,
  type StepResult,
  type Usage,
  ZERO_USAGE,
} from "@climpt/sdk-adapter";
import { CLAUDE_CODE_CODES } from "./codes.ts";
import type { StepTranscript } from "./step-transcript.ts";

/** Turns the step's output schema into a validator, or a coded StepError when it cannot compile. */
export function compileStepSchema(schema: JsonSchema | undefined): CompiledSchema | undefined {
  if (schema === undefined) return undefined;
  try {
    return compileSchema(schema);
  } catch (error) {
    throw new StepError({
      reason: "unusable-schema",
      message: `The step's output schema cannot be compiled: ${error instanceof Error ? error.message : String(error)}.`,
      hint: "Fix the schema file the step's outputSchemaRef points at (every $ref must resolve inside the document).",
      cause: error,
      step: { usage: ZERO_USAGE, costUsd: 0, calls: 0, transcript: [] },
    });
  }
}

/**
 * The step's spend as the result reports it: every model call of the session (side calls and
 * subagents included) from `modelUsage`, and Claude Code's own cost estimate. `priced` is false
 * when Claude Code had no price for a model (its cost is then a guess).
 */
function spendOf(
  result: SDKResultMessage,
  transcript: StepTranscript,
): StepProgress & {
  readonly priced: boolean;
} {
  const models = Object.values(result.modelUsage ?? {});
  if (models.length === 0) {
    // A session that failed before any call, or that Claude Code did not total.
    return { ...transcript.progress(), priced: true };
  }
  let usage: Usage = ZERO_USAGE;
  for (const model of models) {
    usage = addUsage(usage, {
      inputTokens: model.inputTokens,
      outputTokens: model.outputTokens,
      cacheCreationInputTokens: model.cacheCreationInputTokens,
      cacheReadInputTokens: model.cacheReadInputTokens,
    });
  }
  return {
    usage,
    costUsd: result.total_cost_usd,
    calls: transcript.turns,
    transcript: [...transcript.transcript],
    priced: models.every((model) => model.costBasis !== "unknown"),
  };
}

function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function stepFailure(
  reason: StepFailureReason,
  message: string,
  hint: string,
  step: StepProgress,
  extra: { text?: string; errors?: readonly string[]; output?: JsonValue } = {},
): StepError {
  return new StepError({
    reason,
    message,
    hint,
    step,
    ...(extra.errors === undefined ? {} : { validationErrors: extra.errors }),
    ...(extra.text === undefined ? {} : { lastText: extra.text }),
    ...(extra.output === undefined ? {} : { lastOutput: extra.output }),
  });
}

/** An API failure Claude Code gave up on (after its own retries), as the adapter's ModelError. */
function apiFailure(result: SDKResultMessage, model: string, step: StepProgress): ModelError {
  const status = "api_error_status" in result ? result.api_error_status : undefined;
  const text = "result" in result && typeof result.result === "string" ? result.result : "";
  const kind = (result as { api_error?: unknown }).api_error;
  const detail = `Claude Code: ${clip(text, 300)}`;
  let error: ModelError;
  if (status === 401 || status === 403) {
    error = new ModelAuthError({
      message: `The Anthropic API refused Claude Code's credentials for ${model} (${detail}).`,
      hint: "Log Claude Code in (`claude /login`) or set ANTHROPIC_API_KEY; check ANTHROPIC_BASE_URL.",
      status,
    });
  } else if (status === 429) {
    error = new ModelRateLimitError({
      message: `The Anthropic API rate limit for ${model} was still exceeded after Claude Code's retries (${detail}).`,
      hint: "Wait, run fewer agents at once, or raise the executor's maxRetries.",
      status,
    });
  } else if (status === 529) {
    error = new ModelOverloadedError({
      message: `The Anthropic API was overloaded for ${model} through Claude Code's retries (${detail}).`,
      hint: "Run later, raise the executor's maxRetries, or pick another model.",
      status,
    });
  } else if (typeof status === "number" && status >= 500) {
    error = new ModelServerError({
      message: `The Anthropic API failed for ${model} through Claude Code's retries (${detail}).`,
      hint: "The API's side; run later.",
      status,
    });
  } else if (typeof status === "number") {
    error = new ModelBadRequestError({
      message: `The Anthropic API rejected Claude Code's request for ${model} (${detail}).`,
      hint: "Check the model id and the step's output schema; a too-large request needs a smaller step.",
      status,
    });
  } else if (kind === "connection_failed") {
    error = new ModelConnectionError({
      message: `Claude Code could not reach the Anthropic API for ${model} (${detail}).`,
      hint: "Check the network and ANTHROPIC_BASE_URL; run again.",
    });
  } else if (/timed out/i.test(text)) {
    error = new ModelTimeoutError({
      message: `The model call timed out in Claude Code for ${model} (${detail}).`,
      hint: "Raise the call timeout (limits.callTimeoutMs); check the network.",
    });
  } else {
    error = new ModelError({
      kind: "unexpected",
      code: SDK_ADAPTER_CODES.unexpected,
      message: `The model call failed in Claude Code for ${model} (${detail}).`,
      hint: "Run again; if it persists, report it with the journal.",
      retryable: false,
    });
  }
  error.step = step;
  return error;
}

export interface OutcomeContext {
  readonly model: string;
  readonly schema: CompiledSchema | undefined;
  readonly maxTurns: number;
  readonly transcript: StepTranscript;
  /** The tail of Claude Code's stderr, secrets removed. */
  readonly stderrTail: () => string;
}

/**
 * The StepResult of a session that ended with a result message, or the coded error it ended on:
 * the same codes the default executor uses for the same failure (`AC-MODEL-*`, `AC-STEP-*`), and
 * `AC-CC-*` for what only Claude Code can fail at.
 */
export function stepOutcome(result: SDKResultMessage, context: OutcomeContext): StepResult {
  const { transcript, model } = context;
  const spend = spendOf(result, transcript);
  const step: StepProgress = {
    usage: spend.usage,
    costUsd: spend.costUsd,
    calls: spend.calls,
    transcript: spend.transcript,
  };
  const text = transcript.lastText;

  if (result.subtype === "error_max_turns") {
    throw stepFailure(
      "max-turns",
      `The model was still calling tools after ${transcript.turns} model calls (the step allows ${context.maxTurns} turns).`,
      "Raise limits.maxTurnsPerStep, or narrow the step's prompt so it needs fewer tool calls.",
      step,
      { text },
    );
  }
  if (result.subtype === "error_max_structured_output_retries") {
    throw stepFailure(
      "output-missing",
      `The model did not return the step's structured output, even after Claude Code asked again. Its last reply began: "${clip(text)}".`,
      "Make the step prompt ask for the JSON output explicitly, and check that the step declares outputSchemaRef.",
      step,
      { text },
    );
  }
  if (result.subtype !== "success") {
    const reason = result.startup_failure_reason;
    const errors = result.errors.join("; ");
    if (reason === "sandbox_required_unavailable") {
      throw new ClimptError({
        code: CLAUDE_CODE_CODES.sandboxUnavailable,
        message: `Claude Code's sandbox cannot start, and a climpt step runs commands only inside it: ${errors}`,
        hint: 'Install bubblewrap and socat (Debian/Ubuntu: apt-get install bubblewrap socat), or set the executor\'s sandbox to "off" to run commands without it.',
      });
    }
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.sessionFailed,
      message: `Claude Code ended the session with ${result.subtype}${reason === undefined ? "" : ` (${reason})`}: ${errors || "no message"}.${tail(context)}`,
      hint: "Read the message; run `claude --version` and a plain `claude -p hello` with the same environment to see whether Claude Code itself starts.",
    });
  }
  if (result.is_error) {
    const apiError = (result as { api_error?: unknown }).api_error;
    if (apiError === "max_output_tokens") {
      throw stepFailure(
        "max-tokens",
        `The reply of ${model} was cut off at its output token limit, even after Claude Code asked it to continue.`,
        "Raise the step's maxTokens, or ask for a shorter output.",
        step,
        { text: clip(text, 2000) },
      );
    }
    if (result.terminal_reason === "prompt_too_long") {
      throw stepFailure(
        "context-window",
        `The conversation outgrew ${model}'s context window after ${transcript.turns} calls.`,
        "Keep tool results smaller (read file ranges, filter command output) or split the step.",
        step,
        { text },
      );
    }
    throw apiFailure(result, model, step);
  }

  let output: JsonValue | undefined;
  if (context.schema !== undefined) {
    const structured = result.structured_output;
    if (structured === undefined || structured === null) {
      // `safety_stops` counts replies a safety classifier stopped; the type does not declare it.
      const safetyStops = (result as { safety_stops?: unknown }).safety_stops;
      const refused =
        transcript.lastStopReason === "refusal" ||
        (typeof safetyStops === "number" && safetyStops > 0);
      if (refused) {
        throw stepFailure(
          "refusal",
          `The model (${model}) refused to answer the step's prompt.`,
          "Read the step's prompt and handoff for content the model will not act on, and rephrase it.",
          step,
          { text },
        );
      }
      throw stepFailure(
        "output-missing",
        `The model gave no structured output for the step, even after Claude Code asked again. Its last reply began: "${clip(text)}".`,
        "Make the step prompt ask for the JSON output explicitly, and check that the step declares outputSchemaRef.",
        step,
        { text },
      );
    }
    output = JSON.parse(JSON.stringify(structured)) as JsonValue;
    // Claude Code checks the output against the schema before it accepts it; climpt checks again
    // with its own validator, so both executors accept exactly the same outputs.
    const errors = context.schema.validate(output);
    if (errors.length > 0) {
      throw stepFailure(
        "schema-invalid",
        `The model's output does not match the step's schema: ${errors.join("; ")}.`,
        "Check that the schema and the step prompt agree (field names, enum values such as the allowed intents).",
        step,
        { errors, text, output },
      );
    }
  }

  return {
    output,
    text: text === "" && output === undefined ? result.result : text,
    usage: spend.usage,
    costUsd: spend.costUsd,
    priced: spend.priced,
    turns: transcript.turns,
    transcript: spend.transcript,
    toolCalls: [...transcript.toolCalls],
    stopReason: transcript.lastStopReason,
    model: transcript.lastModel,
    requestIds: [...transcript.requestIds],
    salvaged: [],
    repaired: transcript.repaired,
  };
}

function tail(context: OutcomeContext): string {
  const text = context.stderrTail().trim();
  return text === "" ? "" : ` Claude Code's stderr ended with: ${clip(text, 600)}`;
}

/** An error thrown by `query()` itself (no result message): a missing binary, an abort, a crash. */
export function thrownOutcome(
  error: unknown,
  context: OutcomeContext & { readonly aborted: boolean },
): Error {
  const step = context.transcript.progress();
  if (context.aborted) {
    const aborted = new ModelAbortedError({
      message: `The Claude Code session for ${context.model} was aborted.`,
      cause: error,
    });
    aborted.step = step;
    return aborted;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/native binary not found|ENOENT|not found at/i.test(message)) {
    return new ClimptError({
      code: CLAUDE_CODE_CODES.executableMissing,
      message: `The Claude Code binary cannot be started: ${message}`,
      hint: "Reinstall with optional dependencies (the SDK's platform package, e.g. @anthropic-ai/claude-agent-sdk-linux-x64, carries the binary), or set the executor's executable to a claude binary.",
      cause: error,
    });
  }
  return new ClimptError({
    code: CLAUDE_CODE_CODES.sessionFailed,
    message: `The Claude Code session failed: ${message}.${tail(context)}`,
    hint: "Run `claude --version` and a plain `claude -p hello` with the same environment to see whether Claude Code itself starts.",
    cause: error,
  });
}
