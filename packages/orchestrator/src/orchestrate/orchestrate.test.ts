import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeGh, installFakeGh } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GhClient } from "../github/gh-client.ts";
import { syncLabels } from "../github/label-sync.ts";
import { FileIssueStateStore } from "../state/file-state-store.ts";
import type { Workflow } from "../workflow-model.ts";
import { pipeline } from "../workflows.test-helper.ts";
import { ScriptedDispatcher, type ScriptedRun } from "./dispatcher.test-helper.ts";
import { orchestrateBatch } from "./orchestrate-batch.ts";
import { type OrchestratorContext, orchestrateIssue } from "./orchestrate-issue.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 23 s at load 13–25.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const fakes: FakeGh[] = [];
afterEach(() => {
  for (const fake of fakes.splice(0)) fake.remove();
});

const PIPELINE_LABELS = Object.entries(
  (pipeline().labels ?? {}) as Record<string, { color: string; description: string }>,
).map(([name, spec]) => ({ name, ...spec }));

function setup(
  issues: { title: string; labels: string[] }[],
  script: Record<number, ScriptedRun[]>,
  workflow: Workflow = pipeline(),
): {
  fake: FakeGh;
  context: OrchestratorContext;
  dispatcher: ScriptedDispatcher;
  stateDir: string;
} {
  const fake = installFakeGh({ repo: "acme/widgets", labels: PIPELINE_LABELS, issues });
  fakes.push(fake);
  const stateDir = mkdtempSync(path.join(tmpdir(), "climpt-orc-state-"));
  const dispatcher = new ScriptedDispatcher(script);
  const context: OrchestratorContext = {
    workflow,
    gh: new GhClient({ cwd: fake.dir, env: { ...process.env, ...fake.env } }),
    dispatcher,
    store: new FileIssueStateStore(stateDir),
    repo: "acme/widgets",
  };
  return { fake, context, dispatcher, stateDir };
}

function edits(fake: FakeGh, issue: number): string[][] {
  return fake
    .calls()
    .filter(
      (call) =>
        call.argv[0] === "issue" && call.argv[1] === "edit" && call.argv[2] === String(issue),
    )
    .map((call) => call.argv.slice(3));
}

describe("one issue through the pipeline", () => {
  it("walks triage → consider → detail → implement → review → done: one label edit per transition, the handoff comments, closed at the end", async () => {
    const { fake, context, dispatcher } = setup(
      [{ title: "Add --json to list", labels: ["needs-triage", "order:1", "enhancement"] }],
      {
        1: [
          { verdict: "question" },
          { verdict: "needs-detail", values: { summary: "It needs a flag design." } },
          { verdict: "specified", values: { spec: "Add a --json flag printing one object." } },
          {},
          { verdict: "approved", values: { summary: "Looks right." } },
        ],
      },
    );
    const result = await orchestrateIssue(context, 1);
    expect(result).toMatchObject({
      status: "completed",
      phase: "done",
      closed: true,
      runs: ["run-1", "run-2", "run-3", "run-4", "run-5"],
    });
    expect(
      result.transitions.map((record) => `${record.from}->${record.to}:${record.outcome}`),
    ).toEqual([
      "inbox->considering:question",
      "considering->detailing:needs-detail",
      "detailing->implementing:specified",
      "implementing->reviewing:success",
      "reviewing->done:approved",
    ]);
    expect(dispatcher.requests.map((request) => `${request.phase}:${request.agent.id}`)).toEqual([
      "inbox:triager",
      "considering:considerer",
      "detailing:detailer",
      "implementing:implementer",
      "reviewing:reviewer",
    ]);
    expect(edits(fake, 1)).toEqual([
      ["--add-label", "kind:consider", "--remove-label", "needs-triage"],
      ["--add-label", "kind:detail", "--remove-label", "kind:consider"],
      ["--add-label", "kind:impl", "--remove-label", "kind:detail"],
      ["--add-label", "kind:review", "--remove-label", "kind:impl"],
      ["--add-label", "done", "--remove-label", "order:1", "--remove-label", "kind:review"],
    ]);
    const issue = fake.issue(1);
    expect(issue?.state).toBe("CLOSED");
    expect(issue?.labels).toEqual(["enhancement", "done"]);
    expect(issue?.comments.map((comment) => comment.body.split("\n\n<sub>")[0])).toEqual([
      "## Needs a specification\n\nIt needs a flag design.",
      "## Specification\n\nAdd a --json flag printing one object.",
      "Implemented on `climpt/issue-1`; ready for review.",
      "Approved: Looks right.",
    ]);
  });

  it("sends a validator's unknown verdict to the fallback with a comment saying why, and does not close", async () => {
    const { fake, context } = setup([{ title: "t", labels: ["kind:review"] }], {
      1: [{ verdict: "lgtm" }],
    });
    const result = await orchestrateIssue(context, 1);
    expect(result).toMatchObject({
      status: "blocked",
      phase: "blocked",
      error: { code: "ORC-VERDICT-002" },
    });
    expect(fake.issue(1)).toMatchObject({ state: "OPEN", labels: ["need clearance"] });
    expect(fake.issue(1)?.comments[0]?.body).toContain(
      'ORC-VERDICT-002: Validator "reviewer" gave the verdict "lgtm"',
    );
  });

  it("sends a failed transformer run to its fallback, or to the phase its fallbackPhases name for the verdict", async () => {
    const { fake, context } = setup(
      [
        { title: "a", labels: ["kind:impl"] },
        { title: "b", labels: ["kind:impl"] },
      ],
      {
        1: [
          {
            success: false,
            error: { code: "AGENT_VALIDATION_ABORT", message: "tests still fail" },
          },
        ],
        2: [
          { success: false, verdict: "needs-spec" },
          { success: false, verdict: "blocked" },
        ],
      },
    );
    expect(await orchestrateIssue(context, 1)).toMatchObject({
      status: "blocked",
      phase: "blocked",
    });
    expect(fake.issue(1)?.comments[0]?.body).toContain("AGENT_VALIDATION_ABORT: tests still fail");
    expect(await orchestrateIssue(context, 2)).toMatchObject({
      status: "blocked",
      phase: "blocked",
    });
    expect(edits(fake, 2)).toEqual([
      ["--add-label", "kind:detail", "--remove-label", "kind:impl"],
      ["--add-label", "need clearance", "--remove-label", "kind:detail"],
    ]);
  });

  it("leaves the issue where it is when the run was interrupted, and resumes that run on the next pass", async () => {
    const { fake, context, dispatcher } = setup([{ title: "t", labels: ["kind:impl"] }], {
      1: [
        {
          success: false,
          interrupted: true,
          error: { code: "AC-MODEL-002", message: "rate limited" },
        },
        {},
        { verdict: "approved" },
      ],
    });
    expect(await orchestrateIssue(context, 1)).toMatchObject({
      status: "interrupted",
      phase: "implementing",
      error: { code: "AC-MODEL-002" },
    });
    expect(fake.issue(1)?.labels).toEqual(["kind:impl"]);
    const second = await orchestrateIssue(context, 1);
    expect(second).toMatchObject({ status: "completed", resumed: ["run-1"] });
    expect(dispatcher.requests[1]?.resume).toMatchObject({ runId: "run-1" });
    expect(dispatcher.requests[2]?.resume).toBeUndefined();
  });
});

describe("cycle rules", () => {
  it("blocks an issue that re-enters the same phase maxConsecutivePhases times, with a comment naming the rule", async () => {
    const { fake, context, dispatcher } = setup([{ title: "t", labels: ["kind:detail"] }], {
      1: [{ verdict: "again" }, { verdict: "again" }, { verdict: "again" }, { verdict: "again" }],
    });
    const result = await orchestrateIssue(context, 1);
    expect(result).toMatchObject({
      status: "phase_repetition_exceeded",
      phase: "blocked",
      error: { code: "ORC-CYCLE-002" },
    });
    expect(dispatcher.requests).toHaveLength(3);
    expect(fake.issue(1)?.labels).toEqual(["need clearance"]);
    const comment = fake.issue(1)?.comments.at(-1)?.body ?? "";
    expect(comment).toContain("ORC-CYCLE-002");
    expect(comment).toContain("3. `detailing` → `detailing` (detailer: again)");
  });

  it("blocks an issue after maxCycles transitions, and counts afresh once a person relabels it", async () => {
    const pingPong = Array.from({ length: 8 }, (_, index) =>
      index % 2 === 0 ? {} : { verdict: "changes-requested" },
    );
    const { fake, context, dispatcher } = setup([{ title: "t", labels: ["kind:impl"] }], {
      1: [...pingPong, {}, { verdict: "approved" }],
    });
    expect(await orchestrateIssue(context, 1)).toMatchObject({
      status: "cycle_exceeded",
      phase: "blocked",
      error: { code: "ORC-CYCLE-001" },
    });
    expect(dispatcher.requests).toHaveLength(8);
    // Blocked: the next pass does nothing until a person acts.
    expect(await orchestrateIssue(context, 1)).toMatchObject({ status: "blocked" });
    fake.update((state) => {
      const issue = state.repos["acme/widgets"]?.issues[0];
      if (issue !== undefined) issue.labels = ["kind:impl"];
    });
    expect(await orchestrateIssue(context, 1)).toMatchObject({ status: "completed", closed: true });
    expect(dispatcher.requests).toHaveLength(10);
  });

  it("waits cycleDelayMs between two cycles of an issue", async () => {
    const workflow = pipeline((raw) => {
      (raw.rules as Record<string, unknown>).cycleDelayMs = 300;
    });
    const { context } = setup(
      [{ title: "t", labels: ["kind:impl"] }],
      { 1: [{}, { verdict: "approved" }] },
      workflow,
    );
    const started = Date.now();
    await orchestrateIssue(context, 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});

describe("gh failures and crash recovery", () => {
  it("reports a failed label edit with its code, keeps the old phase label, and finishes the transition on the next pass without dispatching again or commenting twice", async () => {
    const { fake, context, dispatcher } = setup([{ title: "t", labels: ["kind:consider"] }], {
      1: [{ verdict: "needs-detail", values: { summary: "s" } }, { verdict: "blocked" }],
    });
    fake.failNext({ command: "issue edit", number: 1, stderr: "HTTP 502: Bad Gateway" });
    const first = await orchestrateIssue(context, 1);
    expect(first).toMatchObject({
      status: "error",
      phase: "considering",
      error: { code: "ORC-GH-002" },
    });
    expect(first.error?.message).toContain("HTTP 502");
    expect(fake.issue(1)?.labels).toEqual(["kind:consider"]);
    expect(fake.issue(1)?.comments).toHaveLength(1);
    const second = await orchestrateIssue(context, 1);
    expect(second.transitions.map((record) => record.to)).toEqual(["detailing", "blocked"]);
    expect(dispatcher.requests.map((request) => request.agent.id)).toEqual([
      "considerer",
      "detailer",
    ]);
    expect(
      fake
        .issue(1)
        ?.comments.filter((comment) => comment.body.startsWith("## Needs a specification")),
    ).toHaveLength(1);
  });

  it("reports gh missing as ORC-GH-001", async () => {
    const { context } = setup([{ title: "t", labels: ["kind:impl"] }], { 1: [] });
    const missing = {
      ...context,
      gh: new GhClient({ cwd: tmpdir(), command: "gh-does-not-exist" }),
    };
    expect(await orchestrateIssue(missing, 1)).toMatchObject({
      status: "error",
      error: { code: "ORC-GH-001" },
    });
  });

  it("refuses an issue another orchestrator holds", async () => {
    const { context } = setup([{ title: "t", labels: ["kind:impl"] }], { 1: [{}] });
    const lock = await context.store.lock({
      repo: "acme/widgets",
      issue: 1,
      workflowId: "default",
    });
    expect(await orchestrateIssue(context, 1)).toMatchObject({
      status: "locked",
      error: { code: "ORC-STATE-002" },
    });
    await lock?.release();
  });
});

describe("a batch", () => {
  it("works the prioritizer's order with the given concurrency, and reports each issue", async () => {
    const { fake, context, dispatcher } = setup(
      [
        { title: "one", labels: ["kind:impl"] },
        { title: "two", labels: ["kind:review"] },
        { title: "three", labels: ["kind:consider"] },
        { title: "four", labels: ["bug"] },
      ],
      {
        1: [{}, { verdict: "approved" }],
        2: [{ verdict: "approved" }],
        3: [{ verdict: "answered" }],
      },
    );
    dispatcher.prioritizeOutput = {
      priorities: [
        { issue: 3, priority: "order:1" },
        { issue: 1, priority: "order:2" },
        { issue: 2, priority: "order:3" },
      ],
    };
    const result = await orchestrateBatch(context, { prioritize: true, concurrency: 2 });
    expect(result.status).toBe("completed");
    expect(result.order).toEqual([3, 1, 2, 4]);
    expect(result.issues.map((issue) => `${issue.issue}:${issue.status}`)).toEqual([
      "3:completed",
      "1:completed",
      "2:completed",
      "4:no_phase",
    ]);
    expect(dispatcher.prioritizeRequests[0]?.issues.map((issue) => issue.number)).toEqual([
      4, 3, 2, 1,
    ]);
    // The order label came off at the terminal phase; the fourth issue was never touched.
    expect(fake.issue(1)?.labels).toEqual(["done"]);
    expect(fake.issue(4)?.labels).toEqual(["bug"]);
  });

  it("plans with --dry-run: issue → phase → agent, and changes nothing on GitHub", async () => {
    const { fake, context, dispatcher } = setup(
      [
        { title: "one", labels: ["kind:impl", "order:2"] },
        { title: "two", labels: ["done"] },
        { title: "three", labels: ["kind:consider", "order:1"] },
      ],
      {},
    );
    const result = await orchestrateBatch(context, { dryRun: true });
    expect(
      result.plan.map((entry) => `${entry.issue} ${entry.phase} ${entry.agent} ${entry.note}`),
    ).toEqual([
      "3 considering considerer null",
      "1 implementing implementer null",
      "2 done null terminal",
    ]);
    expect(dispatcher.requests).toEqual([]);
    const writes = fake.calls().filter((call) => !["list", "view"].includes(call.argv[1] ?? ""));
    expect(writes).toEqual([]);
  });

  it("fails with WF-BATCH-001 when --prioritize is given without a prioritizer", async () => {
    const workflow = pipeline((raw) => {
      delete raw.prioritizer;
      for (const name of ["order:1", "order:2", "order:3"])
        delete (raw.labels as Record<string, unknown>)[name];
      delete (raw.agents as Record<string, unknown>).sequencer;
    });
    const { context } = setup([], {}, workflow);
    expect(await orchestrateBatch(context, { prioritize: true })).toMatchObject({
      status: "failed",
      error: { code: "WF-BATCH-001" },
    });
  });
});

describe("labels sync", () => {
  it("creates the missing labels, updates those that differ, leaves the rest, and reports a failing one alone", async () => {
    const fake = installFakeGh({
      labels: [
        { name: "done", color: "0e8a16", description: "Finished" },
        { name: "kind:impl", color: "000000", description: "old" },
      ],
    });
    fakes.push(fake);
    const gh = new GhClient({ cwd: fake.dir, env: { ...process.env, ...fake.env } });
    fake.failNext({
      command: "label create",
      stderr: "HTTP 403: Resource not accessible by integration",
    });
    const synced = await syncLabels(gh, pipeline());
    expect(synced.ok).toBe(true);
    if (!synced.ok) return;
    const actions = Object.fromEntries(synced.value.map((entry) => [entry.name, entry.action]));
    expect(actions).toMatchObject({
      "needs-triage": "failed",
      done: "unchanged",
      "kind:impl": "updated",
      "kind:consider": "created",
    });
    expect(synced.value.find((entry) => entry.action === "failed")?.error?.code).toBe("ORC-GH-002");
    const labels = fake.state().repos["climpt-test/sample"]?.labels ?? [];
    expect(labels.find((label) => label.name === "kind:impl")).toEqual({
      name: "kind:impl",
      color: "a2eeef",
      description: "Ready to implement (implementer)",
    });
    expect(labels.map((label) => label.name).sort()).toHaveLength(10);
    const again = await syncLabels(gh, pipeline());
    expect(
      again.ok &&
        again.value.filter((entry) => entry.action !== "unchanged").map((entry) => entry.name),
    ).toEqual(["needs-triage"]);
  });
});
