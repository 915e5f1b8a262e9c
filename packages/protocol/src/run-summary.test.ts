import { describe, expect, it } from "vitest";
import { parseJournal } from "./journal-parse.ts";
import { RUN_STATUSES, runStatusOf, summarizeRun } from "./run-summary.ts";

const start = {
  type: "run_start",
  runId: "r1",
  time: "2026-11-28T06:00:00.000Z",
  seq: 1,
  agent: "a",
};
const usage = { inputTokens: 10, outputTokens: 5, costUsd: 0.5 };
const end = (success: boolean, error?: { code: string; family?: string }, seq = 3) => ({
  type: "run_end",
  runId: "r1",
  time: "2026-11-28T06:00:02.000Z",
  seq,
  result: { success, usage, resumable: !success, ...(error === undefined ? {} : { error }) },
});
const summaryOf = (lines: readonly object[]) =>
  summarizeRun(
    parseJournal(lines.map((line) => JSON.stringify(line)).join("\n"), "r1.jsonl").events,
    "r1.jsonl",
  );

describe("runStatusOf", () => {
  it("names each state with one word", () => {
    expect(runStatusOf(undefined)).toBe("unfinished");
    expect(runStatusOf({ success: true })).toBe("completed");
    expect(runStatusOf({ success: false, error: { code: "SR-INTENT-007" } })).toBe("failed");
    expect(
      runStatusOf({
        success: false,
        error: { code: "RUN-SIGNAL-001", family: "AGENT_INTERRUPTED" },
      }),
    ).toBe("interrupted");
    expect(RUN_STATUSES).toEqual(["completed", "failed", "interrupted", "unfinished"]);
  });
});

describe("summarizeRun", () => {
  it("folds a journal into its status, counts and usage", () => {
    expect(summaryOf([start, end(true)])).toMatchObject({
      runId: "r1",
      agent: "a",
      status: "completed",
      error: null,
      tokens: 15,
      costUsd: 0.5,
      durationMs: 2000,
      resumes: 0,
    });
    expect(summaryOf([start, end(false, { code: "AGENT_VALIDATION_ABORT" })])).toMatchObject({
      status: "failed",
      error: "AGENT_VALIDATION_ABORT",
      resumable: true,
    });
  });

  it("says where a fork started, and null for a run that is no fork", () => {
    const forkedFrom = {
      runId: "r0",
      iteration: 2,
      stepId: "continuation.implement",
      snapshot: "0123456789012345678901234567890123456789",
      usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.1 },
    };
    expect(summaryOf([{ ...start, forkedFrom }, end(true)])?.forkedFrom).toEqual({
      runId: "r0",
      iteration: 2,
      stepId: "continuation.implement",
    });
    expect(summaryOf([start, end(true)])?.forkedFrom).toBeNull();
  });

  it("is unfinished without run_end, and again after a resume with no run_end yet", () => {
    expect(summaryOf([start])?.status).toBe("unfinished");
    const stopped = end(false, { code: "AGENT_INTERRUPTED" });
    expect(summaryOf([start, stopped])?.status).toBe("interrupted");
    const resume = { type: "run_resume", runId: "r1", time: start.time, seq: 4 };
    expect(summaryOf([start, stopped, resume])).toMatchObject({
      status: "unfinished",
      resumes: 1,
    });
    expect(summaryOf([start, stopped, resume, end(true, undefined, 5)])?.status).toBe("completed");
  });

  it("has nothing to say of a journal without run_start", () => {
    expect(summaryOf([end(true)])).toBeUndefined();
  });
});
