/**
 * `climpt orchestrate` over agent folders shaped like the original's, with a workflow written the
 * way the original writes its own (a prioritizer naming an agent it does not declare, handoff
 * templates named after kebab-case verdicts, a merge workflow whose handoffs wait for a reviewer it
 * does not dispatch): real runs through the SDK against the fake Messages API, the fake gh, git.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  type FakeAnthropic,
  type FakeGh,
  type FakeReply,
  installFakeGh,
  installOriginalShape,
  reply,
  startFakeAnthropic,
} from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 33 s at load 13–25.
vi.setConfig({ testTimeout: 150_000, hookTimeout: 150_000 });

// Four issues through real runs and a few dozen gh processes: under a minute alone. The limit
// detects a hang; it does not measure speed.
const BATCH_LIMIT_MS = 420_000;

let fake: FakeAnthropic;
const folders: string[] = [];
const ghs: FakeGh[] = [];
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  fake.reset();
  for (const gh of ghs.splice(0)) gh.remove();
});
afterAll(async () => {
  await fake.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const step = (stepId: string, action: string, extra: Record<string, unknown> = {}) =>
  reply.json({ stepId, summary: `${stepId} done`, next_action: { action }, ...extra });
const bash = (id: string, command: string): FakeReply => ({
  kind: "message",
  content: [{ type: "tool_use", id, name: "Bash", input: { command } }],
});

/** The original's workflow.json, as its shape goes (our own text and phase names). */
const WORKFLOW = {
  version: "1.0.0",
  phases: {
    "impl-pending": { type: "actionable", priority: 1, agent: "iterator" },
    "detail-pending": { type: "actionable", priority: 2, agent: "detailer" },
    "consider-pending": { type: "actionable", priority: 3, agent: "considerer" },
    done: { type: "terminal" },
    blocked: { type: "blocking" },
  },
  labelMapping: {
    "kind:impl": "impl-pending",
    "kind:detail": "detail-pending",
    "kind:consider": "consider-pending",
    done: "done",
    "need clearance": "blocked",
  },
  agents: {
    iterator: {
      role: "transformer",
      outputPhase: "done",
      fallbackPhase: "blocked",
      closeOnComplete: true,
    },
    considerer: {
      role: "validator",
      outputPhases: { done: "done", "handoff-detail": "detail-pending" },
      fallbackPhase: "blocked",
      closeOnComplete: true,
      closeCondition: "done",
    },
    detailer: {
      role: "validator",
      outputPhases: { detailed: "impl-pending", blocked: "blocked" },
      fallbackPhase: "blocked",
    },
  },
  handoff: {
    commentTemplates: {
      considererHandoffDetail: "## Needs a spec\n\n{final_summary}",
      detailerDetailed: "## Spec\n\n{summary}",
    },
  },
  prioritizer: { agent: "triager", labels: ["order:1", "order:2"] },
  rules: { maxCycles: 7, cycleDelayMs: 0, maxConsecutivePhases: 3 },
  subjectStore: { path: ".agent/climpt/tmp/issues" },
};

/** A merge workflow in the original's shape: its handoffs wait for a reviewer it never runs. */
const MERGE_WORKFLOW = {
  version: "1.0.0",
  labelPrefix: "merge",
  phases: {
    "merge-ready": { type: "actionable", priority: 1, agent: "merger" },
    "merge-blocked": { type: "blocking" },
    merged: { type: "terminal" },
  },
  labelMapping: { ready: "merge-ready", blocked: "merge-blocked", done: "merged" },
  agents: {
    merger: {
      role: "validator",
      outputPhases: { merged: "merged", rejected: "merge-blocked" },
      fallbackPhase: "merge-blocked",
    },
  },
  rules: { maxCycles: 3, cycleDelayMs: 0 },
  payloadSchema: { $ref: ".agent/workflow-merge/schemas/merge-payload.json" },
  handoffs: [
    {
      id: "reviewer-approved-verdict",
      when: { fromAgent: "reviewer", outcome: "approved" },
      emit: { type: "verdict", schemaRef: "merge-verdict@1.0.0", path: "tmp/emits/verdict.json" },
      payloadFrom: {
        prNumber: "$.agent.result.pr_number",
        verdictPath: "'tmp/emits/verdict.json'",
      },
      persistPayloadTo: "subjectStore",
    },
  ],
};

function project(): { repo: string; gh: FakeGh; env: Record<string, string> } {
  const scratch = tempDir("orig-orchestrate");
  folders.push(scratch);
  const repo = path.join(scratch, "repo");
  mkdirSync(repo);
  for (const agent of ["considerer", "detailer", "iterator", "merger"] as const)
    installOriginalShape(agent, repo);
  writeFileSync(path.join(repo, ".agent", "workflow.json"), JSON.stringify(WORKFLOW, null, 2));
  writeFileSync(path.join(repo, ".agent", "workflow-merge.json"), JSON.stringify(MERGE_WORKFLOW));
  mkdirSync(path.join(repo, ".agent", "workflow-merge", "schemas"), { recursive: true });
  writeFileSync(
    path.join(repo, ".agent", "workflow-merge", "schemas", "merge-payload.json"),
    JSON.stringify({
      type: "object",
      properties: { prNumber: { type: "number" } },
      required: ["prNumber"],
    }),
  );
  writeFileSync(path.join(repo, ".gitignore"), "tmp/\n");
  writeFileSync(path.join(repo, "README.md"), "# project\n");
  git(repo, "init", "-q", "-b", "main");
  // Agents commit through their sandboxed Bash, which does not get the test's environment.
  git(repo, "config", "user.name", GIT_IDENTITY.GIT_AUTHOR_NAME);
  git(repo, "config", "user.email", GIT_IDENTITY.GIT_AUTHOR_EMAIL);
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "agents");
  const gh = installFakeGh({
    repo: "acme/widgets",
    issues: [
      { number: 1, title: "How do I list as JSON?", labels: ["kind:consider"] },
      { number: 2, title: "Add a notes file", labels: ["kind:consider"] },
      { number: 3, title: "Make it better", labels: ["kind:detail"] },
      { number: 4, title: "Crashes the model", labels: ["kind:consider"] },
    ],
  });
  ghs.push(gh);
  return {
    repo,
    gh,
    env: {
      ...gh.env,
      ...GIT_IDENTITY,
      ANTHROPIC_API_KEY: "sk-test-key",
      ANTHROPIC_BASE_URL: fake.url,
    },
  };
}

/** Replies per `<agent>#<issue>`, routed by the system prompt's agent and the first message's issue. */
function script(replies: Record<string, FakeReply[]>): void {
  fake.setHandler((request) => {
    const body = request.body as { system?: unknown; messages?: { content?: unknown }[] };
    const system = JSON.stringify(body.system ?? "");
    const agent = /You are the (\w+)/.exec(system)?.[1];
    const issue = /#(\d+)/.exec(JSON.stringify(body.messages?.[0]?.content ?? ""))?.[1];
    const queue = replies[`${agent}#${issue}`];
    return queue?.shift() ?? reply.error(400, { message: `no reply for ${agent}#${issue}` });
  });
}

describe("the original's workflow shape through climpt orchestrate", () => {
  it(
    "loads it (a warning for the prioritizer), syncs its labels, plans it, and ends each issue as the original's code does",
    async () => {
      const { repo, gh, env } = project();
      const sync = await spawnCli(["labels", "sync"], { cwd: repo, env });
      expect(sync.code, sync.stderr).toBe(0);
      expect(sync.stderr).toContain("warning WF-REF-008");
      const plan = await spawnCli(["orchestrate", "--dry-run"], { cwd: repo, env });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain("#4     consider-pending  considerer");
      const refused = await spawnCli(["orchestrate", "--dry-run", "--prioritize"], {
        cwd: repo,
        env,
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("WF-REF-008");

      script({
        "considerer#1": [
          bash("toolu_c1", "gh issue comment 1 --body 'Use climpt list --json.'"),
          step("consider", "closing", { verdict: "done", final_summary: "Answered." }),
        ],
        "considerer#2": [
          step("consider", "closing", {
            verdict: "handoff-detail",
            final_summary: "Worth doing: a notes file at notes/2.md.",
          }),
        ],
        "detailer#2": [
          step("detail", "closing", { verdict: "detailed", closure_action: "label-only" }),
        ],
        "detailer#3": [
          step("detail", "closing", { verdict: "blocked", closure_action: "label-only" }),
        ],
        "iterator#2": [
          bash(
            "toolu_i1",
            "mkdir -p notes && printf 'issue 2\\n' > notes/2.md && git add -A && git commit -qm 'notes: issue #2'",
          ),
          step("initial.polling", "next", { analysis: { plan: "write notes/2.md" } }),
          step("continuation.polling", "handoff"),
          step("closure.polling", "closing", { closure_action: "label-only" }),
        ],
        // A model request the API refuses (HTTP 400): a failed run, not an interruption.
        "considerer#4": [reply.error(400, { message: "prompt is too long" })],
      });
      const batch = await spawnCli(["orchestrate", "--concurrency", "1", "--json", "--verbose"], {
        cwd: repo,
        env,
      });
      expect(batch.code, batch.stderr).toBe(0);
      const result = onlyJson(batch.stdout) as {
        status: string;
        issues: { issue: number; status: string; phase: string; closed: boolean }[];
      };
      expect(result.status).toBe("completed");
      expect(
        Object.fromEntries(
          result.issues.map((issue) => [issue.issue, `${issue.status} ${issue.phase}`]),
        ),
      ).toEqual({
        1: "completed done",
        2: "completed done",
        3: "blocked blocked",
        4: "blocked blocked",
      });
      const issue = (n: number) => gh.issue(n, "acme/widgets");
      expect(issue(1)).toMatchObject({ state: "CLOSED", labels: ["done"] });
      expect(issue(1)?.comments.map((comment) => comment.body)).toEqual([
        "Use climpt list --json.",
      ]);
      expect(issue(2)).toMatchObject({ state: "CLOSED" });
      expect(issue(2)?.labels).toEqual(["done"]);
      const two = issue(2)?.comments.map((comment) => comment.body) ?? [];
      expect(two[0]).toContain("## Needs a spec\n\nWorth doing");
      expect(two[1]).toContain("## Spec");
      // The iterator's commit is on the branch the orchestrator started from.
      expect(git(repo, "log", "--format=%s", "--no-merges", "-1", "main")).toBe("notes: issue #2");
      expect(git(repo, "show", "main:notes/2.md")).toBe("issue 2");
      expect(issue(3)).toMatchObject({ state: "OPEN", labels: ["need clearance"], comments: [] });
      expect(issue(4)).toMatchObject({ state: "OPEN", labels: ["need clearance"] });
      expect(issue(4)?.comments[0]?.body).toContain("AC-MODEL-006");
      expect(batch.stderr).toContain("#4 considerer run");
      expect(batch.stderr).toContain("work merged into main");
      // A second pass has nothing to do.
      const again = await spawnCli(["orchestrate", "--json"], { cwd: repo, env });
      expect(again.code, again.stderr).toBe(0);
    },
    BATCH_LIMIT_MS,
  );

  it("dispatches the merger of the merge workflow with the payload given, and the merger starts", async () => {
    const { repo, gh, env } = project();
    mkdirSync(path.join(repo, "tmp", "emits"), { recursive: true });
    gh.update((state) => {
      const widgets = state.repos["acme/widgets"];
      if (widgets === undefined) return;
      widgets.issues.push({
        ...widgets.issues[0],
        number: 5,
        title: "Merge PR 8",
        labels: ["merge:ready"],
        comments: [],
      } as (typeof widgets.issues)[number]);
      widgets.pullRequests.push({
        number: 8,
        title: "Feature",
        body: "",
        state: "OPEN",
        headRefName: "feature",
        baseRefName: "main",
        labels: [],
        author: "climpt-bot",
        createdAt: new Date().toISOString(),
        mergedAt: null,
      } as (typeof widgets.pullRequests)[number]);
    });
    const flags = ["orchestrate", "--workflow", ".agent/workflow-merge.json", "--issue", "5"];
    const bad = await spawnCli([...flags, "--payload", '{"prNumber": "8"}', "--json"], {
      cwd: repo,
      env,
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("ORC-HANDOFF-002");
    const plan = await spawnCli(
      [...flags, "--dry-run", "--payload", '{"prNumber": 8, "verdictPath": "v.json"}'],
      { cwd: repo, env },
    );
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('payload {"prNumber":8,"verdictPath":"v.json"}');
    // The verdict file the reviewer's handoff would have written, in the checkout's history.
    writeFileSync(path.join(repo, "verdict.json"), JSON.stringify({ verdict: "approved" }));
    git(repo, "add", "verdict.json");
    git(repo, "commit", "-qm", "verdict");
    const run = await spawnCli(
      [
        ...flags,
        "--verbose",
        "--json",
        "--payload",
        '{"prNumber": 8, "verdictPath": "verdict.json"}',
      ],
      { cwd: repo, env },
    );
    expect(run.stderr).toContain(
      "program node .agent/merger/scripts/merge-pr.mjs --pr 8 --verdict verdict.json exited 0",
    );
    expect(
      gh.state().repos["acme/widgets"]?.pullRequests.find((pr) => pr.number === 8)?.state,
    ).toBe("MERGED");
    // Its output names no verdict, as the original's merge script's does: the fallback, with why.
    const issue = gh.issue(5, "acme/widgets");
    expect(issue?.labels).toEqual(["merge:blocked"]);
    expect(issue?.comments[0]?.body).toContain("ORC-VERDICT-001");
    expect(run.code).toBe(0);
  });

  it("refuses flags that do not fit together, with AC-CLI codes (exit 2)", async () => {
    const { repo, env } = project();
    const cases: [string[], string][] = [
      [["orchestrate", "--payload", '{"prNumber": 1}'], "needs --issue N"],
      [["orchestrate", "--issue", "1", "--label", "kind:consider"], "--issue runs one issue"],
      [["orchestrate", "--issue", "1", "--payload", "[1]"], "must be a JSON object"],
      [
        ["orchestrate", "--queue", "redis://127.0.0.1:1", "--land", "merge"],
        "the workers run them",
      ],
    ];
    for (const [argv, text] of cases) {
      const outcome = await spawnCli(argv, { cwd: repo, env });
      expect(outcome.code, argv.join(" ")).toBe(2);
      expect(outcome.stderr).toContain(text);
    }
  });
});
