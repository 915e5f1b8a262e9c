import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeGh, installFakeGh } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GhClient } from "../github/gh-client.ts";
import type { OrchestratorContext } from "../orchestrate/issue-types.ts";
import { emptyRecord, type IssueRecord } from "../state/issue-record.ts";
import { phaseById, type Workflow } from "../workflow-model.ts";
import { pipeline } from "../workflows.test-helper.ts";
import { type ChecksStep, followChecks } from "./follow-checks.ts";

vi.setConfig({ testTimeout: 60_000 });

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, {
    cwd,
    stdio: "ignore",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

/** The pipeline workflow with a `ci` phase (fix agent `ci-fixer`) between implementing and reviewing. */
function workflow(checks: Record<string, number>): Workflow {
  return pipeline((raw) => {
    const phases = raw.phases as Record<string, unknown>;
    phases.ci = { type: "actionable", priority: 2, agent: "ci-fixer", checks };
    (raw.labelMapping as Record<string, string>)["kind:ci"] = "ci";
    (raw.labels as Record<string, unknown>)["kind:ci"] = { color: "1d76db", description: "CI" };
    (raw.agents as Record<string, unknown>)["ci-fixer"] = {
      role: "transformer",
      outputPhase: "reviewing",
      fallbackPhase: "blocked",
    };
  });
}

/** A checkout whose `origin` holds `climpt/issue-7`, a fake gh with the issue's pull request. */
function setup(open = true): { gh: FakeGh; client: GhClient } {
  const root = mkdtempSync(path.join(tmpdir(), "climpt-follow-"));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const work = path.join(root, "work");
  const bare = path.join(root, "origin.git");
  git(root, "init", "-q", "--bare", bare);
  git(root, "init", "-q", "-b", "main", work);
  writeFileSync(path.join(work, "a.txt"), "a\n");
  git(work, "add", ".");
  git(work, "commit", "-qm", "a");
  git(work, "push", "-q", bare, "main:main", "main:climpt/issue-7");
  const gh = installFakeGh({ repo: "acme/widgets", git: bare }, { dir: path.join(root, "gh") });
  if (open)
    gh.update((state) => {
      const repo = state.repos["acme/widgets"];
      repo?.pullRequests.push({
        number: 8,
        title: "Issue 7",
        body: "Closes #7",
        state: "OPEN",
        headRefName: "climpt/issue-7",
        baseRefName: "main",
        labels: [],
        author: "climpt-bot",
        createdAt: new Date().toISOString(),
        mergedAt: null,
      });
    });
  const client = new GhClient({ cwd: work, env: { ...process.env, ...gh.env } });
  return { gh, client };
}

class Follower {
  record: IssueRecord;
  constructor(
    readonly context: OrchestratorContext,
    record?: IssueRecord,
  ) {
    this.record = record ?? emptyRecord({ repo: "acme/widgets", issue: 7, workflowId: "default" });
  }
  async save(record: IssueRecord): Promise<void> {
    this.record = structuredClone(record);
  }
}

function place(wf: Workflow) {
  const phase = phaseById(wf, "ci");
  const agent = wf.agents.find((candidate) => candidate.id === "ci-fixer");
  if (phase?.checks == null || agent === undefined) throw new Error("no ci phase");
  return { issue: 7, phase, checks: phase.checks, agent, labels: ["kind:ci"] };
}

const contextOf = (wf: Workflow, client: GhClient) =>
  ({ workflow: wf, gh: client, repo: "acme/widgets" }) as unknown as OrchestratorContext;

function kindOf(step: ChecksStep): string {
  return step.kind === "transition"
    ? `transition ${step.transition.to} ${step.transition.outcome}`
    : step.kind;
}

describe("following a pull request's checks, one look at a time", () => {
  it("keeps the wait in the issue's record: a pass after a restart keeps counting from the first, and blocks at the timeout naming the check", async () => {
    const { gh, client } = setup();
    gh.scriptChecks("climpt/issue-7", [[{ name: "e2e", conclusion: "pending" }]]);
    const wf = workflow({ timeoutMinutes: 1, pollSeconds: 5 });
    const context = contextOf(wf, client);
    let clock = Date.parse("2026-11-28T10:00:00Z");
    const now = () => clock;
    const first = new Follower(context);
    const waiting = await followChecks(first, place(wf), now);
    expect(waiting).toMatchObject({ kind: "wait", retryAfterMs: 5_000 });
    expect(first.record.checksWait).toMatchObject({
      phase: "ci",
      number: 8,
      since: "2026-11-28T10:00:00.000Z",
      attempts: 0,
    });
    // A new process (the record read back) 40 s later: still the same wait, 20 s left.
    clock += 40_000;
    const second = new Follower(context, JSON.parse(JSON.stringify(first.record)));
    const still = await followChecks(second, place(wf), now);
    expect(still).toMatchObject({ kind: "wait", retryAfterMs: 5_000 });
    expect(second.record.checksWait?.since).toBe("2026-11-28T10:00:00.000Z");
    clock += 19_000;
    expect(await followChecks(second, place(wf), now)).toMatchObject({ retryAfterMs: 1_000 });
    clock += 1_000;
    const over = await followChecks(second, place(wf), now);
    expect(kindOf(over)).toBe("transition blocked checks-timeout");
    if (over.kind !== "transition") throw new Error("no transition");
    expect(over.reason?.code).toBe("ORC-CHECKS-002");
    expect(over.reason?.message).toContain('"e2e"');
    expect(over.transition.comment).toContain("```text\ne2e: pending\n```");
    expect(over.transition.comment).toMatch(
      /Runs:\n- https:\/\/github\.com\/acme\/widgets\/actions\/runs\/\d+\/job\/\d+/,
    );
  });

  it("gives the fix agent the failing checks and logs, keeps them for a resumed fix run, and blocks once the attempts are spent", async () => {
    const { gh, client } = setup();
    gh.scriptChecks("climpt/issue-7", [
      [
        {
          name: "test",
          conclusion: "failure",
          log: "FAIL a.test.ts\nexpected 1 to be 2",
          polls: 0,
        },
        { name: "lint", conclusion: "success", polls: 0 },
      ],
    ]);
    const wf = workflow({ maxFixAttempts: 1 });
    const follower = new Follower(contextOf(wf, client));
    const fix = await followChecks(follower, place(wf));
    if (fix.kind !== "fix") throw new Error(`expected a fix, got ${kindOf(fix)}`);
    expect(fix.args.failedChecks).toBe("test");
    expect(fix.args.checkLogs).toBe("== test ==\nFAIL a.test.ts\nexpected 1 to be 2");
    expect(fix.args.pullRequest).toBe("https://github.com/acme/widgets/pull/8");
    expect(follower.record.checksWait).toMatchObject({ attempts: 1, fix: fix.args });
    // The fix run was interrupted: the next pass resumes it with the same arguments, asking gh nothing.
    const calls = gh.calls().length;
    follower.record = {
      ...follower.record,
      inFlight: {
        phase: "ci",
        agent: "ci-fixer",
        startedAt: new Date().toISOString(),
        runId: "r1",
        journalPath: null,
        worktree: null,
        transition: null,
      },
    };
    expect(await followChecks(follower, place(wf))).toEqual({ kind: "fix", args: fix.args });
    expect(gh.calls().length).toBe(calls);
    // The fix landed without changing the head (or CI still fails): attempts are spent.
    follower.record = {
      ...follower.record,
      inFlight: null,
      checksWait: {
        ...(follower.record.checksWait as NonNullable<IssueRecord["checksWait"]>),
        fix: null,
      },
    };
    const spent = await followChecks(follower, place(wf));
    expect(kindOf(spent)).toBe("transition blocked checks-failed");
    if (spent.kind !== "transition") throw new Error("no transition");
    expect(spent.reason?.code).toBe("ORC-CHECKS-003");
    expect(spent.transition.comment).toContain("test: fail");
    expect(spent.transition.comment).not.toContain("lint");
  });

  it("passes to the agent's outputPhase when every check passed, and blocks when the branch has no pull request", async () => {
    const { gh, client } = setup();
    gh.scriptChecks("climpt/issue-7", [[{ name: "test", conclusion: "success", polls: 0 }]]);
    const wf = workflow({});
    const green = await followChecks(new Follower(contextOf(wf, client)), place(wf));
    expect(kindOf(green)).toBe("transition reviewing checks-passed");
    if (green.kind !== "transition") throw new Error("no transition");
    expect(green.transition.add).toEqual(["kind:review"]);
    expect(green.transition.remove).toEqual(["kind:ci"]);
    const none = setup(false);
    const missing = await followChecks(new Follower(contextOf(wf, none.client)), place(wf));
    expect(kindOf(missing)).toBe("transition blocked checks-no-pull-request");
    if (missing.kind !== "transition") throw new Error("no transition");
    expect(missing.reason?.code).toBe("ORC-CHECKS-001");
  });
});
