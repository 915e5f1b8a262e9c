import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { NO_SECRETS } from "@climpt/model";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { handoffDiff } from "./client/handoff-diff.ts";
import { looksLikeJournal } from "./discover-runs.ts";
import { adaptJournal, summarizeJournal } from "./journal-adapter.ts";
import { parseJournalLines } from "./journal-lines.ts";
import { loadDeclaredFlow } from "./registry-flow.ts";
import { DeclaredFlowCache, loadRunSource } from "./run-source.ts";
import { FIX_BUG, runDemo } from "./runs.test-helper.ts";
import type { DeclaredFlow, RunDetail } from "./view-model.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 12 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let events: unknown[];
let declared: DeclaredFlow;
let detail: RunDetail;

beforeAll(async () => {
  const demo = await runDemo();
  events = parseJournalLines(readFileSync(demo.journalPath, "utf8")).events;
  const flow = await loadDeclaredFlow(FIX_BUG);
  if (!flow.ok) throw new Error(flow.reason);
  declared = flow.flow;
  detail = adaptJournal(events, declared, "fallback-id");
});

describe("adaptJournal on the demo's journal", () => {
  it("summarises the run as the runs list shows it", () => {
    expect(detail.summary).toMatchObject({
      agent: "fix-bug",
      status: "completed",
      errorCode: null,
      errorFamily: null,
      iterations: 7,
      args: { issue: 1 },
      resumes: 0,
    });
    expect(detail.summary.tokens.input).toBeGreaterThan(0);
    expect(detail.summary.tokens.cacheRead).toBeGreaterThan(0);
    expect(detail.summary.costUsd).toBeGreaterThan(0);
    expect(detail.summary.runId).not.toBe("fallback-id");
  });

  it("keeps one step view per iteration with its prompt, output, tools, validators and retry prompt", () => {
    expect(
      detail.steps.map((step) => `${step.iteration}:${step.stepId}${step.retry ? " (retry)" : ""}`),
    ).toEqual([
      "1:initial.analyze",
      "2:continuation.implement",
      "3:verification.verify",
      "4:closure.fix",
      "5:continuation.implement (retry)",
      "6:verification.verify",
      "7:closure.fix",
    ]);
    const closeOut = detail.steps[3];
    expect(
      closeOut?.validators.map((validator) => `${validator.name}:${validator.passed}`),
    ).toEqual(["git-clean:false", "tests:true"]);
    expect(closeOut?.verdict).toMatchObject({ outcome: "retry", failurePattern: "git-dirty" });
    expect(closeOut?.retryPrompt).toContain("The close-out was refused");
    expect(detail.steps[4]?.promptSource).toBe("retry");
    expect(detail.steps[0]?.toolCalls.map((call) => call.name)).toEqual(["Bash", "Read"]);
    expect(detail.steps[0]?.intent).toBe("next");
    // Step tokens add up to the run's.
    const input = detail.steps.reduce((sum, step) => sum + step.tokens.input, 0);
    expect(input).toBe(detail.summary.tokens.input);
  });

  it("counts every move on the declared flow, the validation retry included", () => {
    const edge = (from: string, to: string) =>
      detail.flow.edges.find((candidate) => candidate.from === from && candidate.to === to);
    expect(edge("s:initial.analyze", "s:continuation.implement")?.taken).toBe(1);
    expect(edge("s:continuation.implement", "s:verification.verify")?.taken).toBe(2);
    expect(edge("s:closure.fix", "g:closure.fix")?.taken).toBe(2);
    expect(edge("g:closure.fix", "s:continuation.implement")).toMatchObject({
      taken: 1,
      retry: true,
    });
    expect(edge("g:closure.fix", "end")?.taken).toBe(1);
    // Declared but never taken: the repeat edges.
    expect(edge("s:closure.fix", "s:continuation.implement")).toMatchObject({
      taken: 0,
      label: "repeat",
    });
    expect(detail.flow.edges.some((candidate) => candidate.undeclared)).toBe(false);
    expect(detail.flow.failedKey).toBeNull();
  });

  it("draws the path from the journal alone when the agent's registry is gone", () => {
    const alone = adaptJournal(events, null, "x");
    expect(alone.flow.source).toBe("journal");
    expect(alone.flow.nodes.map((node) => node.key)).toEqual([
      "start",
      "s:initial.analyze",
      "s:continuation.implement",
      "s:verification.verify",
      "s:closure.fix",
      "end",
    ]);
    expect(alone.flow.edges.every((edge) => edge.taken > 0)).toBe(true);
  });

  it("shows the handoff a step received and what it changed", () => {
    const changes = handoffDiff(detail.steps, 4);
    expect(
      changes.find((change) => change.path === "continuation.implement.description"),
    ).toMatchObject({
      kind: "changed",
    });
    expect(changes.find((change) => change.path === "initial.analyze.cause")?.kind).toBe("same");
    expect(handoffDiff(detail.steps, 0).every((change) => change.kind === "added")).toBe(true);
  });
});

describe("a failed run's error", () => {
  it("keeps the specific code and the run-level family the runner reports", () => {
    // The runner's RunError is one Problem: `code` is specific, `family` the run-level group.
    const failedEnd = {
      type: "run_end",
      time: "2026-11-24T00:00:00Z",
      result: {
        success: false,
        iterations: 2,
        error: {
          code: "SR-INTENT-007",
          family: "GATE_INTERPRETATION_ERROR",
          severity: "error",
          message: "step initial.analyze: the intent is not one the step allows",
        },
      },
    };
    const summary = summarizeJournal([...events.slice(0, 20), failedEnd], "x");
    expect(summary).toMatchObject({
      status: "failed",
      errorCode: "SR-INTENT-007",
      errorFamily: "GATE_INTERPRETATION_ERROR",
      errorMessage: "step initial.analyze: the intent is not one the step allows",
    });
  });
});

describe("a program closure step", () => {
  it("draws the program's run as a bar under its step, failed when it exited non-zero", () => {
    const program = (exitCode: number) => ({
      type: "program",
      time: "2026-11-24T00:00:05Z",
      iteration: 1,
      stepId: "initial.analyze",
      command: ["gh", "pr", "merge", "8"],
      exitCode,
      stdout: "",
      stderr: "",
      durationMs: 1200,
    });
    const passed = adaptJournal([...events.slice(0, 10), program(0)], declared, "x");
    const failed = adaptJournal([...events.slice(0, 10), program(1)], declared, "x");
    const bar = (detail: RunDetail) =>
      detail.spans.find((span) => span.label.startsWith("program "));
    expect(bar(passed)).toMatchObject({
      label: "program gh pr merge 8 → exit 0",
      status: "ok",
      durationMs: 1200,
    });
    expect(bar(failed)?.status).toBe("error");
    expect(passed.notices.join("\n")).not.toContain("program");
  });
});

describe("a budget that sent the run to its onBudget step", () => {
  it("is shown with the run's notices: which budget, before which iteration, where the run went", () => {
    const budget = {
      type: "budget",
      runId: "r",
      time: "2026-11-24T00:00:01Z",
      seq: 11,
      iteration: 4,
      stepId: "verification.verify",
      reached: { limit: "maxCostUsd", max: 0.5, spent: 0.51, onBudget: "closure.budget" },
    };
    const result = adaptJournal([...events.slice(0, 10), budget], declared, "x");
    expect(result.notices).toContain(
      "Budget: the run's maxCostUsd of 0.5 was reached before iteration 4; the run went to closure.budget.",
    );
    expect(result.notices.join("\n")).not.toContain("unknown");
  });
});

describe("a journal this viewer did not expect", () => {
  it("skips unknown events and wrongly typed fields and says so, never throwing", () => {
    const odd = [
      ...events.slice(0, 10),
      { type: "from_the_future", runId: "r", time: "2026-11-24T00:00:00Z", seq: 99 },
      { type: "model_response", iteration: "one", usage: "lots", content: 7 },
      { type: "tool_result", call: null, result: 5 },
      { type: "step_end", iteration: 1, stepId: "initial.analyze", history: null, handoff: [1, 2] },
      ["not", "an", "event"],
    ];
    const result = adaptJournal(odd, declared, "x");
    expect(result.notices.join("\n")).toContain("from_the_future");
    expect(result.summary.status).toBe("unfinished");
    expect(result.steps[0]?.stepId).toBe("initial.analyze");
  });

  it("reads a torn or edited line as skipped, and an unfinished run as running at its last step", () => {
    // A line cut in half in the middle (an edit) and at the end (a crash while writing).
    const lines = events.slice(0, 20).map((event) => JSON.stringify(event));
    lines.splice(5, 0, '{"type": "gate", "cut');
    const parsed = parseJournalLines(`${lines.join("\n")}\n{"type":"step_st`);
    expect(parsed.skippedLines).toEqual([6, 22]);
    const summary = summarizeJournal(parsed.events, "fallback");
    expect(summary.status).toBe("unfinished");
    expect(summary.currentStepId).toBe("continuation.implement");
  });

  it("leaves out a line nested 100,000 levels deep, says so, and shows the rest", async () => {
    const deep = `{"type":"note","deep":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`;
    const lines = events.map((event) => JSON.stringify(event));
    lines.splice(3, 0, deep);
    const dir = mkdtempSync(path.join(tmpdir(), "climpt-viewer-deep-"));
    try {
      const file = path.join(dir, "20261128T000000Z-deep00.jsonl");
      writeFileSync(file, `${lines.join("\n")}\n`);
      // Scrubbing every event is a recursive walk: without the check, a stack overflow.
      const loaded = await loadRunSource(file, NO_SECRETS, new DeclaredFlowCache());
      expect(loaded.source.events).toHaveLength(events.length);
      expect(loaded.source.notices.join("\n")).toMatch(
        /^RUN-JOURNAL-004: 1 line of .* \(line 4\)/m,
      );
      expect(loaded.summary.status).toBe("completed");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("does not take a FIFO named like a journal for one, and does not wait on it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "climpt-viewer-fifo-"));
    try {
      const fifo = path.join(dir, "20261128T000000Z-fifo00.jsonl");
      execFileSync("mkfifo", [fifo]);
      expect(looksLikeJournal(fifo)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
