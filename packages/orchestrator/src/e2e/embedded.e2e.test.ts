import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { reply, requestKey, waitFor } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { syncLabels } from "../github/label-sync.ts";
import { orchestrateBatch } from "../orchestrate/orchestrate-batch.ts";
import { orchestrateIssue } from "../orchestrate/orchestrate-issue.ts";
import {
  branchLog,
  expectScenarioOutcome,
  type Harness,
  initialCommit,
  landedLog,
  startHarness,
} from "./scenario-harness.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 34 s at load 13–25.
vi.setConfig({ testTimeout: 150_000, hookTimeout: 150_000 });

// Six issues through real runs and ~80 gh processes: a minute alone, more on a busy 2-core
// machine. The limit detects a hang; it does not measure speed.
const BATCH_LIMIT_MS = 420_000;

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const started = await startHarness(options);
  harnesses.push(started);
  return started;
}

describe("the workflow on one machine: real runs through the SDK, the fake model, the fake gh and git", () => {
  it(
    "takes six issues to the phases their scripts lead to, two at a time, in the prioritizer's order",
    async () => {
      const started = await harness();
      const { scenario, fake } = started;
      const result = await orchestrateBatch(await started.context(), {
        prioritize: true,
        concurrency: 2,
      });

      expect(result.warnings).toEqual([]);

      expect(result.status).toBe("completed");
      expect(result.order).toEqual([3, 6, 1, 2, 4, 5]);
      expect(
        result.issues.map((issue) => `#${issue.issue} ${issue.status} ${issue.phase}`),
      ).toEqual([
        "#3 completed done",
        "#6 blocked blocked",
        "#1 completed done",
        "#2 completed done",
        "#4 blocked blocked",
        "#5 completed wontfix",
      ]);
      for (const issue of result.issues) {
        expect({
          issue: issue.issue,
          path: issue.transitions.map((record) => `${record.from}->${record.to}`),
        }).toEqual({
          issue: issue.issue,
          path: scenario.expected[issue.issue]?.path,
        });
      }
      expectScenarioOutcome(scenario);

      // The implementer really worked on each issue's branch; #3 went round the review loop.
      // An issue branch made after another issue's work landed starts from that work (two run at
      // once, so which ones did depends on timing): only the issue's own commits are compared.
      const root = initialCommit(scenario.repoDir);
      const ownCommits = (issue: number): string[] =>
        branchLog(scenario.repoDir, issue, root).filter((subject) =>
          subject.startsWith(`widgets: issue #${issue},`),
        );
      expect(ownCommits(3)).toEqual(["widgets: issue #3, pass 2", "widgets: issue #3, pass 1"]);
      expect(ownCommits(1)).toEqual(["widgets: issue #1, pass 1"]);
      expect(ownCommits(6)).toEqual([]);
      // Each successful implementer run's work landed on the branch the batch started from, each
      // pass before its issue moved on to review; nothing is left only on an issue branch.
      expect(landedLog(scenario.repoDir).sort()).toEqual([
        "widgets: issue #1, pass 1",
        "widgets: issue #3, pass 1",
        "widgets: issue #3, pass 2",
      ]);
      expect(branchLog(scenario.repoDir, 1)).toEqual([]);
      expect(branchLog(scenario.repoDir, 3)).toEqual([]);
      // #6's close-out was refused by its git-clean validation: blocked, with the run's error.
      expect(scenario.gh.issue(6)?.comments[0]?.body).toContain("AGENT_VALIDATION_ABORT");
      // The handoff comments came from the templates, filled from the runs' outputs.
      expect(scenario.gh.issue(3)?.comments.map((comment) => comment.body.split("\n")[0])).toEqual([
        "## Needs a specification",
        "## Specification",
        "Implemented on `climpt/issue-3`; ready for review.",
        "## Changes requested",
        "Implemented on `climpt/issue-3`; ready for review.",
        "Approved: Both passes are recorded.",
      ]);
      expect(scenario.gh.issue(3)?.comments[1]?.body).toContain(
        "Write one line per pass to notes/issue-3.md.",
      );

      // Every scripted call was made once; none twice.
      expect(fake.messageRequests()).toHaveLength(scenario.modelCalls);
      expect(scenario.model.served.filter((call) => call.repeat)).toEqual([]);
      // Each phase change was one gh issue edit carrying both the label added and the one removed
      // (the prioritizer's edits only add an order label).
      const edits = scenario.gh
        .calls()
        .filter((call) => call.argv[0] === "issue" && call.argv[1] === "edit")
        .map((call) => call.argv.slice(3));
      const phaseEdits = edits.filter(
        (argv) => !argv.some((arg) => arg.startsWith("order:")) || argv.includes("--remove-label"),
      );
      expect(phaseEdits).toHaveLength(14);
      for (const argv of phaseEdits)
        expect([argv.includes("--add-label"), argv.includes("--remove-label")]).toEqual([
          true,
          true,
        ]);
    },
    BATCH_LIMIT_MS,
  );

  it("recovers a pass stopped in the middle of a run: the next pass resumes the run from its journal, repeating no completed model call", async () => {
    const started = await harness({ slow: [{ key: "implementer#1", index: 1, delayMs: 30_000 }] });
    const { scenario, fake } = started;
    const stop = new AbortController();
    const context = await started.context(stop.signal);
    expect((await syncLabels(context.gh, context.workflow)).ok).toBe(true);
    const first = orchestrateIssue(context, 1);
    // Wait until the implementer's second call is in flight, then stop the pass.
    await waitFor(() =>
      scenario.model.served.some((call) => call.key === "implementer#1" && call.index === 1),
    );
    stop.abort();
    const stopped = await first;
    expect(stopped).toMatchObject({ status: "interrupted", phase: "implementing" });
    expect(scenario.gh.issue(1)?.labels).toEqual(["kind:impl"]);

    const second = await orchestrateIssue(await started.context(), 1);
    expect(second.status).toBe("completed");
    // The first pass ran the triager, then started the implementer; that run is the one resumed.
    expect(second.resumed).toEqual([stopped.runs.at(-1)]);
    expect(scenario.gh.issue(1)?.state).toBe("CLOSED");
    // The first call (completed before the stop) was served from the journal, not asked again;
    // the call the stop cut off was asked again.
    expect(scenario.model.repeatedCompletedCalls(fake.requests)).toBe(0);
    expect(
      scenario.model.served
        .filter((call) => call.key === "implementer#1")
        .map((call) => `${call.index}${call.repeat ? " again" : ""}`),
    ).toEqual(["0", "1", "1 again", "2"]);
  });
});

describe("a transformer whose run fails, through a real run", () => {
  it("takes its fallbackPhases.failed entry: the refused close-out sends the issue back to detailing, not to the blocking phase", async () => {
    const started = await harness();
    const { scenario, fake } = started;
    // The implementer's failures go back to the detailer.
    const file = path.join(scenario.repoDir, ".agent", "workflow.json");
    const raw = JSON.parse(readFileSync(file, "utf8")) as {
      agents: { implementer: { fallbackPhases: Record<string, string> } };
    };
    raw.agents.implementer.fallbackPhases.failed = "detailing";
    writeFileSync(file, `${JSON.stringify(raw, null, 2)}\n`);
    // The detailer, which the script does not expect for #6, finds a person must decide.
    fake.setHandler((request) =>
      requestKey(request) === "detailer#6"
        ? reply.json({
            stepId: "closure.detail",
            summary: "The draft needs a decision on where notes live.",
            verdict: "blocked",
            next_action: { action: "closing" },
          })
        : scenario.model.handler(request),
    );
    const context = await started.context();
    expect((await syncLabels(context.gh, context.workflow)).ok).toBe(true);

    const result = await orchestrateIssue(context, 6);
    // #6's close-out is refused by its git-clean validation (AGENT_VALIDATION_ABORT): a failed
    // run with no verdict, known as "failed".
    expect(
      result.transitions.map((record) => `${record.from}->${record.to}:${record.outcome}`),
    ).toEqual(["implementing->detailing:failed", "detailing->blocked:blocked"]);
    expect(result).toMatchObject({ status: "blocked", phase: "blocked" });
    expect(scenario.gh.issue(6)?.labels).toEqual(["need clearance"]);
    expect(scenario.gh.issue(6)?.comments[0]?.body).toContain("AGENT_VALIDATION_ABORT");
  });
});
