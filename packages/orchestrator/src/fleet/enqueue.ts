import type { OrchestratorError } from "../codes.ts";
import { type LabelSyncEntry, syncLabels } from "../github/label-sync.ts";
import { prioritizeBatch } from "../orchestrate/orchestrate-batch.ts";
import type { OrchestratorContext } from "../orchestrate/orchestrate-issue.ts";
import { prioritizerProblem } from "../orchestrate/prioritizer-problem.ts";
import { orderIssues, orderRank } from "../phase-machine/priority-order.ts";
import { resolvePhase } from "../phase-machine/resolve-phase.ts";
import { loadFleetModules } from "./fleet-modules.ts";
import { type IssueJobData, issueJobId } from "./issue-job.ts";
import { bullConnection, connectRedis, DEFAULT_QUEUE_NAME } from "./redis-connection.ts";
import { repoCapKey } from "./repo-slots.ts";

export interface EnqueueOptions {
  readonly queueUrl: URL;
  readonly queueName?: string;
  /** The checkout the workers work in (unless they map the repository elsewhere). */
  readonly checkout: string;
  /** Relative to the checkout. */
  readonly workflowPath: string;
  readonly labels?: readonly string[];
  readonly state?: "open" | "closed" | "all";
  readonly limit?: number;
  readonly prioritize?: boolean;
  /** At most this many issues of the repository worked on at once across the fleet (0: no cap). */
  readonly repoConcurrency?: number;
  readonly dryRun?: boolean;
}

export interface EnqueuedJob {
  readonly id: string;
  readonly issue: number;
  /** `added`; `queued` (already waiting or running: left alone); `re-added` (a finished job of the issue was replaced). */
  readonly action: "added" | "queued" | "re-added" | "skipped";
  readonly phase: string | null;
}

export interface EnqueueResult {
  readonly status: "completed" | "failed";
  readonly jobs: readonly EnqueuedJob[];
  readonly labelSync: readonly LabelSyncEntry[];
  readonly warnings: readonly OrchestratorError[];
  readonly error?: OrchestratorError;
}

const LIVE_STATES = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);

/**
 * `climpt orchestrate --queue`: one job per issue of the batch (job id `<repo>#<issue>`), in the
 * prioritizer's order (BullMQ priority), instead of running them here. An issue whose job is
 * waiting or running is left alone, so it is never in flight twice; a finished job of the issue
 * is replaced, so a later pass can take it further. Issues with no actionable phase are skipped.
 */
export async function enqueueIssues(
  context: OrchestratorContext,
  options: EnqueueOptions,
): Promise<EnqueueResult> {
  const { workflow, gh } = context;
  const dryRun = options.dryRun === true;
  const warnings: OrchestratorError[] = [];
  const unusable = options.prioritize === true ? prioritizerProblem(workflow) : null;
  if (unusable !== null) {
    return { status: "failed", jobs: [], labelSync: [], warnings, error: unusable };
  }
  const synced = await syncLabels(gh, workflow, { dryRun });
  if (!synced.ok)
    return { status: "failed", jobs: [], labelSync: [], warnings, error: synced.error };
  for (const entry of synced.value) if (entry.error !== undefined) warnings.push(entry.error);
  const listed = await gh.listIssues({
    ...(options.labels === undefined ? {} : { labels: options.labels }),
    state: options.state ?? "open",
    limit: options.limit ?? 30,
  });
  if (!listed.ok)
    return { status: "failed", jobs: [], labelSync: synced.value, warnings, error: listed.error };
  const readAt = Date.now();
  let issues = listed.value;
  if (options.prioritize === true && !dryRun)
    issues = await prioritizeBatch(context, issues, warnings);
  const ordered = orderIssues(workflow, issues);
  const { Queue } = (await loadFleetModules()).bullmq;
  const redis = await connectRedis(options.queueUrl);
  const queue = new Queue(options.queueName ?? DEFAULT_QUEUE_NAME, {
    connection: bullConnection(options.queueUrl),
  });
  try {
    if (options.repoConcurrency !== undefined && !dryRun) {
      await redis.set(repoCapKey(context.repo), String(options.repoConcurrency));
    }
    const jobs: EnqueuedJob[] = [];
    for (const issue of ordered) {
      const id = issueJobId(context.repo, issue.number);
      const resolved = resolvePhase(workflow, issue.labels);
      const phase = resolved.kind === "none" ? null : resolved.phase.id;
      if (resolved.kind !== "actionable") {
        jobs.push({ id, issue: issue.number, action: "skipped", phase });
        continue;
      }
      const existing = await queue.getJob(id);
      const state = existing === undefined ? null : await existing.getState();
      if (state !== null && LIVE_STATES.has(state)) {
        jobs.push({ id, issue: issue.number, action: "queued", phase });
        continue;
      }
      if (!dryRun) {
        if (existing !== undefined && state !== null && state !== "unknown")
          await existing.remove();
        const data: IssueJobData = {
          version: 1,
          repo: context.repo,
          issue: issue.number,
          title: issue.title,
          workflowId: workflow.id,
          checkout: options.checkout,
          workflowPath: options.workflowPath,
          listed: { state: issue.state, labels: issue.labels, readAt },
        };
        await queue.add("issue", data, {
          jobId: id,
          // BullMQ runs lower priorities first; the order label's rank, 1-based.
          priority: orderRank(workflow, issue.labels) + 1,
          attempts: 3,
          backoff: { type: "exponential", delay: 5_000 },
          removeOnComplete: { count: 5_000 },
          removeOnFail: { count: 5_000 },
        });
      }
      jobs.push({
        id,
        issue: issue.number,
        action: existing === undefined ? "added" : "re-added",
        phase,
      });
    }
    return { status: "completed", jobs, labelSync: synced.value, warnings };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
