import type { LimiterStats } from "../limiter/model-limiter.ts";
import type { IssueResult } from "../orchestrate/orchestrate-issue.ts";
import { loadFleetModules } from "./fleet-modules.ts";
import { readIssueJob } from "./issue-job.ts";
import { bullConnection, connectRedis, DEFAULT_QUEUE_NAME } from "./redis-connection.ts";
import { type RedisLimiterOptions, RedisModelLimiter } from "./redis-limiter.ts";
import { RedisIssueStateStore } from "./redis-state-store.ts";

export interface FleetJob {
  readonly id: string;
  readonly repo: string | null;
  readonly issue: number | null;
  /** BullMQ's state: waiting, active, delayed, completed, failed, … */
  readonly state: string;
  /** The issue's phase as the orchestrator last recorded it (the one a run is in, when in flight). */
  readonly phase: string | null;
  /** The run in flight, when there is one. */
  readonly runId: string | null;
  /** The worker that has (or last had) the job. */
  readonly worker: string | null;
  /** For a finished job: how the issue ended. */
  readonly status: IssueResult["status"] | null;
  readonly failedReason: string | null;
  /** Times the job was taken back from a worker that stopped answering. */
  readonly stalled: number;
}

export interface FleetStatus {
  readonly counts: Readonly<Record<string, number>>;
  readonly jobs: readonly FleetJob[];
  readonly limiter: LimiterStats;
}

const STATES = ["active", "waiting", "prioritized", "delayed", "completed", "failed"] as const;

/** `climpt fleet status`: the queue's counts, each job with its issue's phase, and the shared limiter. */
export async function fleetStatus(options: {
  readonly queueUrl: URL;
  readonly queueName?: string;
  readonly limiter?: RedisLimiterOptions;
  /** Most jobs listed per state. Default 200. */
  readonly limit?: number;
}): Promise<FleetStatus> {
  const { Queue } = (await loadFleetModules()).bullmq;
  const redis = await connectRedis(options.queueUrl);
  const queue = new Queue(options.queueName ?? DEFAULT_QUEUE_NAME, {
    connection: bullConnection(options.queueUrl),
  });
  try {
    const counts = await queue.getJobCounts(...STATES);
    const store = new RedisIssueStateStore(redis);
    const jobs: FleetJob[] = [];
    for (const state of STATES) {
      for (const job of await queue.getJobs(state, 0, (options.limit ?? 200) - 1)) {
        const data = readIssueJob(job.data);
        const record = data.ok
          ? await store
              .read({
                repo: data.value.repo,
                issue: data.value.issue,
                workflowId: data.value.workflowId,
              })
              .catch(() => null)
          : null;
        const result = (job.returnvalue ?? null) as IssueResult | null;
        jobs.push({
          id: job.id ?? "",
          repo: data.ok ? data.value.repo : null,
          issue: data.ok ? data.value.issue : null,
          state,
          phase: record?.inFlight?.phase ?? record?.history.at(-1)?.to ?? result?.phase ?? null,
          runId: record?.inFlight?.runId ?? null,
          worker: job.processedBy ?? null,
          status: result?.status ?? null,
          failedReason: job.failedReason ?? null,
          stalled: job.stalledCounter ?? 0,
        });
      }
    }
    return { counts, jobs, limiter: await new RedisModelLimiter(redis, options.limiter).stats() };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
