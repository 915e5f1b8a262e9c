import { execFileSync } from "node:child_process";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import {
  type ChecksScenario,
  commitRun,
  type FakeAnthropic,
  type FakeRequest,
  reviewReply,
  startFakeAnthropic,
  writeChecksScenario,
} from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunnerDispatcher } from "../dispatch/runner-dispatcher.ts";
import { GhClient } from "../github/gh-client.ts";
import { LocalModelLimiter } from "../limiter/local-limiter.ts";
import { loadWorkflow } from "../load-workflow.ts";
import { orchestrateBatch } from "../orchestrate/orchestrate-batch.ts";
import type { OrchestratorContext } from "../orchestrate/orchestrate-issue.ts";
import { FileIssueStateStore } from "../state/file-state-store.ts";

// Real runs, real git, ~60 gh processes and polls of the checks: the limit detects a hang.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(scenario: ChecksScenario): Promise<{
  fake: FakeAnthropic;
  context: OrchestratorContext;
}> {
  cleanups.push(() => scenario.remove());
  const fake = await startFakeAnthropic();
  cleanups.push(() => fake.close());
  fake.setHandler(scenario.model.handler);
  const loaded = await loadWorkflow(scenario.repoDir);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const env = { ...process.env, ...scenario.gh.env };
  const gh = new GhClient({ cwd: scenario.repoDir, env });
  return {
    fake,
    context: {
      workflow: loaded.value.workflow,
      gh,
      dispatcher: new RunnerDispatcher({
        repoDir: scenario.repoDir,
        worktreeRoot: scenario.worktreeRoot,
        gh,
        limiter: new LocalModelLimiter({ maxConcurrent: 4 }),
        modelClient: createAnthropicClient({
          apiKey: "sk-test-key",
          baseURL: fake.url,
          maxRetries: 0,
        }),
        runner: { env, ghCommand: scenario.gh.ghPath },
      }),
      store: new FileIssueStateStore(path.join(scenario.repoDir, ".climpt", "orchestrator")),
      repo: scenario.repo,
    },
  };
}

function promptOf(request: FakeRequest): string {
  const body = request.body as { messages?: { content?: unknown }[] };
  return JSON.stringify(body.messages?.[0]?.content ?? "");
}

describe("a checks phase follows the pull request's CI", () => {
  it("fixes a red check once and reaches review with a green PR; blocks the issue whose check never finishes, naming it", async () => {
    const scenario = writeChecksScenario({
      issues: [1, 2],
      checks: { timeoutMinutes: 0.25, pollSeconds: 0.3, maxFixAttempts: 2 },
      script: {
        "implementer#1": commitRun(1, "notes/issue-1.md", "one", "widgets: issue #1"),
        "implementer#2": commitRun(2, "notes/issue-2.md", "two", "widgets: issue #2"),
        "ci-fixer#1": commitRun(1, "src/widgets.txt", "fixed", "widgets: fix the test for #1"),
        "reviewer#1": [reviewReply("approved")],
      },
    });
    scenario.gh.scriptChecks("climpt/issue-1", [
      [
        {
          name: "test",
          conclusion: "failure",
          log: "Running 12 tests\nFAIL widgets.test.ts > counts widgets\nAssertionError: expected 1 to be 2",
        },
        { name: "lint", conclusion: "success" },
      ],
      [
        { name: "test", conclusion: "success" },
        { name: "lint", conclusion: "success" },
      ],
    ]);
    scenario.gh.scriptChecks("climpt/issue-2", [
      [
        { name: "lint", conclusion: "success" },
        { name: "e2e (slow runner)", conclusion: "pending" },
      ],
    ]);
    const { fake, context } = await start(scenario);
    const started = Date.now();
    const result = await orchestrateBatch(context, { concurrency: 2 });
    const seconds = (Date.now() - started) / 1000;

    expect(result.issues.map((issue) => `#${issue.issue} ${issue.status} ${issue.phase}`)).toEqual([
      "#1 completed done",
      "#2 blocked blocked",
    ]);
    expect(result.issues[0]?.transitions.map((t) => `${t.from}->${t.to}:${t.outcome}`)).toEqual([
      "implementing->ci:success",
      "ci->reviewing:checks-passed",
      "reviewing->done:approved",
    ]);
    expect(result.issues[1]?.transitions.map((t) => `${t.from}->${t.to}:${t.outcome}`)).toEqual([
      "implementing->ci:success",
      "ci->blocked:checks-timeout",
    ]);
    expect(result.issues[1]?.error?.code).toBe("ORC-CHECKS-002");

    // The fix agent was told which check failed and what its log said.
    const fixRequests = fake.requests.filter((request) =>
      JSON.stringify((request.body as { system?: unknown }).system ?? "").includes("ci-fixer"),
    );
    expect(fixRequests.length).toBeGreaterThan(0);
    const prompt = promptOf(fixRequests[0] as FakeRequest);
    expect(prompt).toContain("test");
    expect(prompt).toContain("AssertionError: expected 1 to be 2");
    expect(prompt).not.toContain("lint");
    expect(prompt).toContain("https://github.com/acme/widgets/pull/");

    // The host pushed the fix: the PR's branch on the remote holds the fix commit, and its
    // second head is the one whose checks passed.
    const state = scenario.gh.state().repos["acme/widgets"];
    expect(state?.heads?.["climpt/issue-1"]).toHaveLength(2);
    const prs = state?.pullRequests.map((pr) => `${pr.headRefName} ${pr.state}`).sort();
    expect(prs).toEqual(["climpt/issue-1 OPEN", "climpt/issue-2 OPEN"]);
    const pushed = execFileSync(
      "git",
      ["--git-dir", scenario.remote, "log", "--format=%s", "climpt/issue-1"],
      { encoding: "utf8" },
    );
    expect(pushed.split("\n").slice(0, 2)).toEqual([
      "widgets: fix the test for #1",
      "widgets: issue #1",
    ]);

    // Issue 1 closed in review with its PR; issue 2 blocked with a comment naming the check.
    expect(scenario.gh.issue(1)?.state).toBe("CLOSED");
    const blocked = scenario.gh.issue(2);
    expect(blocked?.labels).toContain("need clearance");
    const last = blocked?.comments.at(-1)?.body ?? "";
    expect(last).toContain("ORC-CHECKS-002");
    expect(last).toContain("```text\ne2e (slow runner): pending");
    expect(last).toMatch(
      /Runs:\n- https:\/\/github\.com\/acme\/widgets\/actions\/runs\/\d+\/job\/\d+/,
    );
    // Nothing was asked of the model for issue 2 after its implementation.
    expect(
      scenario.model.served.filter((call) => call.key.endsWith("#2")).map((c) => c.key),
    ).toEqual(["implementer#2", "implementer#2", "implementer#2"]);
    expect(scenario.model.repeatedCompletedCalls(fake.requests)).toBe(0);
    console.log(`checks e2e: two issues in ${seconds.toFixed(1)} s`);
  });
});
