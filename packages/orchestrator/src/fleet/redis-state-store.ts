import { randomUUID } from "node:crypto";
import { ClimptError } from "@climpt/model";
import type { Redis } from "ioredis";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import type { IssueKey, IssueLock, IssueRecord, IssueStateStore } from "../state/issue-record.ts";
import { KEY_PREFIX } from "./redis-connection.ts";

// Deletes the lock only if this holder still owns it (it may have expired and been taken).
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

export function issueStateKey(key: IssueKey): string {
  return `${KEY_PREFIX}:issue:${key.workflowId}:${key.repo}#${key.issue}`;
}

/**
 * Issue records in Redis, for a fleet: every worker reads what the others wrote, so a job whose
 * worker died is recovered by whichever worker takes it next. A lock is a key set with NX and a
 * lease, renewed while held; a worker killed while holding one loses it when the lease runs out.
 */
export class RedisIssueStateStore implements IssueStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly leaseMs = 30_000,
  ) {}

  async read(key: IssueKey): Promise<IssueRecord | null> {
    const text = await this.redis.get(issueStateKey(key));
    if (text === null) return null;
    try {
      return JSON.parse(text) as IssueRecord;
    } catch (error) {
      throw new ClimptError({
        code: C.stateUnreadable,
        message: `The record of issue #${key.issue} in Redis (${issueStateKey(key)}) is not JSON.`,
        hint: `Delete the key (redis-cli DEL '${issueStateKey(key)}'): the issue's labels still say its phase.`,
        cause: error,
      });
    }
  }

  async write(record: IssueRecord): Promise<void> {
    await this.redis.set(issueStateKey(record), JSON.stringify(record));
  }

  async lock(key: IssueKey): Promise<IssueLock | null> {
    const lockKey = `${issueStateKey(key)}:lock`;
    const token = randomUUID();
    const taken = await this.redis.set(lockKey, token, "PX", this.leaseMs, "NX");
    if (taken !== "OK") return null;
    const renew = setInterval(
      () => {
        void this.redis.eval(RENEW, 1, lockKey, token, String(this.leaseMs)).catch(() => undefined);
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        await this.redis.eval(RELEASE, 1, lockKey, token).catch(() => undefined);
      },
    };
  }
}
