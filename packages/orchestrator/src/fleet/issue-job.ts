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
  return { ok: true, value: record as unknown as IssueJobData };
}
