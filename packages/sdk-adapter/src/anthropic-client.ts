import Anthropic from "@anthropic-ai/sdk";
import { STEP_HEADER, type ToolCall } from "@climpt/model";
import { type ErrorContext, isBrokenStream, mapSdkError } from "./map-sdk-error.ts";
import { modelId } from "./models.ts";
import { costOf, mergePrices, type PriceTable } from "./prices.ts";
import { watchRequestSent } from "./request-sent.ts";
import {
  credentialScrubber,
  scrubError,
  stderrLogger,
  type TextScrubber,
} from "./scrub-credentials.ts";
import {
  fromContentBlock,
  parseStructured,
  textOf,
  toolCallsOf,
  toParams,
  usageOf,
} from "./to-wire.ts";
import type { ModelClient, ModelRequest, ModelResponse } from "./types.ts";

/** The SDK's logger shape: four methods taking anything. */
export interface SdkLogger {
  error(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
}

export interface AnthropicClientOptions {
  /** Default: the SDK reads ANTHROPIC_API_KEY. */
  readonly apiKey?: string;
  /** Default: the SDK reads ANTHROPIC_BASE_URL, else the public API. */
  readonly baseURL?: string;
  /**
   * How often a failed call is tried again: the SDK's own retry of 408 / 409 / 429 / 5xx and
   * connection errors (honouring `retry-after-ms`), and ours of a stream that broke off after it
   * started. Default 2.
   */
  readonly maxRetries?: number;
  /**
   * Per attempt, both bounds below when they are not given; without streaming, how long the
   * whole answer may take (default 10 minutes: the API answers only when it is done). A
   * request's own value wins over the client's, a specific bound over this one.
   */
  readonly timeoutMs?: number;
  /**
   * Per attempt of a streamed call: how long to wait for the response to start (connection,
   * TLS, the request sent, the response headers). Default `DEFAULT_CONNECT_TIMEOUT_MS` (60 s).
   */
  readonly connectTimeoutMs?: number;
  /**
   * The longest silence between two events of a streamed response, after it started. Default
   * `DEFAULT_STREAM_IDLE_TIMEOUT_MS` (180 s).
   */
  readonly streamIdleTimeoutMs?: number;
  /** Merged over DEFAULT_PRICES, model by model. */
  readonly prices?: PriceTable;
  /**
   * Stream replies (default true). Long outputs need it: the SDK refuses a non-streaming call
   * whose max_tokens could take longer than ten minutes.
   */
  readonly stream?: boolean;
  /**
   * Where the SDK logs; it redacts credentials in what it logs. Default: stderr (never stdout,
   * which `--json` keeps for the result), scrubbed.
   */
  readonly logger?: SdkLogger;
  /**
   * Replaces secrets in error messages and default log lines. Default: a scrubber of the
   * Anthropic credentials this client uses; pass a fuller one (`SecretScrubber` of @climpt/tools).
   */
  readonly scrubber?: TextScrubber;
  readonly logLevel?: "debug" | "info" | "warn" | "error" | "off";
  /** A fetch to use instead of the global one (proxies, tests of the transport). */
  readonly fetch?: typeof fetch;
}

/** Without streaming, the whole answer: the API answers only when the message is complete. */
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * How long a streamed call waits for its response to start. The API sends the headers of a
 * stream at once, before the model generates anything, so a minute is many times what a
 * response takes to start on a slow network; a connection accepted by a stalled proxy or API
 * ends here instead of holding the run.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS: number = 60 * 1000;

/**
 * The longest silence a streamed response may keep. The API sends an event at least every few
 * seconds while it works (text, thinking and tool-input deltas, and `ping` keep-alives between
 * them), so three minutes without one is a stalled connection, not a slow model.
 */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS: number = 3 * 60 * 1000;
const DEFAULT_MAX_RETRIES = 2;

function withoutUserInfo(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "the configured base URL";
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** The bounds of one call's waits, in ms. */
interface CallBounds {
  /** Until the response starts (streaming), or until the whole answer is in (not streaming). */
  readonly startMs: number;
  /** The longest silence between two stream events. */
  readonly idleMs: number;
}

/**
 * A request's bounds: its own specific bound, else its `timeoutMs`, else the client's specific
 * bound, else the client's `timeoutMs`, else the default. Never unbounded.
 */
function callBounds(
  request: ModelRequest,
  options: AnthropicClientOptions,
  streaming: boolean,
  wholeAnswerMs: number,
): CallBounds {
  const startMs = streaming
    ? (request.connectTimeoutMs ??
      request.timeoutMs ??
      options.connectTimeoutMs ??
      options.timeoutMs ??
      DEFAULT_CONNECT_TIMEOUT_MS)
    : (request.timeoutMs ?? wholeAnswerMs);
  const idleMs =
    request.streamIdleTimeoutMs ??
    request.timeoutMs ??
    options.streamIdleTimeoutMs ??
    options.timeoutMs ??
    DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  return { startMs, idleMs };
}

/**
 * A ModelClient on @anthropic-ai/sdk: no HTTP of its own. Streams by default, maps every SDK
 * failure to a coded ModelError, prices each call, and sets prompt-cache breakpoints.
 */
export function createAnthropicClient(options: AnthropicClientOptions = {}): ModelClient {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const prices = mergePrices(options.prices);
  const streaming = options.stream ?? true;
  const scrubber = options.scrubber ?? credentialScrubber(options.apiKey);
  const sdk = new Anthropic({
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    logger: options.logger ?? stderrLogger(scrubber),
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    maxRetries,
    timeout: defaultTimeout,
  });
  const baseURL = withoutUserInfo(sdk.baseURL);

  async function once(
    request: ModelRequest,
    model: string,
    bounds: CallBounds,
    state: { streamStarted: boolean; idleTimedOut: boolean },
  ): Promise<{ message: Anthropic.Message; requestId: string | undefined }> {
    const params = toParams(request, model);
    const requestOptions = {
      timeout: bounds.startMs,
      // Which step asks: a mock matches on it; the API ignores headers it does not know.
      ...(request.stepId === undefined ? {} : { headers: { [STEP_HEADER]: request.stepId } }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    };
    if (!streaming) {
      const { data, request_id } = await sdk.messages.create(params, requestOptions).withResponse();
      return { message: data, requestId: request_id ?? undefined };
    }
    const stream = sdk.messages.stream(params, requestOptions);
    // The SDK's timeout ends when the headers arrive; a stream that then goes silent would hang
    // forever, so an idle timer aborts it.
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      if (idle !== undefined) clearTimeout(idle);
      idle = setTimeout(() => {
        state.idleTimedOut = true;
        stream.abort();
      }, bounds.idleMs);
    };
    stream.on("connect", () => {
      state.streamStarted = true;
      arm();
    });
    stream.on("streamEvent", arm);
    if (request.onTextDelta !== undefined) {
      const onText = request.onTextDelta;
      stream.on("text", (delta) => onText(delta));
    }
    if (request.onToolCall !== undefined) {
      const onToolCall = request.onToolCall;
      stream.on("contentBlock", (block) => {
        if (block.type !== "tool_use") return;
        const converted = fromContentBlock(block);
        if (converted.type === "tool_use") {
          const call: ToolCall = { id: converted.id, name: converted.name, input: converted.input };
          onToolCall(call);
        }
      });
    }
    try {
      const message = await stream.finalMessage();
      return { message, requestId: stream.request_id ?? undefined };
    } finally {
      if (idle !== undefined) clearTimeout(idle);
    }
  }

  async function callWithRetries(request: ModelRequest): Promise<ModelResponse> {
    const model = modelId(request.model);
    const bounds = callBounds(request, options, streaming, defaultTimeout);
    let attempts = 0;
    for (;;) {
      attempts++;
      const state = { streamStarted: false, idleTimedOut: false };
      try {
        const { message, requestId } = await once(request, model, bounds, state);
        const content = message.content.map(fromContentBlock);
        const text = textOf(content);
        const toolCalls = toolCallsOf(content);
        if (!streaming) {
          if (text !== "") request.onTextDelta?.(text);
          for (const call of toolCalls) request.onToolCall?.(call);
        }
        const usage = usageOf(message.usage);
        const cost = costOf(usage, message.model, prices) ?? costOf(usage, model, prices);
        const structuredOutput =
          request.outputSchema === undefined ? undefined : parseStructured(text);
        return {
          content,
          text,
          toolCalls,
          ...(structuredOutput === undefined ? {} : { structuredOutput }),
          usage,
          costUsd: cost ?? 0,
          priced: cost !== undefined,
          stopReason: message.stop_reason,
          model: message.model,
          ...(requestId === undefined ? {} : { requestId }),
        };
      } catch (error) {
        const callerAborted = request.signal?.aborted === true;
        // Without streaming, a TypeError escaping the SDK means the body broke off mid-read
        // (its own connection failures arrive as APIConnectionError).
        const started = state.streamStarted || (!streaming && error instanceof TypeError);
        // The SDK retries only until the response starts; a stream that broke off or went
        // silent after that is tried again from scratch here, within the same retry budget.
        if (
          !callerAborted &&
          (state.idleTimedOut || isBrokenStream(error, started)) &&
          attempts <= maxRetries
        ) {
          await sleep(100 * 2 ** (attempts - 1), request.signal);
          continue;
        }
        const context: ErrorContext = {
          model,
          baseURL,
          timeoutMs: bounds.startMs,
          idleTimeoutMs: bounds.idleMs,
          maxRetries,
          idleTimedOut: state.idleTimedOut,
          callerAborted,
          streamStarted: started,
          attempts,
        };
        throw scrubError(mapSdkError(error, context), scrubber);
      }
    }
  }

  return {
    async call(request: ModelRequest): Promise<ModelResponse> {
      // Watched over every attempt, so the caller hears of the first request only.
      const stopWatching =
        request.onRequestSent === undefined ? undefined : watchRequestSent(request.onRequestSent);
      try {
        return await callWithRetries(request);
      } finally {
        stopWatching?.();
      }
    },
  };
}
