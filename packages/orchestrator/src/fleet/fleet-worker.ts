import { availableParallelism } from "node:os";
import path from "node:path";
import { formatCode, formatProblem } from "@climpt/model";
import type { RunEvent } from "@climpt/runner";
import type { Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { RunnerDispatcher, type RunnerDispatcherOptions } from "../dispatch/runner-dispatcher.ts";
import { GhClient } from "../github/gh-client.ts";
import { loadWorkflow } from "../load-workflow.ts";
import {
  type IssueResult,
  orchestrateIssue,
  type ProgressEvent,
} from "../orchestrate/orchestrate-issue.ts";
import { loadFleetModules } from "./fleet-modules.ts";
import { readIssueJob } from "./issue-job.ts";
import { bullConnection, connectRedis, DEFAULT_QUEUE_NAME } from "./redis-connection.ts";
import { redisJournalStore } from "./redis-journal-store.ts";
import { type RedisLimiterOptions, RedisModelLimiter } from "./redis-limiter.ts";
import { DEFAULT_ISSUE_LEASE_MS, RedisIssueStateStore } from "./redis-state-store.ts";
import { redisStepCommits } from "./redis-step-commits.ts";
import { RepoSlots } from "./repo-slots.ts";

export interface FleetWorkerOptions {
  readonly queueUrl: URL;
  readonly queueName?: string;
  /** Names the worker in job records (`processedBy`) and logs. Default `<host>-<pid>`. */
  readonly name?: string;
  /** Jobs at once in this worker. Default: one per core. */
  readonly concurrency?: number;
  /** `owner/name` → the local checkout of that repository, when it is not the job's path. */
  readonly checkouts?: Readonly<Record<string, string>>;
  /** Per-repository cap across the fleet when the enqueuer set none; 0: no cap. */
  readonly repoConcurrency?: number;
  /**
   * BullMQ's job lock; a worker that stops renewing it (killed) loses the job after this.
   * Default 60 s, renewed every quarter of it (README: "Lock and lease times").
   */
  readonly lockDurationMs?: number;
  /** How often the stalled-job check runs. Default 30 s. */
  readonly stalledIntervalMs?: number;
  /** Times one job may be recovered from a dead worker before it fails. Default 5. */
  readonly maxStalledCount?: number;
  /**
   * Lease of the issue lock and the repository slot, renewed every quarter of it. Default 60 s.
   * A worker whose issue lock lapses anyway stops that issue's run at once (`ORC-STATE-003`).
   */
  readonly leaseMs?: number;
  readonly limiter?: RedisLimiterOptions;
  /** Worktrees of issues go here (default next to the checkout). */
  readonly worktreeRoot?: string;
  /**
   * The git remote (of each checkout) the fleet shares issue branches through, for workers on
   * several machines: each run pushes its issue's branch there at every step end, and a worker
   * makes or resets an issue's worktree from it before running. Without it, workers must share
   * the checkout's disk.
   */
  readonly remote?: string;
  /** The gh executable and the environment of gh, tools and validators. */
  readonly ghCommand?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Runner options (fsync, timeouts, prices). */
  readonly runner?: RunnerDispatcherOptions["runner"];
  /** One line per thing that happened, for the terminal. */
  readonly log?: (line: string) => void;
  readonly onEvent?: (issue: number, event: RunEvent) => void;
}

export interface FleetWorker {
  readonly name: string;
  readonly worker: Worker;
  /** Stops taking jobs, stops the runs in flight (they are resumable), waits for them, disconnects. */
  close(): Promise<void>;
}

/** BullMQ's job lock by default (README: "Lock and lease times"). */
export const DEFAULT_JOB_LOCK_MS = 60_000;

/** How long a job put back for later waits, by how often it was put back. */
function deferral(times: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.min(times, 6));
}

function describe(event: ProgressEvent): string {
  switch (event.kind) {
    case "dispatch":
      return `#${event.issue} ${event.resume ? "resumes" : "runs"} ${event.agent} (${event.phase})`;
    case "run-started":
      return `#${event.issue} run ${event.runId}`;
    case "transition":
      return `#${event.issue} ${event.record.from} → ${event.record.to} (${event.record.outcome})${event.closed ? ", closed" : ""}`;
    case "stop":
      return `#${event.issue} ${event.status}${event.phase === null ? "" : ` at ${event.phase}`}${event.error === undefined ? "" : ` (${formatCode(event.error)})`}`;
    case "run-ended":
      return `#${event.issue} ${event.agent} run ${event.runId ?? "-"} ended: ${event.interrupted ? "interrupted" : event.success ? "success" : "failed"}${event.error === undefined ? "" : ` (${formatCode(event.error)})`}`;
    case "landed":
      return `#${event.issue} work landed: ${event.landed.mode}${event.landed.pushed === null ? "" : ` ${event.landed.pushed}`}${event.landed.pullRequest === null ? "" : ` ${event.landed.pullRequest}`}`;
    case "handoff":
      return `#${event.issue} handoff ${event.handoff} → ${event.path}`;
  }
}

/**
 * `climpt worker`: takes issue jobs from the queue and runs each with `orchestrateIssue`, the
 * state of every issue in Redis so any worker can pick up where another stopped. A job whose
 * repository is at its cap, whose issue another worker holds, or whose run was interrupted is
 * put back for later (BullMQ delayed), not failed. A worker that is killed stops renewing its
 * job lock; BullMQ's stalled-job check gives the job to another worker, which finds the run in
 * the issue's record and resumes it from its journal.
 */
export async function startFleetWorker(options: FleetWorkerOptions): Promise<FleetWorker> {
  const { DelayedError, UnrecoverableError, Worker } = (await loadFleetModules()).bullmq;
  const redis: Redis = await connectRedis(options.queueUrl);
  const leaseMs = options.leaseMs ?? DEFAULT_ISSUE_LEASE_MS;
  const store = new RedisIssueStateStore(redis, leaseMs);
  const limiter = new RedisModelLimiter(redis, options.limiter);
  const slots = new RepoSlots(redis, options.repoConcurrency ?? 0, leaseMs);
  // Every run's journal also goes to Redis, so a worker on another machine can resume it.
  const journalStore = redisJournalStore(redis);
  const stop = new AbortController();
  const name = options.name ?? `${process.env.HOSTNAME ?? "worker"}-${process.pid}`;
  const log = options.log ?? (() => undefined);
  const env = options.env ?? process.env;

  const processor = async (job: Job, token?: string): Promise<IssueResult> => {
    const read = readIssueJob(job.data);
    if (!read.ok) throw new UnrecoverableError(`${read.error.code}: ${read.error.message}`);
    const data = read.value;
    const putBack = async (why: string): Promise<never> => {
      const times = (data.deferrals ?? 0) + 1;
      await job.updateData({ ...data, deferrals: times });
      const delay = stop.signal.aborted ? 0 : deferral(times);
      try {
        await job.moveToDelayed(Date.now() + delay, token);
        log(`${job.id}: ${why}; back in the queue in ${delay} ms`);
      } catch (error) {
        // The job's BullMQ lock is no longer this worker's (the stalled-job check gave the job
        // to another worker): that worker owns the job now; this one only lets go of it.
        log(`${job.id}: ${why}; the job is another worker's now (${(error as Error).message})`);
      }
      throw new DelayedError();
    };
    const slot = await slots.acquire(data.repo, job.id ?? "");
    if (slot === null) return putBack(`${data.repo} is at its concurrency cap`);
    try {
      const checkout = options.checkouts?.[data.repo] ?? data.checkout;
      const loaded = await loadWorkflow(checkout, { path: data.workflowPath });
      if (!loaded.ok) {
        throw new UnrecoverableError(
          loaded.issues.map((problem) => formatProblem(problem)).join("\n"),
        );
      }
      const ghOptions = {
        cwd: checkout,
        repo: data.repo,
        env,
        ...(options.ghCommand === undefined ? {} : { command: options.ghCommand }),
      };
      const gh = new GhClient(ghOptions);
      const result = await orchestrateIssue(
        {
          workflow: loaded.value.workflow,
          gh,
          dispatcher: new RunnerDispatcher({
            repoDir: checkout,
            // A workflow whose work lands as a pull request opens it through the same gh.
            gh,
            limiter,
            journalStore,
            ...(options.remote === undefined
              ? {}
              : { remote: options.remote, stepCommits: redisStepCommits(redis) }),
            ...(options.worktreeRoot === undefined
              ? {}
              : { worktreeRoot: path.resolve(options.worktreeRoot) }),
            runner: {
              ...options.runner,
              env,
              ...(options.ghCommand === undefined ? {} : { ghCommand: options.ghCommand }),
            },
            ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
          }),
          store,
          repo: data.repo,
          signal: stop.signal,
          onProgress: (event) => log(`${data.repo}${describe(event)}`),
        },
        data.issue,
      );
      if (stop.signal.aborted && result.status === "interrupted")
        return putBack("the worker is stopping");
      if (result.status === "locked") return putBack("another worker holds the issue");
      if (result.status === "waiting" && !stop.signal.aborted) {
        // CI runs: the job waits as a delayed job (its record keeps the wait), holding no slot.
        const delay = result.retryAfterMs ?? 1_000;
        try {
          await job.moveToDelayed(Date.now() + delay, token);
          log(`${job.id}: waiting for the pull request's checks; back in ${delay} ms`);
        } catch (error) {
          log(`${job.id}: waiting; the job is another worker's now (${(error as Error).message})`);
        }
        throw new DelayedError();
      }
      if (result.status === "waiting") return putBack("the worker is stopping");
      if (result.status === "interrupted" && (data.deferrals ?? 0) < 10) {
        return putBack(
          `the run was interrupted (${result.error === undefined ? "?" : formatCode(result.error)})`,
        );
      }
      return result;
    } finally {
      await slot.release();
    }
  };

  const lockDuration = options.lockDurationMs ?? DEFAULT_JOB_LOCK_MS;
  const worker = new Worker(options.queueName ?? DEFAULT_QUEUE_NAME, processor, {
    connection: bullConnection(options.queueUrl),
    concurrency: options.concurrency ?? availableParallelism(),
    name,
    lockDuration,
    // BullMQ renews a job's lock only once it is older than half of lockRenewTime, checking every
    // half of it: in effect every lockRenewTime. Its default (half the lock) leaves one missed
    // renewal before the lock runs out; a quarter leaves three.
    lockRenewTime: Math.max(50, Math.floor(lockDuration / 4)),
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 5,
  });
  worker.on("lockRenewalFailed", (jobIds) =>
    log(
      `${jobIds.join(", ")}: the job lock could not be renewed; the run goes on only while this worker holds the issue's lock`,
    ),
  );
  worker.on("stalled", (jobId) =>
    log(`${jobId}: its worker stopped answering; the job goes to another worker`),
  );
  worker.on("failed", (job, error) => log(`${job?.id ?? "?"}: failed: ${error.message}`));
  worker.on("error", (error) => log(`worker error: ${error.message}`));
  await worker.waitUntilReady();
  return {
    name,
    worker,
    close: async () => {
      stop.abort();
      await worker.close();
      redis.disconnect();
    },
  };
}
