/**
 * `climpt run` on agent folders shaped like the original runtime's seven agents, against the fake
 * Messages API and a stateful fake `gh` on PATH: each run ends the way the original ends with the
 * same model replies (success, exit code, and what happened to the issue or pull request).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  type FakeAnthropic,
  type FakeReply,
  installOriginalShape,
  installSimpleFakeGh,
  type OriginalShapeAgent,
  reply,
  type SimpleFakeGhSeed,
  type SimpleInstalledFakeGh,
  startFakeAnthropic,
} from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 9 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let fake: FakeAnthropic;
const folders: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  fake.reset();
});
afterAll(async () => {
  await fake.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

interface ShapeRun {
  readonly code: number | null;
  readonly stderr: string;
  readonly result: {
    success: boolean;
    verdict?: string;
    error?: { code: string; message: string };
    state: { history: { stepId: string; transition: string }[] };
    boundary?: { ok: boolean; problems: { code: string; message: string }[] };
  };
  readonly path: readonly string[];
  readonly gh: SimpleInstalledFakeGh;
}

/**
 * A repository (its own folder inside a scratch folder, so worktree mode's `../worktree` stays
 * inside it too) holding the agent in one commit, the scripted replies, and a fake gh seeded with
 * `seed`; then `climpt run <agent> …args --json`.
 */
async function runShape(
  agent: OriginalShapeAgent,
  replies: readonly FakeReply[],
  args: readonly string[],
  seed: SimpleFakeGhSeed = {},
): Promise<ShapeRun> {
  const scratch = tempDir(agent);
  folders.push(scratch);
  const repo = path.join(scratch, "repo");
  mkdirSync(repo);
  installOriginalShape(agent, repo);
  writeFileSync(path.join(repo, ".gitignore"), "tmp/\n");
  writeFileSync(path.join(repo, "README.md"), "# project\n");
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "agent");
  const gh = installSimpleFakeGh(seed);
  fake.enqueue(...replies);
  const outcome = await spawnCli(["run", agent, ...args, "--json"], {
    cwd: repo,
    env: {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "test-key",
      PATH: gh.path,
      ...GIT_IDENTITY,
    },
  });
  const result = onlyJson(outcome.stdout) as unknown as ShapeRun["result"];
  // A refusal before the run (a bad agent folder) prints problems, not a result: show them.
  if (result.state === undefined)
    throw new Error(`climpt run printed no result:\n${outcome.stdout}`);
  return {
    code: outcome.code,
    stderr: outcome.stderr,
    result,
    path: result.state.history.map((entry) => `${entry.stepId} → ${entry.transition}`),
    gh,
  };
}

/** A gate-dialect reply in the original's shape: stepId, summary, next_action, and more fields. */
const step = (stepId: string, action: string, extra: Record<string, unknown> = {}) =>
  reply.json({ stepId, summary: `${stepId} done`, next_action: { action }, ...extra });

/** A tool call, then (in the same step) the model's next reply. */
const bash = (id: string, command: string): FakeReply => ({
  kind: "message",
  content: [{ type: "tool_use", id, name: "Bash", input: { command } }],
});

describe("the original's seven agents through climpt run", () => {
  it("considerer: one closure step, done at its budget of one iteration, verdict in the result", async () => {
    const run = await runShape(
      "considerer",
      [step("consider", "closing", { verdict: "done", final_summary: "Answered." })],
      ["--issue", "12"],
      { issues: { 12: { labels: ["kind:consider"] } } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.success).toBe(true);
    expect(run.result.verdict).toBe("done");
    expect(run.path).toEqual(["consider → closing"]);
    // count:iteration: the original's boundary hook leaves GitHub alone. gh is only asked for
    // the run's repository, before the first step.
    expect(run.gh.issue(12)).toMatchObject({ state: "OPEN", labels: ["kind:consider"] });
    expect(run.gh.calls()).toEqual([["repo", "view", "--json", "nameWithOwner"]]);
  });

  it("detailer: the label-only variant, no GitHub tool, nothing closed", async () => {
    const run = await runShape(
      "detailer",
      [step("detail", "closing", { verdict: "detailed", closure_action: "label-only" })],
      ["--issue", "5"],
      { issues: { 5: { labels: ["kind:detail"] } } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.verdict).toBe("detailed");
    const body = fake.messageRequests()[0]?.body as { tools?: { name: string }[] } | undefined;
    const tools = (body?.tools ?? []).map((tool) => tool.name);
    expect(tools).toContain("Bash");
    expect(tools.filter((name) => name.startsWith("github_"))).toEqual([]);
    expect(run.gh.issue(5)).toMatchObject({ state: "OPEN", labels: ["kind:detail"] });
  });

  it("triager: a gate-less closure step labels issues from Bash and completes", async () => {
    const run = await runShape(
      "triager",
      [
        bash("toolu_tr1", "gh issue list --state open --json number,title,labels"),
        bash("toolu_tr2", "gh issue edit 21 --add-label kind:impl --add-label order:1"),
        reply.text("Labelled #21 as kind:impl, order:1."),
      ],
      [],
      { issues: { 21: { title: "Add export" }, 22: { labels: ["done"], state: "CLOSED" } } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.success).toBe(true);
    expect(run.path).toEqual(["triage → closing"]);
    expect(run.gh.issue(21)).toMatchObject({ state: "OPEN", labels: ["kind:impl", "order:1"] });
  });

  it("merger: the program merges the approved pull request, no model call: its sandboxed gh pr merge is recorded and the boundary hook merges the run's PR", async () => {
    const verdict = path.join(tempDir("verdict"), "verdict.json");
    folders.push(path.dirname(verdict));
    writeFileSync(verdict, JSON.stringify({ verdict: "approved" }));
    const run = await runShape("merger", [], ["--pr-number", "8", "--verdict-path", verdict], {
      pullRequests: { 8: { head: "feature" } },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.success).toBe(true);
    expect(fake.messageRequests()).toHaveLength(0);
    expect(run.result.boundary?.ok).toBe(true);
    // One merge, by the hook on the host after validated completion; the program's own call
    // was answered "Recorded" by the broker and never reached gh.
    expect(run.gh.calls().filter((argv) => argv[0] === "pr" && argv[1] === "merge")).toEqual([
      ["pr", "merge", "8", "--repo", "climpt-test/sample", "--squash"],
    ]);
    expect(run.gh.state().pullRequests["8"]?.state).toBe("MERGED");
  });

  it("iterator: poll:state with label-only ends when the hook applied the completion labels", async () => {
    const run = await runShape(
      "iterator",
      [
        step("initial.polling", "next", { analysis: { plan: "fix the typo, commit" } }),
        step("continuation.polling", "handoff"),
        step("closure.polling", "closing", { closure_action: "label-only" }),
      ],
      ["--issue", "31"],
      { issues: { 31: { labels: ["docs", "in-progress"] } } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.success).toBe(true);
    expect(run.path).toEqual([
      "initial.polling → continuation.polling",
      "continuation.polling → closure.polling",
      "closure.polling → closing",
    ]);
    expect(run.gh.issue(31)).toMatchObject({ state: "OPEN", labels: ["docs", "done"] });
    expect(run.gh.issue(31).comments).toEqual([]);
  });

  it("reviewer: poll:state closes the issue through the hook", async () => {
    const run = await runShape(
      "reviewer",
      [
        step("initial.issue", "handoff", { findings: "All requirements are implemented." }),
        step("closure.review", "closing"),
      ],
      ["--issue", "40"],
      { issues: { 40: { labels: ["review"] } } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.success).toBe(true);
    expect(run.gh.issue(40)).toMatchObject({ state: "CLOSED", labels: ["review"] });
    // The close carries the run's completion ledger, the proof its validators passed.
    const comments = run.gh.issue(40).comments;
    expect(comments).toHaveLength(1);
    expect(comments[0]).toContain("**climpt completion ledger**");
    expect(comments[0]).toContain("| validator | command | result | commit | time |");
  });

  it("facilitator: detect:structured ends at the closure's closing without the signal field", async () => {
    const run = await runShape(
      "facilitator",
      [step("initial.statuscheck", "handoff"), step("closure.facilitation", "closing")],
      ["--project", "3"],
      { issues: { 50: { labels: ["need clearance"] } } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.result.success).toBe(true);
    expect(run.path).toEqual([
      "initial.statuscheck → closure.facilitation",
      "closure.facilitation → closing",
    ]);
    expect(run.gh.issue(50)).toMatchObject({ state: "OPEN", labels: ["need clearance"] });
  });
});
