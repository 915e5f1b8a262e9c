/**
 * The model-facing contract of climpt: what a step sends to a model and what comes back, in
 * climpt's own types, so record / replay and other clients need no SDK types.
 */
import type {
  JsonSchema,
  JsonValue,
  ModelContentBlock,
  ToolCall,
  ToolDefinition,
  Usage,
} from "@climpt/model";

// ---------------------------------------------------------------------------------------------
// Conversation

// A reply's blocks and `Usage` live in @climpt/model (the journal and every executor carry
// them, and @climpt/protocol may depend on model alone); re-exported here by name.
export type { ModelContentBlock, Usage } from "@climpt/model";

/** What a user turn can hold besides text: the results of the previous turn's tool calls. */
export type UserContentBlock =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "tool_result";
      readonly toolUseId: string;
      readonly content: string;
      readonly isError: boolean;
    };

export type ConversationMessage =
  | { readonly role: "user"; readonly content: string | readonly UserContentBlock[] }
  | { readonly role: "assistant"; readonly content: readonly ModelContentBlock[] };

// ---------------------------------------------------------------------------------------------
// One model call

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
  };
}

/** The API's stop reasons; other strings pass through as they came. */
export type StopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded"
  | (string & {});

export interface ModelRequest {
  /** `opus` | `sonnet` | `haiku` or a full model id. */
  readonly model: string;
  readonly system?: string;
  readonly messages: readonly ConversationMessage[];
  readonly tools?: readonly ToolDefinition[];
  /** Sent as `output_config.format = {type: "json_schema", schema}`. */
  readonly outputSchema?: JsonSchema;
  readonly maxTokens: number;
  /**
   * The step that asks, sent as the `x-climpt-step` header: the API ignores it, and a mock
   * (`climpt mock`, @climpt/mock) answers by it. Not part of the request's identity (cassette
   * fingerprints leave it out).
   */
  readonly stepId?: string;
  /**
   * Per attempt, both bounds below when they are not given (and, without streaming, how long
   * the whole answer may take). Default: the client's.
   */
  readonly timeoutMs?: number;
  /**
   * Per attempt: how long a streamed call may wait for its response to start (connection, TLS,
   * the request sent, the response headers). Default: the client's (60 s).
   */
  readonly connectTimeoutMs?: number;
  /** The longest silence between two events of a streamed response. Default: the client's (180 s). */
  readonly streamIdleTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Each piece of text as it streams in (once, with the whole text, when not streaming). */
  readonly onTextDelta?: (delta: string) => void;
  /** Each tool call as soon as its input is complete. */
  readonly onToolCall?: (call: ToolCall) => void;
  /**
   * Called once, when the request has left for the API and its reply is being waited for, so
   * the caller can do work that overlaps the wait. A client that cannot tell when that is never
   * calls it.
   */
  readonly onRequestSent?: () => void;
}

export interface ModelResponse {
  readonly content: readonly ModelContentBlock[];
  /** The text blocks, joined. */
  readonly text: string;
  /** The tool_use blocks, as calls. */
  readonly toolCalls: readonly ToolCall[];
  /**
   * When the request carried an output schema: the reply text parsed as JSON, if it parses as it
   * stands. Near misses are salvaged by `runStep`, not here.
   */
  readonly structuredOutput?: JsonValue;
  readonly usage: Usage;
  /** 0 when the model has no price (see `priced`). */
  readonly costUsd: number;
  /** Whether the price table knew the model. */
  readonly priced: boolean;
  readonly stopReason: StopReason | null;
  readonly model: string;
  readonly requestId?: string;
}

/** The one thing the runtime asks of a model. */
export interface ModelClient {
  call(request: ModelRequest): Promise<ModelResponse>;
}
