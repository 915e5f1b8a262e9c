import { randomUUID } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import type {
  JournalSink,
  JournalStore,
  JournalStoreFactory,
  JournalStoreScope,
  RunEvent,
} from "@climpt/runner";
import type { Redis } from "ioredis";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import { KEY_PREFIX } from "./redis-connection.ts";

/**
 * Appends one event at its position, atomically, for the run's current writer only: the writer
 * key names this writer (the last to open the journal: a resume takes it over), and the stream's
 * last entry id is `<seq - 1>-0` (or the stream is empty and seq is 1); else nothing is written.
 * So the stream is always the events 1..n without a hole, and a worker that lost the job but
 * still runs is refused instead of interleaving its events with those of the worker that
 * resumed the run. A writer refused for its position is revoked: its events sent after the
 * refused one are refused too.
 */
const APPEND = `
if redis.call('GET', KEYS[2]) ~= ARGV[3] then
  return redis.error_reply('CLIMPT-WRITER another worker has taken the run over')
end
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last = 0
if #top > 0 then last = tonumber(string.match(top[1][1], '^(%d+)')) end
if tonumber(ARGV[1]) ~= last + 1 then
  -- A writer that is out of step stays refused: its later events, already on their way, must
  -- not land after someone else's.
  redis.call('SET', KEYS[2], 'revoked')
  return redis.error_reply('CLIMPT-SEQ expected event ' .. (last + 1))
end
redis.call('XADD', KEYS[1], ARGV[1] .. '-0', 'e', ARGV[2])
return last + 1
`;

const PAGE = 500;

function appendEvent(redis: Redis, key: string, event: RunEvent, writer: string): Promise<unknown> {
  return redis.eval(
    APPEND,
    2,
    key,
    `${key}:writer`,
    String(event.seq),
    JSON.stringify(event),
    writer,
  );
}

/** The stream of one run's journal. */
export function journalKey(agent: string, runId: string): string {
  return `${KEY_PREFIX}:journal:${agent}:${runId}`;
}

function refused(key: string, event: RunEvent, error: unknown): ClimptError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ClimptError({
    code: C.journalRefused,
    message: `Event ${event.seq} of run ${event.runId} was refused by the Redis journal ${key}: ${reason}.`,
    hint: "Another worker may be running this run; let the job be taken again (it resumes from the stream). If Redis itself fails, check it.",
    cause: error,
  });
}

/** Every event of the stream, in order. */
async function readStream(redis: Redis, key: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  let start = "-";
  for (;;) {
    const entries = await redis.xrange(key, start, "+", "COUNT", PAGE);
    for (const [id, fields] of entries) {
      const text = fields[fields.indexOf("e") + 1];
      try {
        events.push(JSON.parse(text ?? "") as RunEvent);
      } catch (error) {
        throw new ClimptError({
          code: C.journalRefused,
          message: `Entry ${id} of the Redis journal ${key} is not an event.`,
          hint: "The stream was written by something other than climpt; restore it or start a new run.",
          cause: error,
        });
      }
    }
    if (entries.length < PAGE) return events;
    start = `(${entries[entries.length - 1]?.[0]}`;
  }
}

/** Writes `events` as the local journal file, whole (a temporary file renamed over it). */
function mirror(file: string, events: readonly RunEvent[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, events.map((event) => `${JSON.stringify(event)}\n`).join(""));
  renameSync(temporary, file);
}

/**
 * Tees a run's events into its Redis stream next to the local file. `append` sends the event at
 * once (one connection: Redis receives them in the order they were appended); `flush`, the
 * runner's durability point, waits for the file's flush and for Redis to have taken every event
 * appended before it, and reports a refused one. After a refusal nothing more is sent.
 */
class RedisJournalSink implements JournalSink {
  #pending: Promise<void>[] = [];
  #failure: ClimptError | undefined;
  readonly #writer = randomUUID();

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly local: JournalSink,
    /** Events only the local file held (a run begun without the fleet): copied first. */
    seed: readonly RunEvent[],
  ) {
    // Sent before any append on this connection, so every append of this sink comes after it.
    const claimed = this.redis.set(`${key}:writer`, this.#writer);
    this.ready = claimed.then(async () => {
      for (const event of seed) await appendEvent(redis, key, event, this.#writer);
    });
  }

  private readonly ready: Promise<void>;

  append(event: RunEvent): void {
    this.local.append(event);
    const send = (): Promise<void> => {
      if (this.#failure !== undefined) return Promise.resolve();
      return appendEvent(this.redis, this.key, event, this.#writer).then(
        () => undefined,
        (error: unknown) => {
          this.#failure ??= refused(this.key, event, error);
        },
      );
    };
    this.#pending.push(
      this.ready.then(send, (error: unknown) => {
        this.#failure ??= refused(this.key, event, error);
      }),
    );
  }

  async flush(): Promise<void> {
    await this.local.flush();
    await Promise.all(this.#pending.splice(0));
    if (this.#failure !== undefined) throw this.#failure;
  }

  close(): void {
    this.local.close();
  }
}

/**
 * `RunnerOptions.journalStore` for a fleet: every run's events go to its local file (as without
 * a fleet) and to a Redis stream per run (`climpt:journal:<agent>:<runId>`), one entry per event
 * whose id is the event's position. A worker on any machine reads the run back from the stream,
 * and before it appends, its local file is made the stream's copy. A journal that only has a
 * local file (a run begun without the fleet) is read from the file and copied to the stream
 * before a resumed run appends.
 */
export function redisJournalStore(redis: Redis): JournalStoreFactory {
  return ({ agent, files }: JournalStoreScope): JournalStore => {
    const key = (runId: string): string => journalKey(agent.name, runId);
    /** Runs whose journal was found only in a file at the last read: their events. */
    const fileOnly = new Map<string, RunEvent[]>();
    return {
      locate: files.locate,
      read: async (runId) => {
        const events = await readStream(redis, key(runId));
        if (events.length === 0) {
          const local = await files.read(runId);
          fileOnly.set(runId, local);
          return local;
        }
        fileOnly.delete(runId);
        // The local copy follows the stream: a file this machine wrote further than Redis
        // took (a crash before the flush) loses the events resume cannot rely on anyway.
        mirror(files.locate(runId), events);
        return events;
      },
      create: (runId) => new RedisJournalSink(redis, key(runId), files.create(runId), []),
      reopen: (runId) => {
        const seed = fileOnly.get(runId) ?? [];
        fileOnly.delete(runId);
        const sink = new RedisJournalSink(redis, key(runId), files.reopen(runId), seed);
        return sink;
      },
    };
  };
}
