import type { Redis } from "ioredis";
import type { StepCommitLedger } from "../dispatch/step-commits.ts";
import { KEY_PREFIX } from "./redis-connection.ts";
import { journalKey } from "./redis-journal-store.ts";

/**
 * Rewrites a journal stream without its entries from position ARGV[1] on, atomically. Redis
 * refuses an XADD whose id is not above the highest id a stream ever had, deleted entries
 * included, so the kept entries are written into a fresh stream instead of deleting the tail;
 * the run's next event then takes the first dropped position, as the journal store's append
 * script expects.
 */
const REWIND = `
local keep = redis.call('XRANGE', KEYS[1], '-', '(' .. ARGV[1] .. '-0')
local dropped = redis.call('XLEN', KEYS[1]) - #keep
if dropped == 0 then return 0 end
redis.call('DEL', KEYS[1])
for _, entry in ipairs(keep) do
  redis.call('XADD', KEYS[1], entry[1], unpack(entry[2]))
end
return dropped
`;

function commitsKey(agent: string, runId: string): string {
  return `${KEY_PREFIX}:step-commits:${agent}:${runId}`;
}

/** The step-commit ledger of a fleet, next to the runs' journal streams in Redis. */
export function redisStepCommits(redis: Redis): StepCommitLedger {
  return {
    record: async (agent, runId, iteration, commit) => {
      await redis.hset(commitsKey(agent, runId), String(iteration), commit);
    },
    commitOf: (agent, runId, iteration) => redis.hget(commitsKey(agent, runId), String(iteration)),
    rewind: async (agent, runId, seq) =>
      Number(await redis.eval(REWIND, 1, journalKey(agent, runId), String(seq))),
  };
}
