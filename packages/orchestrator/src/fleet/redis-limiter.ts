import { randomUUID } from "node:crypto";
import { ClimptError } from "@climpt/model";
import type { Redis } from "ioredis";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import {
  abortError,
  DEFAULT_TUNING,
  type LimiterStats,
  type LimiterTuning,
  type ModelCallReport,
  type ModelRequestLimiter,
  type ModelRequestPermit,
} from "../limiter/model-limiter.ts";
import { KEY_PREFIX } from "./redis-connection.ts";

const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: slots, state. ARGV: permit id, lease ms, maxConcurrent.
// Returns 0 (granted), a positive wait in ms (paused), or -1 (every slot taken).
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local limit = tonumber(redis.call('HGET', KEYS[2], 'limit') or ARGV[3])
local pause = tonumber(redis.call('HGET', KEYS[2], 'pauseUntil') or '0')
if now < pause then return pause - now end
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  return 0
end
return -1`;

// KEYS: slots, state. ARGV: permit id, kind, retryAfterMs or '', max, min, base backoff, max backoff.
const DONE = `${NOW}
redis.call('ZREM', KEYS[1], ARGV[1])
local max = tonumber(ARGV[4])
local limit = tonumber(redis.call('HGET', KEYS[2], 'limit') or ARGV[4])
if ARGV[2] == 'ok' then
  redis.call('HSET', KEYS[2], 'inARow', 0)
  local ok = redis.call('HINCRBY', KEYS[2], 'successes', 1)
  if ok >= limit and limit < max then
    redis.call('HSET', KEYS[2], 'limit', limit + 1, 'successes', 0)
  end
elseif ARGV[2] == 'throttled' then
  redis.call('HINCRBY', KEYS[2], 'throttled', 1)
  local inARow = redis.call('HINCRBY', KEYS[2], 'inARow', 1)
  redis.call('HSET', KEYS[2], 'successes', 0)
  local wait = tonumber(ARGV[6]) * math.pow(2, inARow - 1)
  if ARGV[3] ~= '' then wait = tonumber(ARGV[3]) end
  wait = math.min(tonumber(ARGV[7]), wait)
  local pauseUntil = tonumber(redis.call('HGET', KEYS[2], 'pauseUntil') or '0')
  local last = tonumber(redis.call('HGET', KEYS[2], 'lastDecrease') or '0')
  if now >= pauseUntil or now - last > wait then
    redis.call('HSET', KEYS[2], 'limit', math.max(tonumber(ARGV[5]), math.floor(limit / 2)), 'lastDecrease', now)
  end
  local untilMs = now + wait
  if untilMs > pauseUntil then
    redis.call('HINCRBY', KEYS[2], 'pausedMs', untilMs - math.max(now, pauseUntil))
    redis.call('HSET', KEYS[2], 'pauseUntil', untilMs)
  end
end
return 1`;

export interface RedisLimiterOptions extends LimiterTuning {
  /** Names the limiter: workers sharing a name share its slots and pauses. Default `anthropic`. */
  readonly name?: string;
  /** A slot a worker holds longer than this (it died mid-request) is freed. Default 10 min. */
  readonly leaseMs?: number;
  /** The longest one request waits for a slot before failing (`ORC-LIMIT-001`). Default 15 min. */
  readonly maxWaitMs?: number;
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
 * The model-request limiter of a fleet: the same rules as the local one (a throttle halves the
 * requests allowed at once and pauses them all for what the API asked; successes grow the limit
 * back), with its state in Redis so that every worker on every machine obeys one limit and one
 * pause. Slots are leases: a worker that dies mid-request frees its slot when the lease ends.
 */
export class RedisModelLimiter implements ModelRequestLimiter {
  readonly #tuning: Required<LimiterTuning>;
  readonly #keys: [string, string];
  readonly #leaseMs: number;
  readonly #maxWaitMs: number;

  constructor(
    private readonly redis: Redis,
    options: RedisLimiterOptions = {},
  ) {
    this.#tuning = { ...DEFAULT_TUNING, ...options };
    const base = `${KEY_PREFIX}:limiter:${options.name ?? "anthropic"}`;
    this.#keys = [`${base}:slots`, `${base}:state`];
    this.#leaseMs = options.leaseMs ?? 600_000;
    this.#maxWaitMs = options.maxWaitMs ?? 900_000;
  }

  async acquire(signal?: AbortSignal): Promise<ModelRequestPermit> {
    const id = randomUUID();
    const deadline = Date.now() + this.#maxWaitMs;
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      const answer = Number(
        await this.redis.eval(
          ACQUIRE,
          2,
          ...this.#keys,
          id,
          String(this.#leaseMs),
          String(this.#tuning.maxConcurrent),
        ),
      );
      if (answer === 0) return this.#permit(id);
      if (Date.now() > deadline) {
        throw new ClimptError({
          code: C.limiterTimeout,
          message: `A model request waited ${this.#maxWaitMs} ms for a slot of the shared limiter and gave up.`,
          hint: "The fleet is throttled or every slot is held: lower the concurrency, or check the API's rate limits.",
        });
      }
      // Paused: wait it out (re-checking at least every second); full: poll with jitter.
      await sleep(
        answer > 0 ? Math.min(answer, 1000) : 20 + Math.floor(Math.random() * 40),
        signal,
      );
    }
  }

  #permit(id: string): ModelRequestPermit {
    let reported = false;
    const tuning = this.#tuning;
    return {
      done: async (report: ModelCallReport) => {
        if (reported) return;
        reported = true;
        const retryAfter =
          report.kind === "throttled" && report.retryAfterMs !== null
            ? String(report.retryAfterMs)
            : "";
        await this.redis.eval(
          DONE,
          2,
          ...this.#keys,
          id,
          report.kind,
          retryAfter,
          String(tuning.maxConcurrent),
          String(tuning.minConcurrent),
          String(tuning.baseBackoffMs),
          String(tuning.maxBackoffMs),
        );
      },
    };
  }

  async stats(): Promise<LimiterStats> {
    const [slots, state] = this.#keys;
    const values = await this.redis.hgetall(state);
    const time = await this.redis.time();
    const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
    return {
      limit: Number(values.limit ?? this.#tuning.maxConcurrent),
      active: await this.redis.zcount(slots, now, "+inf"),
      throttled: Number(values.throttled ?? 0),
      pausedMs: Number(values.pausedMs ?? 0),
    };
  }
}
