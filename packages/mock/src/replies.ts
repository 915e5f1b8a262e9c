/**
 * Scripted replies of the fake Anthropic server. Every reply is plain JSON data, so a test can
 * build one with the `reply` helpers and a CLI script file can hold the same thing.
 */

export type FakeStopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded";

export type FakeContentBlock =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "tool_use";
      /** Generated (`toolu_fake_<n>`) when absent. */
      readonly id?: string;
      readonly name: string;
      readonly input: unknown;
    }
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string };

/** Token counts a reply may pin; anything left out is computed from the request and the reply. */
export interface FakeUsageOverride {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_creation_input_tokens?: number;
  readonly cache_read_input_tokens?: number;
}

export interface FakeMessageReply {
  readonly kind: "message";
  readonly content: readonly FakeContentBlock[];
  /** Defaults to `tool_use` when the content has a tool_use block, else `end_turn`. */
  readonly stopReason?: FakeStopReason;
  readonly usage?: FakeUsageOverride;
  /** Defaults to the model the request named. */
  readonly model?: string;
  /** Wait this long before answering (simulated latency). */
  readonly delayMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FakeErrorReply {
  readonly kind: "error";
  readonly status: number;
  /** The API's `error.type`; derived from the status when absent. */
  readonly type?: string;
  readonly message?: string;
  /** `retry-after-ms` header. Retryable statuses default to 1 so SDK retries do not sleep. */
  readonly retryAfterMs?: number;
  /** `retry-after` header, in seconds. */
  readonly retryAfter?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Accept the request and never answer: the client's timeout (or its abort) has to end it. */
export interface FakeHangReply {
  readonly kind: "hang";
}

/**
 * Start answering, then destroy the connection. A streaming request gets the status line and
 * `afterEvents` SSE events of `content`; a non-streaming one gets half of its JSON body.
 */
export interface FakeCutStreamReply {
  readonly kind: "cut-stream";
  readonly content: readonly FakeContentBlock[];
  /** How many SSE events to send before the cut. Default 3 (message_start, ping, first block start). */
  readonly afterEvents?: number;
  /** Instead of dropping the connection, keep it open and send nothing more (a stalled stream). */
  readonly stall?: boolean;
}

/** Answer 200 with a body that is not valid JSON (or an SSE event whose data is not JSON). */
export interface FakeMalformedReply {
  readonly kind: "malformed";
  readonly body?: string;
}

export type FakeReply =
  | FakeMessageReply
  | FakeErrorReply
  | FakeHangReply
  | FakeCutStreamReply
  | FakeMalformedReply;

export interface MessageReplyOptions {
  readonly stopReason?: FakeStopReason;
  readonly usage?: FakeUsageOverride;
  readonly model?: string;
  readonly delayMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ToolUseSpec {
  readonly name: string;
  readonly input: unknown;
  readonly id?: string;
}

export interface ErrorReplyOptions {
  readonly type?: string;
  readonly message?: string;
  readonly retryAfterMs?: number;
  readonly retryAfter?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

function message(
  content: readonly FakeContentBlock[],
  options: MessageReplyOptions = {},
): FakeMessageReply {
  return { kind: "message", content, ...options };
}

/** Builders for scripted replies. */
export const reply = {
  /** Any message: text, tool_use and thinking blocks in order. */
  // Not the shorthand `message`: the published declarations are written without a type checker
  // (tsdown.shared.ts), and a shorthand property's type is another declaration's.
  message: message as typeof message,
  /** A plain text answer (`end_turn`). */
  text(text: string, options: MessageReplyOptions = {}): FakeMessageReply {
    return message([{ type: "text", text }], options);
  },
  /**
   * A tool call (`tool_use`). Pass one spec or several; `options.text` puts a text block before
   * the calls, as the model often explains what it is about to do.
   */
  toolUse(
    calls: ToolUseSpec | readonly ToolUseSpec[],
    options: MessageReplyOptions & { readonly text?: string } = {},
  ): FakeMessageReply {
    const { text, ...rest } = options;
    const specs: readonly ToolUseSpec[] = Array.isArray(calls) ? calls : [calls as ToolUseSpec];
    const blocks: FakeContentBlock[] = text === undefined ? [] : [{ type: "text", text }];
    for (const spec of specs) {
      blocks.push({
        type: "tool_use",
        name: spec.name,
        input: spec.input,
        ...(spec.id === undefined ? {} : { id: spec.id }),
      });
    }
    return message(blocks, rest);
  },
  /** Structured output as the API returns it: one text block holding the JSON. */
  json(value: unknown, options: MessageReplyOptions = {}): FakeMessageReply {
    return message([{ type: "text", text: JSON.stringify(value) }], options);
  },
  /** An API error with the real body shape; `retry-after-ms` is set small on retryable statuses. */
  error(status: number, options: ErrorReplyOptions = {}): FakeErrorReply {
    return { kind: "error", status, ...options };
  },
  hang(): FakeHangReply {
    return { kind: "hang" };
  },
  cutStream(
    content: readonly FakeContentBlock[] = [
      { type: "text", text: "This reply is cut off in the middle of a sentence" },
    ],
    options: { readonly afterEvents?: number; readonly stall?: boolean } = {},
  ): FakeCutStreamReply {
    return { kind: "cut-stream", content, ...options };
  },
  malformed(body?: string): FakeMalformedReply {
    return body === undefined ? { kind: "malformed" } : { kind: "malformed", body };
  },
} as const;

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  409: "conflict_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  502: "api_error",
  503: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

const ERROR_MESSAGES: Readonly<Record<string, string>> = {
  invalid_request_error: "There was an issue with the format or content of your request.",
  authentication_error: "invalid x-api-key",
  permission_error: "Your API key does not have permission to use the specified resource.",
  not_found_error: "The requested resource could not be found.",
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit.",
  api_error: "Internal server error",
  overloaded_error: "Overloaded",
};

export function errorTypeFor(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

export function errorMessageFor(type: string): string {
  return ERROR_MESSAGES[type] ?? `Fake ${type}`;
}

/** Statuses the SDK retries; the fake tells it to retry after 1 ms unless the reply says otherwise. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
