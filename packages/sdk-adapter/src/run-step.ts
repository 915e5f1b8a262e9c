import type { JsonSchema, JsonValue, ToolCall, ToolExecutor, ToolResult } from "@climpt/model";
import { ModelError, StepError, type StepFailureReason, type StepProgress } from "./errors.ts";
import { modelId } from "./models.ts";
import { type OutputCandidate, outputCandidates, type SalvageKind } from "./salvage.ts";
import { schemaCompileTiming } from "./schema-compile-timing.ts";
import { type CompiledSchema, compiledBefore, compileSchema } from "./schema-validator.ts";
import {
  addUsage,
  type ConversationMessage,
  type ModelClient,
  type ModelResponse,
  type StopReason,
  type Usage,
  type UserContentBlock,
  ZERO_USAGE,
} from "./types.ts";

/** What happened inside a step, as it happens (the runner journals these). */
export type StepEvent =
  | {
      readonly type: "model-request";
      readonly turn: number;
      readonly model: string;
      readonly messages: number;
      readonly repair: boolean;
    }
  | {
      readonly type: "model-response";
      readonly turn: number;
      readonly model: string;
      readonly stopReason: StopReason | null;
      readonly usage: Usage;
      readonly costUsd: number;
      readonly requestId?: string;
      readonly durationMs: number;
    }
  | { readonly type: "tool-call"; readonly turn: number; readonly call: ToolCall }
  | {
      readonly type: "tool-result";
      readonly turn: number;
      readonly call: ToolCall;
      readonly result: ToolResult;
      readonly durationMs: number;
    }
  | { readonly type: "salvage"; readonly turn: number; readonly kinds: readonly SalvageKind[] }
  | {
      readonly type: "repair";
      readonly turn: number;
      readonly reason: "schema-invalid" | "output-missing";
      readonly errors: readonly string[];
    };

export interface RunStepOptions {
  readonly client: ModelClient;
  /** An alias or a full id; resolve step > agent > opus with `resolveModel` first. */
  readonly model: string;
  readonly system?: string;
  /** The resolved step prompt: the first (and only) user message of a fresh conversation. */
  readonly prompt: string;
  /** The step's output schema. Without one the step returns the final text and no output. */
  readonly outputSchema?: JsonSchema;
  /**
   * What a reply is checked against when that differs from `outputSchema`: the same schema with
   * its intent enum widened by the aliases of the allowed intents (`Step.acceptedOutputSchema`),
   * so `"retry"` under an enum of `repeat` is accepted and the gate maps it. The model is still
   * sent `outputSchema`. Ignored without `outputSchema`.
   */
  readonly acceptedOutputSchema?: JsonSchema;
  readonly tools?: ToolExecutor;
  /** Model calls allowed before the step must have stopped asking for tools. Default 30. */
  readonly maxTurns?: number;
  /** Per call. Default 16000. */
  readonly maxTokens?: number;
  /** Per call (see ModelRequest.timeoutMs). Default: the client's. */
  readonly timeoutMs?: number;
  /** Per call (see ModelRequest.connectTimeoutMs). Default: the client's. */
  readonly connectTimeoutMs?: number;
  /** Per call (see ModelRequest.streamIdleTimeoutMs). Default: the client's. */
  readonly streamIdleTimeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: StepEvent) => void;
  readonly onTextDelta?: (delta: string) => void;
}

export interface ToolCallRecord {
  readonly turn: number;
  readonly call: ToolCall;
  readonly result: ToolResult;
  readonly durationMs: number;
}

export interface StepResult {
  /** The validated structured output; undefined when the step had no output schema. */
  readonly output: JsonValue | undefined;
  /** The final reply's text. */
  readonly text: string;
  /** Summed over every call of the step. */
  readonly usage: Usage;
  readonly costUsd: number;
  /** False when a call's model had no price (its cost counted as 0). */
  readonly priced: boolean;
  /** Model calls made, the repair turn included. */
  readonly turns: number;
  /** The whole conversation: the prompt, every reply and every tool-result turn. */
  readonly transcript: readonly ConversationMessage[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly stopReason: StopReason | null;
  readonly model: string;
  readonly requestIds: readonly string[];
  /** How the output was recovered from a near miss; empty when it came as asked. */
  readonly salvaged: readonly SalvageKind[];
  /** Whether the repair turn was needed. */
  readonly repaired: boolean;
}

const DEFAULT_MAX_TURNS = 30;
const DEFAULT_MAX_TOKENS = 16_000;

type Extraction =
  | { readonly ok: true; readonly candidate: OutputCandidate }
  | {
      readonly ok: false;
      readonly reason: "schema-invalid" | "output-missing";
      readonly errors: readonly string[];
      readonly best?: JsonValue;
    };

function extract(text: string, schema: CompiledSchema): Extraction {
  const candidates = outputCandidates(text);
  if (candidates.length === 0) {
    return { ok: false, reason: "output-missing", errors: ["the reply holds no JSON value"] };
  }
  let best: { candidate: OutputCandidate; errors: readonly string[] } | undefined;
  for (const candidate of candidates) {
    const errors = schema.validate(candidate.value);
    if (errors.length === 0) return { ok: true, candidate };
    if (best === undefined || errors.length < best.errors.length) best = { candidate, errors };
  }
  return {
    ok: false,
    reason: "schema-invalid",
    errors: best?.errors ?? [],
    ...(best === undefined ? {} : { best: best.candidate.value }),
  };
}

function repairPrompt(
  reason: "schema-invalid" | "output-missing",
  errors: readonly string[],
): string {
  const head =
    reason === "output-missing"
      ? "Your last reply did not contain the JSON object this step requires."
      : "Your last reply did not match the JSON schema this step requires:";
  const list =
    reason === "output-missing" ? "" : `\n${errors.map((line) => `- ${line}`).join("\n")}`;
  return `${head}${list}\nReply again with only the corrected JSON object: no prose, no code fence.`;
}

function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

async function executeTool(
  tools: ToolExecutor | undefined,
  call: ToolCall,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  if (tools === undefined) {
    return {
      content: `No tools are available in this step; "${call.name}" cannot run.`,
      isError: true,
    };
  }
  if (!tools.definitions.some((definition) => definition.name === call.name)) {
    const names = tools.definitions.map((definition) => definition.name).join(", ");
    return {
      content: `Unknown tool "${call.name}". Available tools: ${names || "none"}.`,
      isError: true,
    };
  }
  try {
    return await tools.execute(call, signal);
  } catch (error) {
    // A tool that throws is the model's problem to work around, not the step's end; an abort is.
    if (signal?.aborted === true) throw error;
    return {
      content: `Tool "${call.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
      isError: true,
    };
  }
}

/**
 * One step as one fresh conversation (docs/design.md#a-run): the system prompt and the step prompt,
 * then the tool loop (each tool_use runs through the executor and comes back as a tool_result
 * turn), then the structured output: salvaged from near misses, validated against the step schema,
 * and given one repair turn before a coded StepError. Usage and cost are summed over every call.
 */
export async function runStep(options: RunStepOptions): Promise<StepResult> {
  const model = modelId(options.model);
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const emit = options.onEvent ?? (() => {});
  const definitions = options.tools?.definitions ?? [];

  // The output schema is compiled while the first request waits for its reply when that is safe
  // (see schema-compile-timing.ts); a reply is never checked before the compile has run.
  const schemaInput =
    options.outputSchema === undefined
      ? undefined
      : (options.acceptedOutputSchema ?? options.outputSchema);
  // A schema an earlier step compiled (the usual case from the second step on) needs no check,
  // no deferral and no watching for the request.
  let schema: CompiledSchema | undefined =
    schemaInput === undefined ? undefined : compiledBefore(schemaInput);
  let schemaError: unknown;
  const unusableSchema = (cause: unknown, step: StepProgress): StepError =>
    new StepError({
      reason: "unusable-schema",
      message: `The step's output schema cannot be compiled: ${cause instanceof Error ? cause.message : String(cause)}.`,
      hint: "Fix the schema file the step's outputSchemaRef points at (every $ref must resolve inside the document).",
      cause,
      step,
    });
  const compileOutputSchema = (): void => {
    if (schemaInput === undefined || schema !== undefined || schemaError !== undefined) return;
    try {
      schema = compileSchema(schemaInput);
    } catch (error) {
      schemaError = error;
    }
  };
  if (schemaInput !== undefined && schema === undefined) {
    const timing = schemaCompileTiming(schemaInput);
    if (typeof timing === "object") schemaError = new Error(timing.problem);
    else if (timing === "before-call") compileOutputSchema();
    if (schemaError !== undefined) {
      throw unusableSchema(schemaError, {
        usage: ZERO_USAGE,
        costUsd: 0,
        calls: 0,
        transcript: [],
      });
    }
  }

  const transcript: ConversationMessage[] = [{ role: "user", content: options.prompt }];
  const toolCalls: ToolCallRecord[] = [];
  const requestIds: string[] = [];
  let usage = ZERO_USAGE;
  let costUsd = 0;
  let priced = true;
  let turns = 0;
  let toolTurns = 0;
  let repaired = false;

  const progress = (): StepProgress => ({
    usage,
    costUsd,
    calls: turns,
    transcript: [...transcript],
  });
  const fail = (
    reason: StepFailureReason,
    message: string,
    hint: string,
    extra: { errors?: readonly string[]; text?: string; output?: JsonValue } = {},
  ): StepError =>
    new StepError({
      reason,
      message,
      hint,
      step: progress(),
      ...(extra.errors === undefined ? {} : { validationErrors: extra.errors }),
      ...(extra.text === undefined ? {} : { lastText: extra.text }),
      ...(extra.output === undefined ? {} : { lastOutput: extra.output }),
    });

  async function call(repair: boolean): Promise<ModelResponse> {
    turns++;
    emit({ type: "model-request", turn: turns, model, messages: transcript.length, repair });
    const started = performance.now();
    // Until the schema is compiled, the request carries the compile: it runs once the request
    // is out, and a schema that fails to compile stops the wait for a reply it could not check.
    const schemaAbort =
      schemaInput !== undefined && schema === undefined && schemaError === undefined
        ? new AbortController()
        : undefined;
    const signal =
      schemaAbort === undefined || options.signal === undefined
        ? (schemaAbort?.signal ?? options.signal)
        : AbortSignal.any([options.signal, schemaAbort.signal]);
    let response: ModelResponse;
    try {
      response = await options.client.call({
        model,
        ...(options.system === undefined ? {} : { system: options.system }),
        messages: transcript,
        ...(definitions.length === 0 ? {} : { tools: definitions }),
        ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
        maxTokens,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.connectTimeoutMs === undefined
          ? {}
          : { connectTimeoutMs: options.connectTimeoutMs }),
        ...(options.streamIdleTimeoutMs === undefined
          ? {}
          : { streamIdleTimeoutMs: options.streamIdleTimeoutMs }),
        ...(signal === undefined ? {} : { signal }),
        ...(options.onTextDelta === undefined ? {} : { onTextDelta: options.onTextDelta }),
        ...(schemaAbort === undefined
          ? {}
          : {
              onRequestSent: () => {
                compileOutputSchema();
                if (schemaError !== undefined) schemaAbort.abort(schemaError);
              },
            }),
      });
    } catch (error) {
      if (schemaAbort?.signal.aborted === true) throw unusableSchema(schemaError, progress());
      if (ModelError.isInstance(error)) error.step = progress();
      throw error;
    }
    usage = addUsage(usage, response.usage);
    costUsd += response.costUsd;
    priced &&= response.priced;
    if (response.requestId !== undefined) requestIds.push(response.requestId);
    emit({
      type: "model-response",
      turn: turns,
      model: response.model,
      stopReason: response.stopReason,
      usage: response.usage,
      costUsd: response.costUsd,
      ...(response.requestId === undefined ? {} : { requestId: response.requestId }),
      durationMs: performance.now() - started,
    });
    transcript.push({ role: "assistant", content: response.content });
    // A client that cannot tell when its request left compiles here, after the reply.
    compileOutputSchema();
    if (schemaError !== undefined) throw unusableSchema(schemaError, progress());
    return response;
  }

  let response = await call(false);
  for (;;) {
    if (response.stopReason === "tool_use" || response.stopReason === "pause_turn") {
      toolTurns++;
      if (toolTurns >= maxTurns) {
        throw fail(
          "max-turns",
          `The model was still calling tools after ${turns} model calls (the step allows ${maxTurns}).`,
          "Raise limits.maxTurnsPerStep, or narrow the step's prompt so it needs fewer tool calls.",
          { text: response.text },
        );
      }
      if (response.stopReason === "tool_use") {
        const results: UserContentBlock[] = [];
        for (const toolCall of response.toolCalls) {
          emit({ type: "tool-call", turn: turns, call: toolCall });
          const started = performance.now();
          const result = await executeTool(options.tools, toolCall, options.signal);
          const durationMs = performance.now() - started;
          toolCalls.push({ turn: turns, call: toolCall, result, durationMs });
          emit({ type: "tool-result", turn: turns, call: toolCall, result, durationMs });
          results.push({
            type: "tool_result",
            toolUseId: toolCall.id,
            content: result.content,
            isError: result.isError,
          });
        }
        transcript.push({ role: "user", content: results });
      }
      // pause_turn: the API paused a long turn; sending the conversation back resumes it.
      response = await call(false);
      continue;
    }

    if (response.stopReason === "refusal") {
      throw fail(
        "refusal",
        `The model (${response.model}) refused to answer the step's prompt.`,
        "Read the step's prompt and handoff for content the model will not act on, and rephrase it.",
        { text: response.text },
      );
    }
    if (response.stopReason === "model_context_window_exceeded") {
      throw fail(
        "context-window",
        `The conversation outgrew ${response.model}'s context window after ${turns} calls.`,
        "Keep tool results smaller (read file ranges, filter command output) or split the step.",
        { text: response.text },
      );
    }

    if (schema === undefined) {
      return finish(undefined, [], response);
    }
    const extraction = extract(response.text, schema);
    if (extraction.ok) {
      if (extraction.candidate.salvage.length > 0) {
        emit({ type: "salvage", turn: turns, kinds: extraction.candidate.salvage });
      }
      return finish(extraction.candidate.value, extraction.candidate.salvage, response);
    }
    if (response.stopReason === "max_tokens") {
      // A repair turn would be cut off at the same limit: fail now and say so.
      throw fail(
        "max-tokens",
        `The reply of ${response.model} was cut off at max_tokens (${maxTokens}) before its JSON was complete.`,
        "Raise the step's maxTokens, or ask for a shorter output.",
        { errors: extraction.errors, text: clip(response.text, 2000) },
      );
    }
    if (!repaired) {
      repaired = true;
      emit({ type: "repair", turn: turns, reason: extraction.reason, errors: extraction.errors });
      transcript.push({
        role: "user",
        content: repairPrompt(extraction.reason, extraction.errors),
      });
      response = await call(true);
      continue;
    }
    if (extraction.reason === "output-missing") {
      throw fail(
        "output-missing",
        `The model gave no JSON output for the step, even after a repair turn. Its last reply began: "${clip(response.text)}".`,
        "Make the step prompt ask for the JSON output explicitly, and check that the step declares outputSchemaRef.",
        { errors: extraction.errors, text: response.text },
      );
    }
    throw fail(
      "schema-invalid",
      `The model's output does not match the step's schema, even after a repair turn: ${extraction.errors.join("; ")}.`,
      "Check that the schema and the step prompt agree (field names, enum values such as the allowed intents).",
      {
        errors: extraction.errors,
        text: response.text,
        ...(extraction.best === undefined ? {} : { output: extraction.best }),
      },
    );
  }

  function finish(
    output: JsonValue | undefined,
    salvaged: readonly SalvageKind[],
    last: ModelResponse,
  ): StepResult {
    return {
      output,
      text: last.text,
      usage,
      costUsd,
      priced,
      turns,
      transcript: [...transcript],
      toolCalls: [...toolCalls],
      stopReason: last.stopReason,
      model: last.model,
      requestIds: [...requestIds],
      salvaged,
      repaired,
    };
  }
}
