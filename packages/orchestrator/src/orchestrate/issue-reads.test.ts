import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeGh, installFakeGh } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GhClient } from "../github/gh-client.ts";
import { FileIssueStateStore } from "../state/file-state-store.ts";
import { pipeline } from "../workflows.test-helper.ts";
import { ScriptedDispatcher, type ScriptedRun } from "./dispatcher.test-helper.ts";
import { orchestrateBatch } from "./orchestrate-batch.ts";
import { type OrchestratorContext, orchestrateIssue } from "./orchestrate-issue.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(
  labels: string[],
  runs: ScriptedRun[],
  freshIssueReadMs?: number,
  count = 1,
  script: Record<number, ScriptedRun[]> = { 1: runs },
) {
  const fake: FakeGh = installFakeGh({
    repo: "acme/widgets",
    // gh refuses a label the repository lacks: every label of the workflow is there.
    labels: pipeline().labelMapping.map(([label]) => label),
    issues: Array.from({ length: count }, (_, index) => ({
      title: `Review me ${index + 1}`,
      labels,
    })),
  });
  const stateDir = mkdtempSync(path.join(tmpdir(), "climpt-orc-reads-"));
  cleanups.push(
    () => fake.remove(),
    () => rmSync(stateDir, { recursive: true, force: true }),
  );
  const context: OrchestratorContext = {
    workflow: pipeline(),
    gh: new GhClient({ cwd: fake.dir, env: { ...process.env, ...fake.env } }),
    dispatcher: new ScriptedDispatcher(script),
    store: new FileIssueStateStore(stateDir),
    repo: "acme/widgets",
    ...(freshIssueReadMs === undefined ? {} : { freshIssueReadMs }),
  };
  const views = () =>
    fake.calls().filter((call) => call.argv[0] === "issue" && call.argv[1] === "view").length;
  return { fake, context, views };
}

describe("the reads of an issue per pass", () => {
  it("a transition decided right after the pass read the issue is applied without reading it again", async () => {
    const { fake, context, views } = setup(["kind:review"], [{ verdict: "approved" }]);
    const result = await orchestrateIssue(context, 1);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("completed");
    expect(result.closed).toBe(true);
    // One read (the labels before the run); then one label edit and the close.
    expect(views()).toBe(1);
    const issue = fake.state().repos["acme/widgets"]?.issues.find((one) => one.number === 1);
    expect(issue?.labels).toEqual(["done"]);
    expect(issue?.state).toBe("CLOSED");
  });

  it("reads the issue again when the read is older than the bound (a long run)", async () => {
    const { fake, context, views } = setup(["kind:review"], [{ verdict: "approved" }], 0);
    // A person closes the issue and adds a label while the run goes on: the fresh read sees it.
    const dispatcher = context.dispatcher as ScriptedDispatcher;
    const dispatch = dispatcher.dispatch.bind(dispatcher);
    dispatcher.dispatch = async (request) => {
      fake.update((state) => {
        const issue = state.repos["acme/widgets"]?.issues.find((one) => one.number === 1);
        if (issue !== undefined) issue.state = "CLOSED";
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      return dispatch(request);
    };
    const result = await orchestrateIssue(context, 1);
    expect(result.status).toBe("completed");
    expect(views()).toBe(2);
    // Closed by the person, not by the pass: the pass saw it and made no close of its own.
    expect(result.closed).toBe(false);
    expect(fake.calls().some((call) => call.argv[1] === "close")).toBe(false);
  });

  it("a batch's passes take their issues from the batch's one listing while it is fresh", async () => {
    const approve = () => [{ verdict: "approved" }];
    const { fake, context, views } = setup(["kind:review"], [], undefined, 3, {
      1: approve(),
      2: approve(),
      3: approve(),
    });
    const batch = await orchestrateBatch(context, { concurrency: 1 });
    expect(batch.issues.map((result) => result.status)).toEqual([
      "completed",
      "completed",
      "completed",
    ]);
    expect(fake.calls().filter((call) => call.argv[1] === "list").length).toBeGreaterThan(0);
    // No `gh issue view` at all: one listing, then each issue's label edit and close.
    expect(views()).toBe(0);
    expect(fake.calls().filter((call) => call.argv[1] === "close")).toHaveLength(3);
  });

  it("a pass whose listing is older than the bound reads its issue itself", async () => {
    const approve = () => [{ verdict: "approved" }];
    const { context, views } = setup(["kind:review"], [], 0, 2, { 1: approve(), 2: approve() });
    const batch = await orchestrateBatch(context, { concurrency: 1 });
    expect(batch.issues.map((result) => result.status)).toEqual(["completed", "completed"]);
    // Each issue read before its run and again before its transition.
    expect(views()).toBe(4);
  });

  it("does not trust a listing the issue's record shows work after (a job taken over from a killed worker)", async () => {
    // Listed at kind:review; then a worker made the reviewing → done transition and was killed.
    const { fake, context, views } = setup(["done"], []);
    const readAt = Date.now() - 1_000;
    await context.store.write({
      repo: "acme/widgets",
      issue: 1,
      workflowId: context.workflow.id,
      history: [
        {
          from: "reviewing",
          to: "done",
          agent: "reviewer",
          outcome: "approved",
          runId: "run-1",
          at: new Date().toISOString(),
        },
      ],
      inFlight: null,
    });
    const result = await orchestrateIssue(context, 1, {
      listed: { title: "Review me 1", state: "OPEN", labels: ["kind:review"], readAt },
    });
    // The issue is read again and found done: the reviewer is not run a second time.
    expect(result.status).toBe("completed");
    expect((context.dispatcher as ScriptedDispatcher).requests).toHaveLength(0);
    expect(views()).toBe(1);
    expect(fake.calls().filter((call) => call.argv[1] === "edit")).toHaveLength(0);
  });
});
