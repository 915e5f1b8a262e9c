import {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk";
import {
  ModelAbortedError,
  ModelAuthError,
  ModelBadRequestError,
  ModelConnectionError,
  ModelError,
  ModelOverloadedError,
  ModelRateLimitError,
  ModelResponseError,
  ModelServerError,
  ModelTimeoutError,
  SDK_ADAPTER_CODES,
} from "./errors.ts";

export interface ErrorContext {
  readonly model: string;
  /** The base URL without credentials, for connection messages. */
  readonly baseURL: string;
  /** How long the response had to start. */
  readonly timeoutMs: number;
  /** The longest silence a stream was allowed. */
  readonly idleTimeoutMs: number;
  readonly maxRetries: number;
  /** Our stream idle timer fired (the SDK then reports a user abort). */
  readonly idleTimedOut: boolean;
  /** The caller's signal fired. */
  readonly callerAborted: boolean;
  /** Whether the response had started to stream when the error came. */
  readonly streamStarted: boolean;
  /** How many times the call was tried from scratch after broken streams (1 = once). */
  readonly attempts: number;
}

function isSyntaxError(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  return error instanceof Error && error.cause instanceof SyntaxError;
}

/** Anthropic's own API hosts: a server error there is Anthropic's to fix. */
const ANTHROPIC_HOSTS = /(^|\.)anthropic\.com$/;

/**
 * Who answered a server error, and what to do about it. From Anthropic's API it is on their side;
 * from another ANTHROPIC_BASE_URL (a local mock, a proxy, a gateway) "run again later" would send
 * the user waiting for a server that is theirs: name it, and say to look at its own log.
 */
function serverOf(baseURL: string): { readonly name: string; readonly hint: string } {
  let host = "";
  try {
    host = new URL(baseURL).hostname;
  } catch {
    // An unparsable base URL is not Anthropic's: described by what it is.
  }
  if (ANTHROPIC_HOSTS.test(host)) {
    return { name: "The Anthropic API", hint: "This is on the API's side; run again later." };
  }
  return {
    name: `The model server at ${baseURL} (ANTHROPIC_BASE_URL)`,
    hint: `The server at ${baseURL} is not Anthropic's API: its own log says why it failed (a local mock, proxy or gateway). Fix it, or unset ANTHROPIC_BASE_URL to use Anthropic's API.`,
  };
}

function apiDetail(error: APIError): string {
  const parts = [
    error.status === undefined ? undefined : `HTTP ${error.status}`,
    error.type ?? undefined,
  ].filter((part) => part !== undefined);
  const head = parts.join(" ");
  const message = error.apiMessage ?? undefined;
  const request = requestIdOf(error);
  return [
    head && message ? `${head}: ${message}` : head || message,
    request && `request ${request}`,
  ]
    .filter((part) => part !== undefined && part !== "")
    .join("; ");
}

function requestIdOf(error: APIError): string | undefined {
  if (typeof error.requestID === "string") return error.requestID;
  const body = error.error as { request_id?: unknown } | undefined;
  return typeof body?.request_id === "string" ? body.request_id : undefined;
}

function retryAfterMsOf(error: APIError): number | undefined {
  const headers = error.headers;
  if (headers === undefined) return undefined;
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms)) return ms;
  const seconds = Number.parseFloat(headers.get("retry-after") ?? "");
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

function attemptsText(context: ErrorContext): string {
  const attempts = context.maxRetries + 1;
  return attempts === 1 ? "1 attempt" : `${attempts} attempts`;
}

/**
 * Turn whatever the SDK threw into a coded `ModelError` that says what happened, on which model,
 * with which request id, and how to fix it. The SDK's error stays reachable as `cause`.
 * Never puts credentials in a message: SDK errors do not carry them, and the base URL is passed
 * in with any user-info removed.
 */
export function mapSdkError(error: unknown, context: ErrorContext): ModelError {
  if (ModelError.isInstance(error)) return error;
  const model = context.model;

  if (context.callerAborted) {
    return new ModelAbortedError({
      message: `The call to ${model} was cancelled by its caller.`,
      cause: error,
    });
  }
  if (context.idleTimedOut) {
    return new ModelTimeoutError({
      phase: "idle",
      message: `The model call timed out: the response stream from ${model} went silent for ${context.idleTimeoutMs} ms (${context.attempts === 1 ? "1 attempt" : `${context.attempts} attempts`}).`,
      hint: "The API sends events (pings at least) while it works, so a silent stream is a stalled connection; run again (climpt resume continues the run). To allow longer silences: agent.json limits.streamIdleTimeoutMs, climpt run --stream-idle-timeout, CLIMPT_STREAM_IDLE_TIMEOUT, or streamIdleTimeoutMs of the client.",
      cause: error,
    });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelTimeoutError({
      phase: "start",
      message: `The model call timed out: ${model} did not start answering within ${context.timeoutMs} ms on any of ${attemptsText(context)}.`,
      hint: "Check the network and ANTHROPIC_BASE_URL, then run again (climpt resume continues the run). To wait longer for a response to start: agent.json limits.connectTimeoutMs, climpt run --connect-timeout, CLIMPT_CONNECT_TIMEOUT, or connectTimeoutMs of the client.",
      cause: error,
    });
  }
  if (error instanceof APIUserAbortError) {
    return new ModelAbortedError({ message: `The call to ${model} was aborted.`, cause: error });
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return new ModelConnectionError({
      message: `Could not reach the Anthropic API at ${context.baseURL} (${attemptsText(context)})${cause}.`,
      hint: "Check the network and ANTHROPIC_BASE_URL; a transient failure can simply be run again.",
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const detail = apiDetail(error);
    const requestId = requestIdOf(error);
    const common = {
      cause: error,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(requestId === undefined ? {} : { requestId }),
    };
    const status = error.status;
    const type = error.type;
    if (
      status === 401 ||
      status === 403 ||
      type === "authentication_error" ||
      type === "permission_error"
    ) {
      return new ModelAuthError({
        ...common,
        message: `The Anthropic API refused the credentials for ${model} (${detail}).`,
        hint: "Set ANTHROPIC_API_KEY to a valid key (or pass apiKey to createAnthropicClient), and check that ANTHROPIC_BASE_URL points at the API you mean.",
      });
    }
    if (status === 429 || type === "rate_limit_error") {
      const retryAfterMs = retryAfterMsOf(error);
      return new ModelRateLimitError({
        ...common,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        message: `The Anthropic API rate limit for ${model} was still exceeded after ${attemptsText(context)} (${detail}).`,
        hint: "Wait and run again, run fewer agents at once, or raise maxRetries.",
      });
    }
    if (status === 529 || type === "overloaded_error") {
      return new ModelOverloadedError({
        ...common,
        message: `The Anthropic API was overloaded for ${model} on ${attemptsText(context)} (${detail}).`,
        hint: "Run again later, raise maxRetries, or choose another model for the step (step.model or --model).",
      });
    }
    if (status !== undefined && status >= 500) {
      const server = serverOf(context.baseURL);
      return new ModelServerError({
        ...common,
        message: `${server.name} failed on ${attemptsText(context)} for ${model} (${detail}).`,
        hint: server.hint,
      });
    }
    if (status === undefined && type === "api_error") {
      const server = serverOf(context.baseURL);
      return new ModelServerError({
        ...common,
        message: `${server.name} reported an error in the middle of the response stream for ${model} (${detail}).`,
        hint: server.hint,
      });
    }
    return new ModelBadRequestError({
      ...common,
      message: `The Anthropic API rejected the request for ${model} (${detail || "no details"}).`,
      // A mock script (`climpt mock`, `--mock`) that has no answer says so with its own code.
      hint: detail.includes("AC-MOCK-")
        ? "The mock script has no answer for this request: the message names the step, the turn and the closest rule. Add or correct a rule, then resume the run with the same --mock."
        : "Read the API's message above: a 400 usually names a model id that does not exist, an output or tool input schema the API does not accept, or a request that is too large. A 404 is usually a wrong model id or base URL.",
    });
  }
  if (isSyntaxError(error)) {
    return new ModelResponseError({
      message: `The Anthropic API answered ${model} with a body that is not valid JSON.`,
      hint: "Check that ANTHROPIC_BASE_URL points at the Messages API itself, not at a proxy or web page.",
      cause: error,
    });
  }
  if (
    error instanceof AnthropicError &&
    !context.streamStarted &&
    /authentication method|credential/i.test(error.message)
  ) {
    return new ModelAuthError({
      message: `No Anthropic credentials were found for the call to ${model}: ${error.message}`,
      hint: "Set ANTHROPIC_API_KEY (or pass apiKey to createAnthropicClient).",
      cause: error,
    });
  }
  if (context.streamStarted && isBrokenStream(error, true)) {
    return new ModelConnectionError({
      message: `The response stream from ${model} broke off before the message ended (${context.attempts === 1 ? "1 attempt" : `${context.attempts} attempts`}): ${error instanceof Error ? error.message : String(error)}.`,
      hint: "Usually a network interruption; run again.",
      cause: error,
    });
  }
  return new ModelError({
    kind: "unexpected",
    code: SDK_ADAPTER_CODES.unexpected,
    retryable: false,
    message: `The call to ${model} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}.`,
    hint: "Please report this with the run's journal.",
    cause: error,
  });
}

/** A failure after the stream started that is worth one more try from scratch. */
export function isBrokenStream(error: unknown, streamStarted: boolean): boolean {
  if (!streamStarted || error instanceof APIError || isSyntaxError(error)) return false;
  return error instanceof AnthropicError || (error instanceof Error && error.name === "TypeError");
}
