import { ClimptError, errorMarker, hasErrorMarker, type JsonValue, markError } from "@climpt/model";
import type { ConversationMessage, Usage } from "./types.ts";

/** Every code this package throws. The README lists them with their fixes. */
export const SDK_ADAPTER_CODES = {
  /**
   * 401 / 403, or no credentials at all (`ModelAuthError`). Example: `The Anthropic API refused the
   * credentials for claude-sonnet-4-5 (…).` Fix: Set `ANTHROPIC_API_KEY` to a valid key; check
   * `ANTHROPIC_BASE_URL`.
   */
  auth: "AC-MODEL-001",
  /**
   * 429 after every retry (`ModelRateLimitError`, `retryAfterMs` set). Example: `The Anthropic API
   * rate limit for … was still exceeded after 3 attempts (…).` Fix: Wait, run fewer agents at once,
   * raise `maxRetries`.
   */
  rateLimit: "AC-MODEL-002",
  /**
   * 529 / `overloaded_error` after every retry (`ModelOverloadedError`). Example: `The Anthropic
   * API was overloaded for … on 3 attempts (…).` Fix: Run later, raise `maxRetries`, or pick
   * another model.
   */
  overloaded: "AC-MODEL-003",
  /**
   * A model call's response did not start within the connect timeout on any attempt (a connection
   * accepted and never answered): 60 s by default, `limits.connectTimeoutMs`, `--connect-timeout`,
   * `CLIMPT_CONNECT_TIMEOUT` (`ModelTimeoutError`, `phase: "start"`). The run ends resumable.
   * Example: `The model call timed out: claude-haiku-4-5 did not start answering within 60000 ms on
   * any of 3 attempts.` Fix: Check the network and `ANTHROPIC_BASE_URL`, then `climpt resume`;
   * raise the bound for a slow link.
   */
  timeout: "AC-MODEL-004",
  /**
   * A model call's streamed response went silent for longer than the stream idle timeout on every
   * attempt: 3 min by default, `limits.streamIdleTimeoutMs`, `--stream-idle-timeout`,
   * `CLIMPT_STREAM_IDLE_TIMEOUT` (`ModelTimeoutError`, `phase: "idle"`). The run ends resumable.
   * Example: `The model call timed out: the response stream from claude-haiku-4-5 went silent for
   * 180000 ms (3 attempts).` Fix: A stalled connection: `climpt resume`; raise the bound only if a
   * proxy holds events back.
   */
  streamIdle: "AC-MODEL-011",
  /**
   * The API is unreachable, or a stream broke off on every attempt (`ModelConnectionError`).
   * Example: `Could not reach the Anthropic API at https://api.anthropic.com (3 attempts) …` Fix:
   * Check the network and the base URL; run again.
   */
  connection: "AC-MODEL-005",
  /**
   * 400 / 404 / 413 / 422, with the API's message (`ModelBadRequestError`). Example: `The Anthropic
   * API rejected the request for … (…).` Fix: Fix the model id, a schema the API rejects, or a
   * too-large request.
   */
  badRequest: "AC-MODEL-006",
  /**
   * 5xx after every retry, or an `api_error` inside a stream (`ModelServerError`). Example: `The
   * Anthropic API failed on 3 attempts for … (…).` Fix: From Anthropic's API, the API's side: run
   * later. From another ANTHROPIC_BASE_URL (a local mock or proxy), the message names that server:
   * its own log says why.
   */
  server: "AC-MODEL-007",
  /**
   * A body (or SSE event) that is not valid JSON (`ModelResponseError`). Example: `The Anthropic
   * API answered … with a body that is not valid JSON.` Fix: The base URL points at something other
   * than the Messages API.
   */
  malformedResponse: "AC-MODEL-008",
  /**
   * The caller's signal aborted the call (`ModelAbortedError`). Example: `The call to … was
   * aborted.` Fix: Nothing to fix; resume the run.
   */
  aborted: "AC-MODEL-009",
  /**
   * Anything else the SDK threw (`ModelError`). Example: `The call to … failed unexpectedly: …`
   * Fix: Report it with the journal.
   */
  unexpected: "AC-MODEL-010",
  /**
   * No JSON in the reply, even after the repair turn. Example: `The model gave no JSON output for
   * the step, even after a repair turn. Its last reply began: "…".` Fix: Make the prompt ask for
   * the JSON output.
   */
  outputMissing: "AC-STEP-001",
  /**
   * The output does not match the schema after the repair turn (`validationErrors`, the best parse
   * in `lastOutput`). Example: `The model's output does not match the step's schema, even after a
   * repair turn: …` Fix: Make the schema and the prompt agree.
   */
  schemaInvalid: "AC-STEP-002",
  /**
   * Stop reason `refusal`. Example: `The model (…) refused to answer the step's prompt.` Fix:
   * Rephrase the prompt / handoff.
   */
  refusal: "AC-STEP-003",
  /**
   * The reply was cut at `max_tokens` before the JSON was complete. Example: `The reply of … was
   * cut off at max_tokens (8192) before its JSON was complete.` Fix: Raise the step's `maxTokens`,
   * or ask for a shorter output.
   */
  maxTokens: "AC-STEP-004",
  /**
   * Still calling tools after `maxTurns` model calls. Example: `The model was still calling tools
   * after 40 model calls (the step allows 40).` Fix: Raise `limits.maxTurnsPerStep`, or narrow the
   * step.
   */
  maxTurns: "AC-STEP-005",
  /**
   * Stop reason `model_context_window_exceeded`. Example: `The conversation outgrew …'s context
   * window after 12 calls.` Fix: Keep tool results smaller, or split the step.
   */
  contextWindow: "AC-STEP-006",
  /**
   * The output schema cannot be compiled (e.g. a `$ref` that does not resolve). Example: `The
   * step's output schema cannot be compiled: …` Fix: Fix the schema file `outputSchemaRef` points
   * at.
   */
  unusableSchema: "AC-STEP-007",
  /**
   * A replay miss (with a diff against the nearest recorded request), or a request replayed more
   * often than recorded. Example: `Call #3 (model …, 2 message(s), fingerprint 1a2b3c4d5e6f) is not
   * in the cassette run.cassette.jsonl.` Fix: Record again, or replay non-strict.
   */
  replayMiss: "AC-REPLAY-001",
  /**
   * The cassette is missing (strict), unreadable, not JSON, or of another version (names the file
   * and line). Example: `Line 4 of the cassette run.cassette.jsonl is not valid JSON.` Fix: Record
   * again.
   */
  cassetteUnreadable: "AC-REPLAY-002",
} as const;
// Frozen in place rather than through `Object.freeze({…})` as the initializer: a call's result
// type cannot be read without a type checker, and the published declarations are written without one
// (isolated declarations, tsdown.shared.ts).
Object.freeze(SDK_ADAPTER_CODES);

export type ModelErrorKind =
  | "auth"
  | "rate-limit"
  | "overloaded"
  | "timeout"
  | "connection"
  | "bad-request"
  | "server"
  | "malformed-response"
  | "aborted"
  | "unexpected";

/** What a step had spent and said before it failed, so budgets and the journal still see it. */
export interface StepProgress {
  readonly usage: Usage;
  readonly costUsd: number;
  readonly calls: number;
  readonly transcript: readonly ConversationMessage[];
}

export interface ModelErrorOptions {
  readonly kind: ModelErrorKind;
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly cause?: unknown;
  readonly status?: number;
  readonly requestId?: string;
  /** Whether trying again later may succeed (the SDK already retried what it could). */
  readonly retryable: boolean;
}

const modelErrorMarker = errorMarker("ModelError");

/**
 * A model call that failed: the API said no, or never answered. The SDK has already retried
 * transient failures (`maxRetries`) by the time one of these is thrown.
 */
export class ModelError extends ClimptError {
  readonly kind: ModelErrorKind;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly retryable: boolean;
  /** Set by `runStep` when the failure ended a step part-way. */
  step: StepProgress | undefined;

  constructor(options: ModelErrorOptions) {
    super({
      code: options.code,
      message: options.message,
      ...(options.hint === undefined ? {} : { hint: options.hint }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    markError(this, modelErrorMarker);
    this.name = "ModelError";
    this.kind = options.kind;
    this.status = options.status;
    this.requestId = options.requestId;
    this.retryable = options.retryable;
    this.step = undefined;
  }

  /** Whether `error` is a ModelError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelError {
    return hasErrorMarker(error, modelErrorMarker);
  }
}

type SubclassOptions = Omit<ModelErrorOptions, "kind" | "code" | "retryable">;

const modelAuthErrorMarker = errorMarker("ModelAuthError");

export class ModelAuthError extends ModelError {
  constructor(options: SubclassOptions) {
    super({ ...options, kind: "auth", code: SDK_ADAPTER_CODES.auth, retryable: false });
    markError(this, modelAuthErrorMarker);
    this.name = "ModelAuthError";
  }

  /** Whether `error` is a ModelAuthError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelAuthError {
    return hasErrorMarker(error, modelAuthErrorMarker);
  }
}

const modelRateLimitErrorMarker = errorMarker("ModelRateLimitError");

export class ModelRateLimitError extends ModelError {
  /** What the API asked to wait, when it said (`retry-after-ms` / `retry-after`). */
  readonly retryAfterMs: number | undefined;
  constructor(options: SubclassOptions & { readonly retryAfterMs?: number }) {
    super({ ...options, kind: "rate-limit", code: SDK_ADAPTER_CODES.rateLimit, retryable: true });
    markError(this, modelRateLimitErrorMarker);
    this.name = "ModelRateLimitError";
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Whether `error` is a ModelRateLimitError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelRateLimitError {
    return hasErrorMarker(error, modelRateLimitErrorMarker);
  }
}

const modelOverloadedErrorMarker = errorMarker("ModelOverloadedError");

export class ModelOverloadedError extends ModelError {
  constructor(options: SubclassOptions) {
    super({ ...options, kind: "overloaded", code: SDK_ADAPTER_CODES.overloaded, retryable: true });
    markError(this, modelOverloadedErrorMarker);
    this.name = "ModelOverloadedError";
  }

  /** Whether `error` is a ModelOverloadedError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelOverloadedError {
    return hasErrorMarker(error, modelOverloadedErrorMarker);
  }
}

const modelTimeoutErrorMarker = errorMarker("ModelTimeoutError");

/**
 * A model call that waited past a bound: its response did not start within the connect timeout
 * (`AC-MODEL-004`), or its stream went silent for longer than the idle timeout (`AC-MODEL-011`).
 */
export class ModelTimeoutError extends ModelError {
  /** Which wait ran out. */
  readonly phase: "start" | "idle";
  constructor(options: SubclassOptions & { readonly phase?: "start" | "idle" }) {
    const { phase = "start", ...rest } = options;
    super({
      ...rest,
      kind: "timeout",
      code: phase === "idle" ? SDK_ADAPTER_CODES.streamIdle : SDK_ADAPTER_CODES.timeout,
      retryable: true,
    });
    markError(this, modelTimeoutErrorMarker);
    this.name = "ModelTimeoutError";
    this.phase = phase;
  }

  /** Whether `error` is a ModelTimeoutError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelTimeoutError {
    return hasErrorMarker(error, modelTimeoutErrorMarker);
  }
}

const modelConnectionErrorMarker = errorMarker("ModelConnectionError");

export class ModelConnectionError extends ModelError {
  constructor(options: SubclassOptions) {
    super({ ...options, kind: "connection", code: SDK_ADAPTER_CODES.connection, retryable: true });
    markError(this, modelConnectionErrorMarker);
    this.name = "ModelConnectionError";
  }

  /** Whether `error` is a ModelConnectionError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelConnectionError {
    return hasErrorMarker(error, modelConnectionErrorMarker);
  }
}

const modelBadRequestErrorMarker = errorMarker("ModelBadRequestError");

export class ModelBadRequestError extends ModelError {
  constructor(options: SubclassOptions) {
    super({
      ...options,
      kind: "bad-request",
      code: SDK_ADAPTER_CODES.badRequest,
      retryable: false,
    });
    markError(this, modelBadRequestErrorMarker);
    this.name = "ModelBadRequestError";
  }

  /** Whether `error` is a ModelBadRequestError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelBadRequestError {
    return hasErrorMarker(error, modelBadRequestErrorMarker);
  }
}

const modelServerErrorMarker = errorMarker("ModelServerError");

export class ModelServerError extends ModelError {
  constructor(options: SubclassOptions) {
    super({ ...options, kind: "server", code: SDK_ADAPTER_CODES.server, retryable: true });
    markError(this, modelServerErrorMarker);
    this.name = "ModelServerError";
  }

  /** Whether `error` is a ModelServerError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelServerError {
    return hasErrorMarker(error, modelServerErrorMarker);
  }
}

const modelResponseErrorMarker = errorMarker("ModelResponseError");

export class ModelResponseError extends ModelError {
  constructor(options: SubclassOptions) {
    super({
      ...options,
      kind: "malformed-response",
      code: SDK_ADAPTER_CODES.malformedResponse,
      retryable: true,
    });
    markError(this, modelResponseErrorMarker);
    this.name = "ModelResponseError";
  }

  /** Whether `error` is a ModelResponseError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelResponseError {
    return hasErrorMarker(error, modelResponseErrorMarker);
  }
}

const modelAbortedErrorMarker = errorMarker("ModelAbortedError");

export class ModelAbortedError extends ModelError {
  constructor(options: SubclassOptions) {
    super({ ...options, kind: "aborted", code: SDK_ADAPTER_CODES.aborted, retryable: false });
    markError(this, modelAbortedErrorMarker);
    this.name = "ModelAbortedError";
  }

  /** Whether `error` is a ModelAbortedError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is ModelAbortedError {
    return hasErrorMarker(error, modelAbortedErrorMarker);
  }
}

// ---------------------------------------------------------------------------------------------

export type StepFailureReason =
  | "output-missing"
  | "schema-invalid"
  | "refusal"
  | "max-tokens"
  | "max-turns"
  | "context-window"
  | "unusable-schema";

const STEP_CODES: Readonly<Record<StepFailureReason, string>> = {
  "output-missing": SDK_ADAPTER_CODES.outputMissing,
  "schema-invalid": SDK_ADAPTER_CODES.schemaInvalid,
  refusal: SDK_ADAPTER_CODES.refusal,
  "max-tokens": SDK_ADAPTER_CODES.maxTokens,
  "max-turns": SDK_ADAPTER_CODES.maxTurns,
  "context-window": SDK_ADAPTER_CODES.contextWindow,
  "unusable-schema": SDK_ADAPTER_CODES.unusableSchema,
};

export interface StepErrorOptions {
  readonly reason: StepFailureReason;
  readonly message: string;
  readonly hint?: string;
  readonly cause?: unknown;
  /** The schema violations of the last reply, as `$.path: message` lines. */
  readonly validationErrors?: readonly string[];
  /** The last reply's text, for the journal. */
  readonly lastText?: string;
  /** The best parse of the last reply, when one parsed. */
  readonly lastOutput?: JsonValue;
  readonly step: StepProgress;
}

const stepErrorMarker = errorMarker("StepError");

/** A step whose model conversation ended without a usable structured output. */
export class StepError extends ClimptError {
  readonly reason: StepFailureReason;
  readonly validationErrors: readonly string[];
  readonly lastText: string | undefined;
  readonly lastOutput: JsonValue | undefined;
  readonly step: StepProgress;

  constructor(options: StepErrorOptions) {
    super({
      code: STEP_CODES[options.reason],
      message: options.message,
      ...(options.hint === undefined ? {} : { hint: options.hint }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    markError(this, stepErrorMarker);
    this.name = "StepError";
    this.reason = options.reason;
    this.validationErrors = options.validationErrors ?? [];
    this.lastText = options.lastText;
    this.lastOutput = options.lastOutput;
    this.step = options.step;
  }

  /** Whether `error` is a StepError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is StepError {
    return hasErrorMarker(error, stepErrorMarker);
  }
}

const cassetteErrorMarker = errorMarker("CassetteError");

/** A replay that cannot serve a request, or a cassette that cannot be read. */
export class CassetteError extends ClimptError {
  constructor(options: {
    readonly code: string;
    readonly message: string;
    readonly file: string;
    readonly hint?: string;
    readonly cause?: unknown;
  }) {
    super(options);
    markError(this, cassetteErrorMarker);
    this.name = "CassetteError";
  }

  /** Whether `error` is a CassetteError (or a subclass of it), from any copy of this package. */
  static override isInstance(error: unknown): error is CassetteError {
    return hasErrorMarker(error, cassetteErrorMarker);
  }
}
