import {
  abortError,
  DEFAULT_TUNING,
  type LimiterStats,
  type LimiterTuning,
  type ModelCallReport,
  type ModelRequestLimiter,
  type ModelRequestPermit,
  pauseFor,
} from "./model-limiter.ts";

interface Waiter {
  readonly resolve: (permit: ModelRequestPermit) => void;
  readonly reject: (error: Error) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

/**
 * The limiter of one process (an embedded batch): additive increase, multiplicative decrease.
 * Every throttle halves the number of requests allowed at once (at most once per pause, so one
 * burst counts once) and pauses all requests for what the API asked; each `limit` successes in
 * a row allow one more, up to `maxConcurrent`. Waiters are served first come, first served.
 */
export class LocalModelLimiter implements ModelRequestLimiter {
  readonly #tuning: Required<LimiterTuning>;
  #limit: number;
  #active = 0;
  #pauseUntil = 0;
  #inARow = 0;
  #successes = 0;
  #lastDecrease = 0;
  #throttled = 0;
  #pausedMs = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #waiters: Waiter[] = [];

  constructor(tuning: LimiterTuning = {}) {
    this.#tuning = { ...DEFAULT_TUNING, ...tuning };
    this.#limit = this.#tuning.maxConcurrent;
  }

  acquire(signal?: AbortSignal): Promise<ModelRequestPermit> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.#waiters.length === 0 && this.#free()) return Promise.resolve(this.#grant());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.#waiters.indexOf(waiter);
          if (index !== -1) this.#waiters.splice(index, 1);
          if (signal !== undefined) reject(abortError(signal));
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#pump();
    });
  }

  async stats(): Promise<LimiterStats> {
    return {
      limit: this.#limit,
      active: this.#active,
      throttled: this.#throttled,
      pausedMs: this.#pausedMs,
    };
  }

  #free(): boolean {
    return this.#active < this.#limit && Date.now() >= this.#pauseUntil;
  }

  #grant(): ModelRequestPermit {
    this.#active++;
    let reported = false;
    return {
      done: async (report: ModelCallReport) => {
        if (reported) return;
        reported = true;
        this.#active--;
        this.#learn(report);
        this.#pump();
      },
    };
  }

  #learn(report: ModelCallReport): void {
    const now = Date.now();
    if (report.kind === "ok") {
      this.#inARow = 0;
      this.#successes++;
      if (this.#successes >= this.#limit && this.#limit < this.#tuning.maxConcurrent) {
        this.#limit++;
        this.#successes = 0;
      }
      return;
    }
    if (report.kind !== "throttled") return;
    this.#throttled++;
    this.#inARow++;
    this.#successes = 0;
    const pause = pauseFor(this.#tuning, report.retryAfterMs, this.#inARow);
    if (now >= this.#pauseUntil || now - this.#lastDecrease > pause) {
      this.#limit = Math.max(this.#tuning.minConcurrent, Math.floor(this.#limit / 2));
      this.#lastDecrease = now;
    }
    const until = now + pause;
    if (until > this.#pauseUntil) {
      this.#pausedMs += until - Math.max(now, this.#pauseUntil);
      this.#pauseUntil = until;
    }
  }

  #pump(): void {
    while (this.#waiters.length > 0) {
      const now = Date.now();
      if (now < this.#pauseUntil) {
        if (this.#timer === undefined) {
          this.#timer = setTimeout(() => {
            this.#timer = undefined;
            this.#pump();
          }, this.#pauseUntil - now);
        }
        return;
      }
      if (this.#active >= this.#limit) return;
      const waiter = this.#waiters.shift() as Waiter;
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.resolve(this.#grant());
    }
  }
}
