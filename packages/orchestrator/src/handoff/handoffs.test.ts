/**
 * Artifact handoffs (`handoffs`, `payloadSchema`) as the original declares them: loaded and
 * checked with coded problems, emitted on the named outcome, validated, kept with the issue and
 * given to the next agent as its parameters, shown by a dry run and in the comment trail.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Problem } from "@climpt/model";
import { type FakeGh, installFakeGh } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { GhClient } from "../github/gh-client.ts";
import { loadWorkflow } from "../load-workflow.ts";
import { ScriptedDispatcher, type ScriptedRun } from "../orchestrate/dispatcher.test-helper.ts";
import { orchestrateBatch } from "../orchestrate/orchestrate-batch.ts";
import { type OrchestratorContext, orchestrateIssue } from "../orchestrate/orchestrate-issue.ts";
import { FileIssueStateStore } from "../state/file-state-store.ts";
import type { Workflow } from "../workflow-model.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const VERDICT_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  required: ["pr_number", "verdict"],
  properties: {
    pr_number: { type: "number" },
    verdict: { type: "string", enum: ["approved", "rejected"] },
    prNumber: { type: "number" },
    verdictPath: { type: "string" },
  },
};

/** A review → merge workflow with one handoff, shaped like the original's workflow-merge.json. */
function reviewMergeWorkflow(): Record<string, unknown> {
  return {
    version: "1.0.0",
    labelPrefix: "merge",
    phases: {
      review: { type: "actionable", priority: 2, agent: "reviewer" },
      ready: { type: "actionable", priority: 1, agent: "merger" },
      blocked: { type: "blocking" },
      merged: { type: "terminal" },
    },
    labelMapping: { review: "review", ready: "ready", blocked: "blocked", done: "merged" },
    agents: {
      reviewer: {
        role: "validator",
        outputPhases: { approved: "ready", rejected: "blocked" },
        fallbackPhase: "blocked",
      },
      merger: {
        role: "validator",
        outputPhases: { merged: "merged" },
        fallbackPhase: "blocked",
        closeOnComplete: true,
      },
    },
    rules: { maxCycles: 5, cycleDelayMs: 0 },
    payloadSchema: { $ref: ".agent/workflow-merge/schemas/merge-payload.json" },
    handoffs: [
      {
        id: "reviewer-approved-verdict",
        when: { fromAgent: "reviewer", outcome: "approved" },
        emit: {
          type: "verdict",
          schemaRef: "verdict@1.0.0",
          path: `tmp/emits/\${payload.prNumber}.json`,
        },
        payloadFrom: {
          prNumber: "$.agent.result.pr_number",
          verdictPath: `tmp/emits/\${payload.prNumber}.json`,
          pr_number: "$.agent.result.pr_number",
          verdict: "'approved'",
          evaluated_at: "$.workflow.context.now",
        },
        persistPayloadTo: "subjectStore",
      },
    ],
  };
}

/** A repository folder holding the workflow and its schemas (where the original keeps them). */
function repoWith(raw: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "climpt-handoff-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, ".agent", "workflow-merge", "schemas"), { recursive: true });
  mkdirSync(path.join(dir, "agents", "common", "schemas"), { recursive: true });
  writeFileSync(path.join(dir, ".agent", "workflow.json"), JSON.stringify(raw));
  writeFileSync(
    path.join(dir, ".agent", "workflow-merge", "schemas", "merge-payload.json"),
    JSON.stringify({
      type: "object",
      properties: { prNumber: { type: "number" }, verdictPath: { type: "string" } },
      required: ["prNumber"],
    }),
  );
  writeFileSync(
    path.join(dir, "agents", "common", "schemas", "verdict@1.0.0.json"),
    JSON.stringify(VERDICT_SCHEMA),
  );
  return dir;
}

async function load(
  raw: Record<string, unknown>,
): Promise<{ workflow: Workflow; warnings: Problem[] }> {
  const loaded = await loadWorkflow(repoWith(raw));
  if (!loaded.ok)
    throw new Error(loaded.issues.map((p) => `${p.code} ${p.path} ${p.message}`).join("\n"));
  return { workflow: loaded.value.workflow, warnings: [...loaded.value.warnings] };
}

function setup(
  workflow: Workflow,
  issues: { title: string; labels: string[] }[],
  script: Record<number, ScriptedRun[]>,
): {
  fake: FakeGh;
  context: OrchestratorContext;
  dispatcher: ScriptedDispatcher;
  stateDir: string;
} {
  const labels = workflow.labelMapping.map(([label]) => `${workflow.labelPrefix}:${label}`);
  const fake = installFakeGh({ repo: "acme/widgets", labels, issues });
  const stateDir = mkdtempSync(path.join(tmpdir(), "climpt-handoff-state-"));
  cleanups.push(
    () => fake.remove(),
    () => rmSync(stateDir, { recursive: true, force: true }),
  );
  const dispatcher = new ScriptedDispatcher(script);
  return {
    fake,
    dispatcher,
    stateDir,
    context: {
      workflow,
      gh: new GhClient({ cwd: fake.dir, env: { ...process.env, ...fake.env } }),
      dispatcher,
      store: new FileIssueStateStore(stateDir),
      repo: "acme/widgets",
    },
  };
}

const brief = (problems: readonly Problem[]): string[] =>
  problems.map((problem) => `${problem.severity} ${problem.code} ${problem.path ?? ""}`);

describe("loading handoffs and payloadSchema", () => {
  it("reads the declarations and the schemas they name, from .agent/schemas or agents/common/schemas", async () => {
    const { workflow, warnings } = await load(reviewMergeWorkflow());
    expect(warnings).toEqual([]);
    expect(workflow.handoffs[0]).toMatchObject({
      id: "reviewer-approved-verdict",
      when: { fromAgent: "reviewer", outcome: "approved" },
      persistPayloadTo: "subjectStore",
    });
    expect(workflow.handoffSchemas["verdict@1.0.0"]?.file).toMatch(
      /agents\/common\/schemas\/verdict@1\.0\.0\.json$/,
    );
    expect(workflow.payloadSchema?.schema).toMatchObject({ required: ["prNumber"] });
  });

  it("does not wait on a FIFO in place of a schema file: a warning saying so, at once", async () => {
    const raw = reviewMergeWorkflow();
    const dir = repoWith(raw);
    const schema = path.join(dir, "agents", "common", "schemas", "verdict@1.0.0.json");
    rmSync(schema);
    execFileSync("mkfifo", [schema]);
    const loaded = await loadWorkflow(dir);
    if (!loaded.ok) throw new Error(loaded.issues.map((p) => p.message).join("\n"));
    const warning = loaded.value.warnings.find((problem) => problem.message.includes("FIFO"));
    expect(warning?.message).toContain("is a FIFO, not a regular file");
  });

  it("reports each problem with its code and JSON path; a handoff that cannot fire here or a missing schema is only a warning", async () => {
    const raw = reviewMergeWorkflow();
    const handoff = (raw.handoffs as Record<string, unknown>[])[0] as Record<string, unknown>;
    handoff.payloadFrom = {
      prNumber: "agent.result.pr_number",
      verdictPath: `tmp/\${payload.prNumbr}.json`,
    };
    (handoff.emit as Record<string, unknown>).path = `../outside/\${payload.prNumber}.json`;
    handoff.persistPayloadTo = "store";
    const other = {
      id: "From Elsewhere",
      when: { fromAgent: "auditor", outcome: "approved" },
      emit: { type: "x", schemaRef: "missing@1", path: "tmp/x.json" },
      payloadFrom: {},
      persistPayloadTo: "none",
    };
    raw.handoffs = [handoff, other];
    const loaded = await loadWorkflow(repoWith(raw));
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? [] : loaded.issues;
    expect(brief(problems)).toEqual(
      expect.arrayContaining([
        "error WF-HANDOFF-001 $.handoffs[0].persistPayloadTo",
        "error WF-HANDOFF-001 $.handoffs[1].id",
        "warning WF-HANDOFF-004 $.handoffs[1].when.fromAgent",
      ]),
    );
    raw.handoffs = [
      { ...handoff, persistPayloadTo: "none" },
      { ...other, id: "from-elsewhere" },
    ];
    const second = await loadWorkflow(repoWith(raw));
    const found = second.ok ? [...second.value.warnings] : [...second.issues];
    expect(brief(found)).toEqual(
      expect.arrayContaining([
        "error WF-HANDOFF-002 $.handoffs[0].payloadFrom.prNumber",
        "error WF-HANDOFF-002 $.handoffs[0].payloadFrom.verdictPath",
        "error WF-HANDOFF-002 $.handoffs[0].emit.path",
      ]),
    );
    expect(
      found.find((problem) => problem.path === "$.handoffs[0].payloadFrom.verdictPath")?.message,
    ).toContain('Did you mean "prNumber"?');
    // A schema that is not there: the workflow loads (the original reads schemas only when a
    // handoff fires); that handoff fails when it fires.
    const good = reviewMergeWorkflow();
    good.handoffs = [...(good.handoffs as unknown[]), { ...other, id: "from-elsewhere" }];
    const third = await loadWorkflow(repoWith(good));
    expect(third.ok).toBe(true);
    expect(brief(third.ok ? third.value.warnings : [])).toEqual([
      "warning WF-HANDOFF-004 $.handoffs[1].when.fromAgent",
      "warning WF-HANDOFF-003 $.handoffs[1].emit.schemaRef",
    ]);
  });
});

const reviewed: ScriptedRun = {
  verdict: "approved",
  output: { verdict: "approved", pr_number: 12, summary: "Ship it." },
};

describe("emitting a handoff and handing its payload on", () => {
  it("emits on the named outcome, keeps payload and artifact with the issue, gives the payload to the next agent, and says so in the comment", async () => {
    const { workflow } = await load(reviewMergeWorkflow());
    const { fake, context, dispatcher, stateDir } = setup(
      workflow,
      [{ title: "PR 12", labels: ["merge:review"] }],
      { 1: [reviewed, { verdict: "merged" }] },
    );
    const result = await orchestrateIssue(context, 1);
    expect(result).toMatchObject({ status: "completed", phase: "merged", closed: true });
    expect(
      result.transitions.map((record) => `${record.from}->${record.to}:${record.outcome}`),
    ).toEqual(["review->ready:approved", "ready->merged:merged"]);
    const merger = dispatcher.requests[1];
    expect(merger?.agent.id).toBe("merger");
    expect(merger?.payload).toMatchObject({
      prNumber: 12,
      verdictPath: "tmp/emits/12.json",
      verdict: "approved",
    });
    expect(merger?.artifacts?.map((artifact) => artifact.path)).toEqual(["tmp/emits/12.json"]);
    expect(JSON.parse(merger?.artifacts?.[0]?.content ?? "{}")).toMatchObject({ pr_number: 12 });
    // The reviewer itself got no payload: there was none yet.
    expect(dispatcher.requests[0]?.payload).toBeNull();
    const record = JSON.parse(
      readFileSync(path.join(stateDir, "merge", "acme_widgets", "issue-1.json"), "utf8"),
    );
    expect(record.payload).toMatchObject({ prNumber: 12 });
    expect(record.artifacts[0].path).toBe("tmp/emits/12.json");
    const comments = fake.issue(1)?.comments.map((comment) => comment.body) ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0]).toContain("Handoff `reviewer-approved-verdict` wrote `tmp/emits/12.json`");
    expect(comments[0]).toContain('"prNumber": 12');
  });

  it("turns a payload its schema refuses into a failure: the fallback phase, a comment with the code and the JSON path", async () => {
    const { workflow } = await load(reviewMergeWorkflow());
    const { fake, context, dispatcher } = setup(
      workflow,
      [{ title: "PR x", labels: ["merge:review"] }],
      { 1: [{ verdict: "approved", output: { verdict: "approved", pr_number: "twelve" } }] },
    );
    const result = await orchestrateIssue(context, 1);
    expect(result).toMatchObject({ status: "blocked", phase: "blocked" });
    expect(result.error).toMatchObject({ code: "ORC-HANDOFF-002", path: "$.pr_number" });
    expect(dispatcher.requests).toHaveLength(1);
    expect(fake.issue(1)?.labels).toEqual(["merge:blocked"]);
    expect(fake.issue(1)?.comments[0]?.body).toContain("ORC-HANDOFF-002");
    expect(fake.issue(1)?.comments[0]?.body).toContain("$.pr_number: must be number");
  });

  it("turns a value the run did not give into a failure (ORC-HANDOFF-001), naming the payload key", async () => {
    const { workflow } = await load(reviewMergeWorkflow());
    const { context } = setup(workflow, [{ title: "PR", labels: ["merge:review"] }], {
      1: [{ verdict: "approved", output: { verdict: "approved" } }],
    });
    const result = await orchestrateIssue(context, 1);
    expect(result.error).toMatchObject({
      code: "ORC-HANDOFF-001",
      path: "$.handoffs[0].payloadFrom.prNumber",
    });
  });

  it("takes a payload given by hand once the payloadSchema accepts it, and shows it in the dry run", async () => {
    const { workflow } = await load(reviewMergeWorkflow());
    const { context, dispatcher } = setup(workflow, [{ title: "PR 30", labels: ["merge:ready"] }], {
      1: [{ verdict: "merged" }],
    });
    const refused = await orchestrateIssue(context, 1, { payload: { prNumber: "30" } });
    expect(refused).toMatchObject({
      status: "error",
      error: { code: "ORC-HANDOFF-002", path: "$.prNumber" },
    });
    expect(dispatcher.requests).toHaveLength(0);
    const planned = await orchestrateIssue(context, 1, {
      dryRun: true,
      payload: { prNumber: 30, verdictPath: "v.json" },
    });
    expect(planned).toMatchObject({ status: "dry-run", payload: { prNumber: 30 } });
    const ran = await orchestrateIssue(context, 1, {
      payload: { prNumber: 30, verdictPath: "v.json" },
    });
    expect(ran).toMatchObject({ status: "completed", phase: "merged" });
    expect(dispatcher.requests[0]?.payload).toEqual({ prNumber: 30, verdictPath: "v.json" });
    // A later dry run of the batch shows the payload the record keeps.
    const plan = await orchestrateBatch(context, { dryRun: true, state: "all" });
    expect(plan.plan[0]).toMatchObject({ issue: 1, payload: { prNumber: 30 } });
  });
});
