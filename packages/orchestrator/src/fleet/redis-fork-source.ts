import { ClimptError } from "@climpt/model";
import { parseJournal } from "@climpt/protocol";
import type {
  JournalStore,
  JournalStoreFactory,
  JournalStoreScope,
  RunEvent,
} from "@climpt/runner";
import type { Redis } from "ioredis";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import { connectRedis } from "./redis-connection.ts";
import { journalKey } from "./redis-journal-store.ts";

const PAGE = 500;

/** The stream's entries as journal lines (each entry's `e` field), in order. */
async function streamText(redis: Redis, key: string): Promise<string> {
  const lines: string[] = [];
  let start = "-";
  for (;;) {
    const entries = await redis.xrange(key, start, "+", "COUNT", PAGE);
    for (const [, fields] of entries) {
      const text = fields[fields.indexOf("e") + 1] ?? "";
      // A journal line holds no newline (JSON escapes them): an entry with one was not written
      // by climpt, and is kept as one line so parseJournal refuses it rather than splitting it.
      lines.push(text.replaceAll("\n", " "));
    }
    if (entries.length < PAGE) return lines.map((line) => `${line}\n`).join("");
    start = `(${entries[entries.length - 1]?.[0]}`;
  }
}

/**
 * Run `runId` of agent `agent` as its Redis stream holds it, read like a journal file: every
 * entry through @climpt/protocol's `parseJournal` (its length, nesting and shape), an entry that
 * is not an event refused (ORC-JOURNAL-002), and no stream at all refused too. Read only.
 */
export async function readRedisJournal(
  redis: Redis,
  agent: string,
  runId: string,
): Promise<RunEvent[]> {
  const key = journalKey(agent, runId);
  const where = `${key} (Redis)`;
  const text = await streamText(redis, key);
  if (text === "") {
    throw new ClimptError({
      code: C.forkSourceMissing,
      message: `No journal of run ${runId} of agent "${agent}" in Redis (${key}).`,
      file: where,
      hint: "Check the run id (the issue's record and `climpt fleet status --queue …` name the fleet's runs), the agent (--agent) and the queue URL.",
    });
  }
  // Every entry is a whole event: none can be a line a crash cut off.
  const { events, problems } = parseJournal(text, where, { lastLineMayBeTorn: false });
  const first = problems[0];
  if (first !== undefined) {
    throw new ClimptError({
      code: C.forkSourceMissing,
      message: `${first.message} The run is not forked.`,
      file: where,
      ...(first.hint === undefined ? {} : { hint: first.hint }),
    });
  }
  return events as RunEvent[];
}

/**
 * `RunnerOptions.journalStore` for a fork of a fleet's run (`climpt fork <runId> --queue …`):
 * the source run's journal is read from its Redis stream, and only read — the stream is never
 * written, so the source stays as the fleet left it; every other journal, the fork's own above
 * all, is a file in the folder the fork runs from, as without a fleet.
 */
export function redisForkSource(redis: Redis, sourceRunId: string): JournalStoreFactory {
  return ({ agent, files }: JournalStoreScope): JournalStore => ({
    locate: (runId) =>
      runId === sourceRunId ? `${journalKey(agent.name, runId)} (Redis)` : files.locate(runId),
    read: (runId) =>
      runId === sourceRunId ? readRedisJournal(redis, agent.name, runId) : files.read(runId),
    create: (runId) => files.create(runId),
    reopen: (runId) => files.reopen(runId),
  });
}

/**
 * Connects to the fleet's Redis at `queueUrl` for a fork of its run `sourceRunId`: the journal
 * store the fork runs with (`redisForkSource`), and `close` to disconnect once the fork ended.
 */
export async function openRedisForkSource(
  queueUrl: URL,
  sourceRunId: string,
): Promise<{ readonly journalStore: JournalStoreFactory; close(): void }> {
  const redis = await connectRedis(queueUrl);
  return {
    journalStore: redisForkSource(redis, sourceRunId),
    close: () => redis.disconnect(),
  };
}
