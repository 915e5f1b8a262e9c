import { randomUUID } from "node:crypto";
import { ClimptError } from "@climpt/model";
import type { Redis } from "ioredis";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import type { IssueKey, IssueLock, IssueRecord, IssueStateStore } from "../state/issue-record.ts";
import { lockLostError } from "../state/lock-lost.ts";
import { KEY_PREFIX } from "./redis-connection.ts";

// Deletes the lock only if this holder still owns it (it may have expired and been taken).
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
// Writes the record only while the writer's lock is still its own: a fenced write, atomic with
// the check, so a holder whose lease ran out cannot overwrite what the next holder wrote.
const FENCED_SET = `if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('SET', KEYS[1], ARGV[1]) return 1 end return 0`;

/** The default lease of an issue lock: see the orchestrator README ("Lock and lease times"). */
export const DEFAULT_ISSUE_LEASE_MS = 60_000;

/** Renewals per lease: three renewals in a row may be missed before the lease runs out. */
const RENEWALS_PER_LEASE = 4;

export function issueStateKey(key: IssueKey): string {
  return `${KEY_PREFIX}:issue:${key.workflowId}:${key.repo}#${key.issue}`;
}

/** The key of an issue's lock: its value is the holder's token. */
export function issueLockKey(key: IssueKey): string {
  return `${issueStateKey(key)}:lock`;
}

interface HeldLock {
  readonly lockKey: string;
  readonly token: string;
  readonly lose: (why: string) => void;
}

/**
 * Issue records in Redis, for a fleet: every worker reads what the others wrote, so a job whose
 * worker died is recovered by whichever worker takes it next. A lock is a key set with NX and a
 * lease, renewed while held; a worker killed while holding one loses it when the lease runs out.
 * A live holder whose renewal finds the key gone or holding another token has lost it: `lost`
 * is aborted at once, so its run stops, and its record writes are refused from then on.
 */
export class RedisIssueStateStore implements IssueStateStore {
  readonly #held = new WeakMap<IssueLock, HeldLock>();

  constructor(
    private readonly redis: Redis,
    private readonly leaseMs: number = DEFAULT_ISSUE_LEASE_MS,
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

  async write(record: IssueRecord, held?: IssueLock): Promise<void> {
    const fence = held === undefined ? undefined : this.#held.get(held);
    if (fence === undefined) {
      await this.redis.set(issueStateKey(record), JSON.stringify(record));
      return;
    }
    if (held?.lost.aborted) throw lockLostError(record.issue, String(held.lost.reason));
    const written = await this.redis.eval(
      FENCED_SET,
      2,
      issueStateKey(record),
      fence.lockKey,
      JSON.stringify(record),
      fence.token,
    );
    if (written !== 1) {
      const why = "its key was gone or held another token when the record was written";
      fence.lose(why);
      throw lockLostError(record.issue, why);
    }
  }

  async lock(key: IssueKey): Promise<IssueLock | null> {
    const lockKey = issueLockKey(key);
    const token = randomUUID();
    const taken = await this.redis.set(lockKey, token, "PX", this.leaseMs, "NX");
    if (taken !== "OK") return null;
    const lost = new AbortController();
    // The lease is ours until `confirmedAt + leaseMs` at least (the renewal that set it was
    // sent after confirmedAt). Past that, a renewal that cannot reach Redis cannot show the
    // lock is still ours, and another worker may hold it: it counts as lost.
    let confirmedAt = Date.now();
    let renewal: ReturnType<typeof setInterval> | undefined;
    const lose = (why: string): void => {
      if (renewal !== undefined) clearInterval(renewal);
      if (!lost.signal.aborted) lost.abort(why);
    };
    const renew = async (): Promise<boolean> => {
      if (lost.signal.aborted) return false;
      const sentAt = Date.now();
      try {
        const renewed = await this.redis.eval(RENEW, 1, lockKey, token, String(this.leaseMs));
        if (renewed === 1) {
          confirmedAt = Math.max(confirmedAt, sentAt);
          return true;
        }
        lose("its lease ran out, or another worker took the issue");
      } catch (error) {
        if (Date.now() - confirmedAt >= this.leaseMs) {
          lose(`it could not be renewed for a whole lease: ${(error as Error).message}`);
        } else return false;
      }
      return false;
    };
    renewal = setInterval(
      () => void renew(),
      Math.max(100, Math.floor(this.leaseMs / RENEWALS_PER_LEASE)),
    );
    renewal.unref();
    const lock: IssueLock = {
      lost: lost.signal,
      confirm: async () => {
        if (await renew()) return true;
        // A renewal that failed without settling it (Redis briefly out of reach) proves nothing:
        // the write it guards is not made, and the lock counts as lost from here on.
        lose("it could not be confirmed before a write");
        return false;
      },
      release: async () => {
        clearInterval(renewal);
        await this.redis.eval(RELEASE, 1, lockKey, token).catch(() => undefined);
      },
    };
    this.#held.set(lock, { lockKey, token, lose });
    return lock;
  }
}
