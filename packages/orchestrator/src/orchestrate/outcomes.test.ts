/**
 * How a run's end moves the issue, beyond the phase machine: a failure takes the fallback, an
 * interruption keeps the phase (a bounded number of times), a successful run's work lands before
 * the issue moves on, and an outcome with no phase holds the issue where it is.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeGh, installFakeGh } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GhClient } from "../github/gh-client.ts";
import { FileIssueStateStore } from "../state/file-state-store.ts";
import type { Workflow } from "../workflow-model.ts";
import { pipeline, workflowOf } from "../workflows.test-helper.ts";
import { ScriptedDispatcher, type ScriptedRun } from "./dispatcher.test-helper.ts";
import { orchestrateBatch } from "./orchestrate-batch.ts";
import { type OrchestratorContext, orchestrateIssue } from "./orchestrate-issue.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 6 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(
  issues: { title: string; labels: string[] }[],
  script: Record<number, ScriptedRun[]>,
  workflow: Workflow = pipeline(),
  extra: Partial<OrchestratorContext> = {},
): {
  fake: FakeGh;
  context: OrchestratorContext;
  dispatcher: ScriptedDispatcher;
  stateDir: string;
} {
  const labels = [
    ...workflow.labelMapping.map(([label]) => label),
    ...(workflow.prioritizer?.labels ?? []),
  ];
  const fake = installFakeGh({ repo: "acme/widgets", labels, issues });
  const stateDir = mkdtempSync(path.join(tmpdir(), "climpt-orc-outcomes-"));
  cleanups.push(
    () => fake.remove(),
    () => rmSync(stateDir, { recursive: true, force: true }),
  );
  const dispatcher = new ScriptedDispatcher(script);
  const context: OrchestratorContext = {
    workflow,
    gh: new GhClient({ cwd: fake.dir, env: { ...process.env, ...fake.env } }),
    dispatcher,
    store: new FileIssueStateStore(stateDir),
    repo: "acme/widgets",
    ...extra,
  };
  return { fake, context, dispatcher, stateDir };
}

const bodies = (fake: FakeGh, issue: number): string[] =>
  (fake.issue(issue)?.comments ?? []).map((comment) => comment.body);

const overloaded = {
  code: "AC-MODEL-003",
  message: "The model API is overloaded (529).",
};

describe("interruptions are bounded across passes", () => {
  it("resumes an interrupted run up to maxInterruptions passes, then fails it into the fallback phase with a comment saying why", async () => {
    const interrupted: ScriptedRun = { success: false, interrupted: true, error: overloaded };
    const { fake, context, dispatcher } = setup(
      [{ title: "Flaky", labels: ["kind:impl"] }],
      { 1: [interrupted, interrupted, interrupted] },
      pipeline(),
      { maxInterruptions: 3 },
    );
    for (let pass = 1; pass <= 3; pass++) {
      const result = await orchestrateIssue(context, 1);
      expect(result).toMatchObject({ status: "interrupted", phase: "implementing" });
    }
    // The same run was resumed each time: one run id, the later requests resumes of it.
    expect(dispatcher.requests.map((request) => request.resume?.runId ?? null)).toEqual([
      null,
      "run-1",
      "run-1",
    ]);
    const fourth = await orchestrateIssue(context, 1);
    expect(dispatcher.requests).toHaveLength(3);
    expect(fourth).toMatchObject({ status: "blocked", phase: "blocked", closed: false });
    expect(fourth.error?.code).toBe("ORC-DISPATCH-006");
    expect(fake.issue(1)?.labels).toEqual(["need clearance"]);
    const [comment] = bodies(fake, 1);
    expect(comment).toContain("ORC-DISPATCH-006");
    expect(comment).toContain("interrupted 3 time(s) in a row");
    expect(comment).toContain("AC-MODEL-003");
  });

  it("counts afresh once a run reaches an outcome", async () => {
    const interrupted: ScriptedRun = { success: false, interrupted: true, error: overloaded };
    const { context, dispatcher } = setup(
      [{ title: "Flaky", labels: ["kind:impl"] }],
      { 1: [interrupted, interrupted, {}, interrupted, interrupted, {}] },
      pipeline((raw) => {
        const agents = raw.agents as Record<string, Record<string, unknown>>;
        (agents.implementer as Record<string, unknown>).outputPhase = "implementing";
      }),
      { maxInterruptions: 3 },
    );
    await orchestrateIssue(context, 1);
    await orchestrateIssue(context, 1);
    // The third attempt completes and re-enters implementing; its next run is a new one.
    const third = await orchestrateIssue(context, 1);
    expect(third.status).toBe("interrupted");
    const fourth = await orchestrateIssue(context, 1);
    expect(fourth.status).toBe("interrupted");
    expect(dispatcher.requests).toHaveLength(5);
  });
});

describe("an outcome with no phase holds the issue", () => {
  it("comments once, does not dispatch again while the labels stay, and runs again once a person relabels", async () => {
    const workflow = workflowOf({
      version: "1.0.0",
      phases: {
        work: { type: "actionable", priority: 1, agent: "worker" },
        again: { type: "actionable", priority: 2, agent: "worker" },
        done: { type: "terminal" },
      },
      labelMapping: { work: "work", again: "again", done: "done" },
      agents: { worker: { role: "transformer", outputPhase: "done" } },
    });
    const failed: ScriptedRun = { success: false, error: { code: "AC-MODEL-006", message: "400" } };
    const { fake, context, dispatcher } = setup(
      [{ title: "No fallback", labels: ["work"] }],
      { 1: [failed, {}] },
      workflow,
    );
    const first = await orchestrateIssue(context, 1);
    expect(first).toMatchObject({ status: "error", phase: "work" });
    expect(first.error?.code).toBe("ORC-STATE-004");
    expect(bodies(fake, 1)).toHaveLength(1);
    expect(bodies(fake, 1)[0]).toContain("until a person relabels it");
    const second = await orchestrateIssue(context, 1);
    expect(second.error?.code).toBe("ORC-STATE-004");
    expect(dispatcher.requests).toHaveLength(1);
    expect(bodies(fake, 1)).toHaveLength(1);
    fake.update((state) => {
      const issue = state.repos["acme/widgets"]?.issues.find((candidate) => candidate.number === 1);
      if (issue !== undefined) issue.labels = ["again"];
    });
    const third = await orchestrateIssue(context, 1);
    expect(third).toMatchObject({ status: "completed", phase: "done" });
    expect(dispatcher.requests).toHaveLength(2);
  });
});

describe("the work lands before the issue moves on", () => {
  it("asks the dispatcher to land a successful run's branch, says where in the comment, and moves on", async () => {
    const { fake, context, dispatcher } = setup(
      [{ title: "Implement it", labels: ["kind:impl"] }],
      { 1: [{ values: {} }, { verdict: "approved", values: { summary: "Good." } }] },
    );
    dispatcher.landing = () => ({
      ok: true,
      value: { mode: "merge", base: "main", commits: 2, pushed: null, pullRequest: null },
    });
    const result = await orchestrateIssue(context, 1);
    expect(result).toMatchObject({ status: "completed", phase: "done", closed: true });
    expect(dispatcher.landRequests.map((request) => request.branch)).toEqual([
      "climpt/issue-1",
      "climpt/issue-1",
    ]);
    expect(dispatcher.landRequests[0]?.landing).toBeNull();
    expect(result.landed?.[0]).toMatchObject({ mode: "merge", commits: 2 });
    expect(bodies(fake, 1)[0]).toContain("(2 commits) was merged into `main`");
  });

  it("sends the issue to the fallback phase with the landing's code when the work cannot land, and never closes it", async () => {
    const { fake, context, dispatcher } = setup(
      [{ title: "Conflicting", labels: ["kind:review"] }],
      { 1: [{ verdict: "approved", values: { summary: "Good." } }] },
      pipeline(),
      { landing: { mode: "pull-request", remote: "origin", base: "main" } },
    );
    dispatcher.landing = () => ({
      ok: false,
      error: {
        code: "ORC-LAND-001",
        message: 'The issue\'s branch "climpt/issue-1" does not merge cleanly into "main".',
        hint: "Merge by hand.",
      },
    });
    const result = await orchestrateIssue(context, 1);
    expect(dispatcher.landRequests[0]?.landing).toEqual({
      mode: "pull-request",
      remote: "origin",
      base: "main",
    });
    expect(result).toMatchObject({ status: "blocked", phase: "blocked", closed: false });
    expect(result.error?.code).toBe("ORC-LAND-001");
    expect(fake.issue(1)).toMatchObject({ state: "OPEN", labels: ["need clearance"] });
    expect(bodies(fake, 1)[0]).toContain("ORC-LAND-001");
    expect(bodies(fake, 1)[0]).toContain("Merge by hand.");
  });

  it("lands nothing for a failed run (its work stays on its branch)", async () => {
    const { context, dispatcher } = setup([{ title: "t", labels: ["kind:impl"] }], {
      1: [{ success: false, error: { code: "AGENT_VALIDATION_ABORT", message: "no" } }],
    });
    dispatcher.landing = () => {
      throw new Error("must not land");
    };
    const result = await orchestrateIssue(context, 1);
    expect(result.phase).toBe("blocked");
    expect(dispatcher.landRequests).toEqual([]);
  });
});

describe("--prioritize and a prioritizer the workflow does not declare", () => {
  it("loads with a warning, runs without --prioritize, and refuses --prioritize with WF-REF-008", async () => {
    const workflow = pipeline((raw) => {
      (raw.prioritizer as Record<string, unknown>).agent = "triager2";
    });
    const { context } = setup([{ title: "t", labels: ["done"] }], {}, workflow);
    const refused = await orchestrateBatch(context, { prioritize: true });
    expect(refused).toMatchObject({ status: "failed", error: { code: "WF-REF-008" } });
    const plain = await orchestrateBatch(context, {});
    expect(plain.status).toBe("completed");
  });
});

it("keeps the state it needs in the issue's record file", async () => {
  const interrupted: ScriptedRun = { success: false, interrupted: true, error: overloaded };
  const { context, stateDir } = setup([{ title: "t", labels: ["kind:impl"] }], {
    1: [interrupted],
  });
  await orchestrateIssue(context, 1);
  const file = path.join(stateDir, "default", "acme_widgets", "issue-1.json");
  const record = JSON.parse(readFileSync(file, "utf8"));
  expect(record.inFlight).toMatchObject({
    attempts: 1,
    lastInterruption: { code: "AC-MODEL-003" },
  });
});
