import type { ModelClient, ModelRequest, ModelResponse } from "@climpt/sdk-adapter";
import type { ModelCallReport, ModelRequestLimiter } from "./model-limiter.ts";

export interface LimitedClientOptions {
  /** Throttled attempts (429 / 529) retried after the limiter's pause before failing. Default 8. */
  readonly maxThrottleRetries?: number;
  /** Other retryable failures (timeouts, 5xx, broken streams) retried. Default 2. */
  readonly maxRetries?: number;
  /** Wait before retrying a non-throttle failure, doubled per attempt. Default 250 ms. */
  readonly retryDelayMs?: number;
}

// The sdk-adapter's codes for "the API asks us to slow down".
const THROTTLE_CODES = new Set(["AC-MODEL-002", "AC-MODEL-003"]);

function reportOf(error: unknown): ModelCallReport {
  const coded = error as { code?: unknown; retryAfterMs?: unknown };
  if (typeof coded.code === "string" && THROTTLE_CODES.has(coded.code)) {
    return {
      kind: "throttled",
      retryAfterMs: typeof coded.retryAfterMs === "number" ? coded.retryAfterMs : null,
    };
  }
  return { kind: "failed" };
}

function isRetryable(error: unknown): boolean {
  return (error as { retryable?: unknown }).retryable === true;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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

/**
 * A ModelClient whose every request goes through the shared limiter. Give it an inner client
 * that does not retry by itself (`createAnthropicClient({ maxRetries: 0 })`): then the limiter
 * hears of every 429 at once and slows all runs, and this wrapper retries — a throttled request
 * after the fleet-wide pause (up to `maxThrottleRetries`), any other retryable failure after a
 * short backoff (up to `maxRetries`). What is not retryable, or runs out of retries, is thrown as
 * the inner client threw it, so the run reports the model's own coded error.
 */
export function limitModelClient(
  inner: ModelClient,
  limiter: ModelRequestLimiter,
  options: LimitedClientOptions = {},
): ModelClient {
  const maxThrottleRetries = options.maxThrottleRetries ?? 8;
  const maxRetries = options.maxRetries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 250;
  return {
    async call(request: ModelRequest): Promise<ModelResponse> {
      let throttles = 0;
      let failures = 0;
      for (;;) {
        const permit = await limiter.acquire(request.signal);
        try {
          const response = await inner.call(request);
          await permit.done({ kind: "ok" });
          return response;
        } catch (error) {
          const report = reportOf(error);
          await permit.done(report);
          if (request.signal?.aborted) throw error;
          if (report.kind === "throttled" && throttles < maxThrottleRetries) {
            throttles++;
            continue;
          }
          if (report.kind === "failed" && isRetryable(error) && failures < maxRetries) {
            failures++;
            await sleep(retryDelayMs * 2 ** (failures - 1), request.signal);
            continue;
          }
          throw error;
        }
      }
    },
  };
}
