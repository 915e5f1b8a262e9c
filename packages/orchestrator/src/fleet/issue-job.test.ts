import { describe, expect, it } from "vitest";
import { readIssueJob } from "./issue-job.ts";

const job = {
  version: 1,
  repo: "acme/widgets",
  issue: 4,
  title: "Four",
  workflowId: "default",
  checkout: "/repo",
  workflowPath: ".agent/workflow.json",
};

describe("an issue job's listing of its issue", () => {
  it("keeps the enqueuer's listing (labels, state, when it was read)", () => {
    const listed = { state: "OPEN", labels: ["kind:review"], readAt: 1_700_000_000_000 };
    expect(readIssueJob({ ...job, listed })).toEqual({ ok: true, value: { ...job, listed } });
  });

  it("leaves a listing it cannot use unused, so the worker reads the issue itself", () => {
    for (const listed of [
      { state: "OPEN", labels: "kind:review", readAt: 1 },
      { state: "open", labels: [], readAt: 1 },
      { state: "OPEN", labels: [3], readAt: 1 },
      { state: "OPEN", labels: [] },
      null,
    ]) {
      expect(readIssueJob({ ...job, listed })).toEqual({ ok: true, value: job });
    }
  });
});
