import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";

/** One job of the queue: one issue of one repository. */
export interface IssueJobData {
  readonly version: 1;
  /** `owner/name`. */
  readonly repo: string;
  readonly issue: number;
  readonly title: string;
  /** The workflow's id (its label prefix, or `default`): names the issue's record. */
  readonly workflowId: string;
  /** The checkout the job was enqueued from; a worker may map the repository elsewhere. */
  readonly checkout: string;
  /** The workflow file, relative to the checkout. */
  readonly workflowPath: string;
  /**
   * The issue's labels and state as the enqueuer's one listing of the batch read them, and when
   * (ms since the epoch): the worker's first read of the issue while fresh (`IssuePassOptions.listed`).
   */
  readonly listed?: {
    readonly state: "OPEN" | "CLOSED";
    readonly labels: readonly string[];
    readonly readAt: number;
  };
  /** Times a worker put the job back for later (the issue locked, a run interrupted). */
  readonly deferrals?: number;
}

/** `<repo>#<issue>`: BullMQ keeps one job per id, so an issue is never in flight twice. */
export function issueJobId(repo: string, issue: number): string {
  return `${repo}#${issue}`;
}

/** The job's data, checked: a job not made by `climpt orchestrate --queue` is refused, coded. */
export function readIssueJob(
  data: unknown,
): { ok: true; value: IssueJobData } | { ok: false; error: OrchestratorError } {
  const record = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const strings = ["repo", "title", "workflowId", "checkout", "workflowPath"] as const;
  const valid =
    record.version === 1 &&
    typeof record.issue === "number" &&
    Number.isInteger(record.issue) &&
    strings.every((key) => typeof record[key] === "string");
  if (!valid) {
    return {
      ok: false,
      error: {
        code: C.queueBadJob,
        message: `A job's data is not an issue job of this climpt version: ${JSON.stringify(data).slice(0, 200)}`,
        hint: "Enqueue issues with `climpt orchestrate --queue URL`; remove foreign jobs from the queue.",
      },
    };
  }
  const job = record as unknown as IssueJobData;
  // The listing only spares a read: one that is not what the enqueuer writes is left unused.
  const listed = record.listed as Record<string, unknown> | undefined;
  const usable =
    typeof listed === "object" &&
    listed !== null &&
    (listed.state === "OPEN" || listed.state === "CLOSED") &&
    Array.isArray(listed.labels) &&
    listed.labels.every((label) => typeof label === "string") &&
    typeof listed.readAt === "number";
  if (listed === undefined || usable) return { ok: true, value: job };
  const { listed: _unusable, ...rest } = job;
  return { ok: true, value: rest };
}
