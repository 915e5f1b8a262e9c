import type { Redis } from "ioredis";
import { KEY_PREFIX } from "./redis-connection.ts";

// KEYS[1] the repository's slot set; ARGV: holder, cap, lease ms. Returns 1 when the holder has
// a slot. Expired leases (a worker that died) are dropped first; the clock is Redis's own, so
// workers on machines with different clocks agree.
const ACQUIRE = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[3]), ARGV[1])
  return 1
end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[3]), ARGV[1])
  return 1
end
return 0`;

export function repoCapKey(repo: string): string {
  return `${KEY_PREFIX}:repo-cap:${repo}`;
}

export interface RepoSlot {
  release(): Promise<void>;
}

/**
 * Per-repository concurrency caps across the fleet: at most `cap` issues of one repository are
 * worked on at once, whichever workers take them. The cap is read from Redis (`climpt orchestrate
 * --queue … --repo-concurrency N` writes it), else the worker's default; 0 means no cap.
 */
export class RepoSlots {
  constructor(
    private readonly redis: Redis,
    private readonly defaultCap: number,
    private readonly leaseMs = 60_000,
  ) {}

  async capOf(repo: string): Promise<number> {
    const stored = await this.redis.get(repoCapKey(repo));
    const cap = stored === null ? this.defaultCap : Number(stored);
    return Number.isInteger(cap) && cap >= 0 ? cap : this.defaultCap;
  }

  /** A slot for `holder` (a job id), or null when the repository is at its cap. */
  async acquire(repo: string, holder: string): Promise<RepoSlot | null> {
    const cap = await this.capOf(repo);
    if (cap === 0) return { release: async () => undefined };
    const key = `${KEY_PREFIX}:repo-slots:${repo}`;
    const args = [holder, String(cap), String(this.leaseMs)];
    if ((await this.redis.eval(ACQUIRE, 1, key, ...args)) !== 1) return null;
    const renew = setInterval(
      () => {
        void this.redis.eval(ACQUIRE, 1, key, ...args).catch(() => undefined);
      },
      Math.max(100, Math.floor(this.leaseMs / 4)),
    );
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        await this.redis.zrem(key, holder).catch(() => undefined);
      },
    };
  }

  /** How many slots of the repository are held right now. */
  async inUse(repo: string): Promise<number> {
    const key = `${KEY_PREFIX}:repo-slots:${repo}`;
    const time = await this.redis.time();
    const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
    return this.redis.zcount(key, now, "+inf");
  }
}
