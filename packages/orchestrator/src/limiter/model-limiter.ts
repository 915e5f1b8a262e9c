/** How a model request ended, as the limiter learns from it. */
export type ModelCallReport =
  | { readonly kind: "ok" }
  /** The API said slow down (429 rate limit, 529 overloaded), maybe with how long to wait. */
  | { readonly kind: "throttled"; readonly retryAfterMs: number | null }
  /** Any other failure: the slot is freed, nothing is learnt. */
  | { readonly kind: "failed" };

/** The right to send one model request; report how it ended exactly once. */
export interface ModelRequestPermit {
  done(report: ModelCallReport): Promise<void>;
}

export interface LimiterStats {
  /** Requests allowed at once right now. */
  readonly limit: number;
  readonly active: number;
  /** Throttled requests reported so far. */
  readonly throttled: number;
  /** Milliseconds requests have been held back by a pause, summed over pauses. */
  readonly pausedMs: number;
}

/**
 * One limiter for every model request of a batch or a fleet. `acquire` waits for a free slot
 * and for any pause a throttled request started; every permit reports how its request ended. A
 * burst of 429s then lowers the number of requests in flight and pauses all of them for the time
 * the API asked, instead of each run retrying on its own until it fails. Implementations: in one
 * process (`LocalModelLimiter`), or shared by every worker through Redis (`RedisModelLimiter`).
 */
export interface ModelRequestLimiter {
  acquire(signal?: AbortSignal): Promise<ModelRequestPermit>;
  stats(): Promise<LimiterStats>;
}

export interface LimiterTuning {
  /** Most requests in flight at once. Default 8. */
  readonly maxConcurrent?: number;
  /** The limit never drops below this. Default 1. */
  readonly minConcurrent?: number;
  /** Pause after a throttle that named no wait, doubled per throttle in a row. Default 1 s. */
  readonly baseBackoffMs?: number;
  /** The longest pause. Default 60 s. */
  readonly maxBackoffMs?: number;
}

export const DEFAULT_TUNING: Required<LimiterTuning> = {
  maxConcurrent: 8,
  minConcurrent: 1,
  baseBackoffMs: 1000,
  maxBackoffMs: 60_000,
};

/** The pause a throttle starts: what the API asked, else the backoff for this many in a row. */
export function pauseFor(
  tuning: Required<LimiterTuning>,
  retryAfterMs: number | null,
  inARow: number,
): number {
  const backoff = tuning.baseBackoffMs * 2 ** Math.max(0, inARow - 1);
  return Math.min(tuning.maxBackoffMs, retryAfterMs ?? backoff);
}

export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new Error("The wait for a model request slot was aborted.");
}
