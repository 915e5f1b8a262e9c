import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgentPromptSource } from "@climpt/c3l-resolver";
import type { AgentDefinition, JsonValue } from "@climpt/model";
import type { LaunchRequest } from "@climpt/validators";
import { describe, expect, it } from "vitest";
import { createExecaCommandRunner } from "../command-runner.ts";
import {
  agentDefinition,
  type FakeGh,
  fakeGh,
  git,
  gitRepo,
  loadedAgent,
  pathWith,
  STEP_MACHINE,
  tempDir,
} from "../completion-chain.test-helper.ts";
import { runCompletionChain } from "../run-completion-chain.ts";
import { createVerdictStrategy } from "../verdict/create-verdict-strategy.ts";
import type { BoundaryRequest } from "./boundary-request.ts";
import type { HookCommandLauncher } from "./command-hook.ts";
import { planGithubActions } from "./plan-github-actions.ts";
import { type BoundaryHookResult, runBoundaryHook } from "./run-boundary-hook.ts";

let runs = 0;
const newRunId = (): string => `run-${process.pid}-${Date.now()}-${++runs}`;

/** The GitHub actions of the hook belong to poll:state agents (docs/design.md#the-boundary-hook). */
const POLLING: AgentDefinition["verdict"] = {
  type: "poll:state",
  declaredType: "poll:state",
  config: {},
};

/** A declaration that the run may act on any issue (a triager's). */
const ANY_ISSUE = { issues: "any", pullRequests: "own", repositories: [] } as const;

const GITHUB: AgentDefinition["github"] = {
  enabled: true,
  labels: { completion: { add: ["done"], remove: ["in-progress"] } },
  defaultClosureAction: "label-and-close",
};

function runnerFor(gh: FakeGh) {
  return createExecaCommandRunner({ env: { ...process.env, PATH: pathWith(gh.bin) } });
}

/**
 * What a runner does on `closing`: run the chain and, only when it says done, the hook. Returns
 * the chain's kind and the hook's result (undefined when the hook did not run).
 */
async function closeOut(repo: string, gh: FakeGh, runId: string) {
  const loaded = loadedAgent({ agent: { github: GITHUB } });
  // The chain decides with the step machine; the hook acts as for a poll:state agent.
  const verdict = await createVerdictStrategy(STEP_MACHINE, { agentDir: loaded.dir, params: {} });
  const closureOutput = {
    summary: "Fixed the off-by-one in app.js.",
    next_action: { action: "closing" },
  };
  const chain = await runCompletionChain({
    loaded,
    closureStepId: "closure.fix",
    closureOutput,
    returnStepId: "continuation.implement",
    attempt: 0,
    iteration: 3,
    cwd: repo,
    params: { issue: 7 },
    verdict,
    promptSource: createAgentPromptSource(loaded.dir, loaded.registry),
    channels: { parameters: { issue: 7 } },
  });
  let hook: BoundaryHookResult | undefined;
  if (chain.kind === "done") {
    hook = await runBoundaryHook({
      agent: { ...loaded.agent, verdict: POLLING },
      params: { issue: 7 },
      closureOutput,
      boundaryRequests: [],
      commandRunner: runnerFor(gh),
      cwd: repo,
      runId,
    });
  }
  return { chain, hook };
}

describe("the boundary hook runs only after a validated closing", () => {
  it("is not called while validation fails", async () => {
    const gh = fakeGh();
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "uncommitted\n");
    const { chain, hook } = await closeOut(repo, gh, newRunId());
    expect(chain.kind).toBe("retry");
    expect(hook).toBeUndefined();
    expect(gh.calls()).toEqual([]);
  });

  it("is called once with the right gh args after success, and a second call does not act", async () => {
    const gh = fakeGh();
    const repo = gitRepo();
    const runId = newRunId();
    const { chain, hook } = await closeOut(repo, gh, runId);
    expect(chain.kind).toBe("done");
    expect(hook?.ok).toBe(true);
    // The hook adds no comment of its own: the summary stays in the result.
    expect(gh.calls()).toEqual([
      ["issue", "edit", "7", "--add-label", "done", "--remove-label", "in-progress"],
      ["issue", "close", "7"],
    ]);
    expect(hook?.actions.map((action) => [action.kind, action.exitCode])).toEqual([
      ["label", 0],
      ["close", 0],
    ]);
    expect(hook?.actions[1]?.command).toEqual(["gh", "issue", "close", "7"]);

    const again = await runBoundaryHook({
      agent: agentDefinition({ verdict: POLLING, github: GITHUB }),
      params: { issue: 7 },
      closureOutput: {},
      commandRunner: runnerFor(gh),
      cwd: repo,
      runId,
    });
    expect(again).toBe(hook);
    expect(gh.calls()).toHaveLength(2);
  });

  it("acts on the issue of the parameter with role issue, whatever its name (ticket)", async () => {
    const ticket = {
      ticket: { name: "ticket", type: "number", required: true, cli: "--ticket", role: "issue" },
      issue: { name: "issue", type: "number", required: false, cli: "--issue" },
    } as const;
    const agent = agentDefinition({ verdict: POLLING, github: GITHUB, parameters: ticket });
    // `issue` is an ordinary parameter here: the run's own issue is the ticket's, #12.
    const params = { ticket: 12, issue: 7 };
    const plan = planGithubActions({ agent, params, closureOutput: {} });
    expect(plan.actions.map((action) => [action.action, action.issue])).toEqual([
      ["label-and-close", "12"],
    ]);
    const gh = fakeGh();
    const hook = await runBoundaryHook({
      agent,
      params,
      closureOutput: {},
      commandRunner: runnerFor(gh),
      cwd: gitRepo(),
      runId: newRunId(),
    });
    expect(hook.ok).toBe(true);
    expect(gh.calls()).toEqual([
      ["issue", "edit", "12", "--add-label", "done", "--remove-label", "in-progress"],
      ["issue", "close", "12"],
    ]);
    // A request for the `issue` argument's number is not the run's: refused (AC-HOOK-004).
    const other = planGithubActions({
      agent,
      params,
      closureOutput: {},
      boundaryRequests: [{ action: "close", issue: 7, labels: { add: [], remove: [] } }],
      requestsOnly: true,
    });
    expect(other.actions).toEqual([]);
    expect(other.problems.map((problem) => problem.code)).toEqual(["AC-HOOK-004"]);
    // poll:state watches the ticket too: without it (an `issue` argument alone) it has no issue.
    await expect(
      createVerdictStrategy(POLLING, { agentDir: "/x", params: { ticket: 12 }, agent }),
    ).resolves.toMatchObject({ type: "poll:state" });
    await expect(
      createVerdictStrategy(POLLING, { agentDir: "/x", params: { issue: 7 }, agent }),
    ).rejects.toThrow("pass --ticket <number> or set config.issue");
  });

  it("reports a failing gh with its output and does not close after a failed label edit", async () => {
    const gh = fakeGh(
      `echo "GraphQL: Could not resolve to an issue with the number of 7." >&2; exit 1`,
    );
    const { chain, hook } = await closeOut(gitRepo(), gh, newRunId());
    expect(chain.kind).toBe("done");
    expect(hook?.ok).toBe(false);
    expect(hook?.actions).toHaveLength(1);
    expect(hook?.actions[0]).toMatchObject({ kind: "label", exitCode: 1, ok: false });
    expect(hook?.actions[0]?.stderr).toContain("Could not resolve to an issue");
    expect(hook?.problems[0]?.code).toBe("AC-HOOK-003");
    expect(hook?.problems[0]?.message).toContain("Could not resolve to an issue");
    expect(gh.calls()).toHaveLength(1);
  });

  it("reports gh missing from PATH as a failed action (exit 127)", async () => {
    const result = await runBoundaryHook({
      agent: agentDefinition({ verdict: POLLING, github: GITHUB }),
      params: { issue: 7 },
      closureOutput: {},
      commandRunner: createExecaCommandRunner({ env: { PATH: tempDir() } }),
      cwd: tempDir(),
      runId: newRunId(),
    });
    expect(result.ok).toBe(false);
    expect(result.actions[0]?.exitCode).toBe(127);
    expect(result.problems[0]?.code).toBe("AC-HOOK-003");
  });
});

describe("GitHub actions", () => {
  async function hookWith(
    github: AgentDefinition["github"],
    closureOutput: JsonValue,
    boundaryRequests: BoundaryRequest[] = [],
    params: Record<string, JsonValue> = { issue: 7 },
    repository?: string,
  ) {
    const gh = fakeGh();
    const result = await runBoundaryHook({
      agent: agentDefinition({ verdict: POLLING, github }),
      params,
      closureOutput,
      boundaryRequests,
      commandRunner: runnerFor(gh),
      cwd: tempDir(),
      runId: newRunId(),
      repository,
    });
    return { result, calls: gh.calls() };
  }

  it("integration disabled: no gh call at all", async () => {
    const { result, calls } = await hookWith(
      { enabled: false, labels: {}, defaultClosureAction: "close" },
      { action: "close" },
      [{ action: "close", issue: 9 }],
    );
    expect(calls).toEqual([]);
    expect(result).toEqual({ ran: true, ok: true, actions: [], problems: [] });
  });

  it("close: only the close, without a comment", async () => {
    const { calls } = await hookWith(
      { ...GITHUB, defaultClosureAction: "close" },
      { summary: "Fixed it." },
    );
    expect(calls).toEqual([["issue", "close", "7"]]);
  });

  it("other verdicts leave the issue alone: config and output act only for poll:state", async () => {
    const gh = fakeGh();
    const result = await runBoundaryHook({
      agent: agentDefinition({ verdict: STEP_MACHINE, github: GITHUB }),
      params: { issue: 7 },
      closureOutput: { closure_action: "close" },
      commandRunner: runnerFor(gh),
      cwd: tempDir(),
      runId: newRunId(),
    });
    expect(gh.calls()).toEqual([]);
    expect(result).toEqual({ ran: true, ok: true, actions: [], problems: [] });
  });

  it("label-only from the closure output's closure_action merges config and output labels", async () => {
    const { calls } = await hookWith(GITHUB, {
      closure_action: "label-only",
      issue: { labels: { add: ["needs-review"], remove: ["triage"] } },
    });
    expect(calls).toEqual([
      [
        "issue",
        "edit",
        "7",
        "--add-label",
        "done",
        "--add-label",
        "needs-review",
        "--remove-label",
        "in-progress",
        "--remove-label",
        "triage",
      ],
    ]);
  });

  it("a boundary request overrides the action, adds labels and the comment, and may name another issue the agent declares", async () => {
    const { calls } = await hookWith(
      { ...GITHUB, defaultClosureAction: "label-only", targets: ANY_ISSUE },
      { closure_action: "label-only" },
      [
        { action: "close", comment: "Shipped in v2." },
        { action: "label-and-close", issue: "12", labels: { add: ["duplicate"] } },
      ],
    );
    expect(calls).toEqual([
      ["issue", "close", "7", "--comment", "Shipped in v2."],
      ["issue", "edit", "12", "--add-label", "duplicate"],
      ["issue", "close", "12"],
    ]);
  });

  it("the output's issue.number wins over the issue parameter when the agent declares any issue", async () => {
    const { calls } = await hookWith(
      { ...GITHUB, defaultClosureAction: "close", targets: ANY_ISSUE },
      { issue: { number: 44 } },
      [],
      {},
    );
    expect(calls[0]?.slice(0, 3)).toEqual(["issue", "close", "44"]);
  });

  it("acts only on the run's own issue: other issues and repositories are dropped as AC-HOOK-004", async () => {
    // A closure step of a run for issue 1 recorded github_close_issue {issue: 7}, `gh issue
    // close 8`, and `gh -R other/repo issue close 1`; its output named issue 9.
    const { result, calls } = await hookWith(
      { ...GITHUB, defaultClosureAction: "close" },
      { issue: { number: 9 } },
      [
        { action: "close", issue: 7 },
        { action: "close", issue: "8", comment: "closing" },
        { action: "close", issue: 1, repository: "other/repo" },
        { action: "merge", pullRequest: 3, method: "squash" },
      ],
      { issue: 1 },
    );
    expect(calls).toEqual([["issue", "close", "1"]]);
    expect(result.ok).toBe(false);
    expect(result.problems.map((problem) => problem.code)).toEqual([
      "AC-HOOK-004",
      "AC-HOOK-004",
      "AC-HOOK-004",
      "AC-HOOK-004",
      "AC-HOOK-004",
    ]);
    expect(result.problems[0]?.message).toBe(
      "No GitHub action was taken for the closure output's issue.number: issue #9 is not the run's: this run's issue is #1.",
    );
    expect(result.problems[3]?.message).toContain(
      "issue #1 of other/repo is not in the run's repository",
    );
    expect(result.problems[4]?.message).toContain(
      "pull request #3 is not the run's: this run has no pull request of its own",
    );
    expect(result.problems[0]?.hint).toContain("runner.integrations.github.targets");
  });

  it("a declared repository is named with --repo", async () => {
    const { calls } = await hookWith(
      {
        ...GITHUB,
        defaultClosureAction: "close",
        targets: { issues: "any", pullRequests: "own", repositories: ["o/other"] },
      },
      {},
      [{ action: "close", issue: 3, repository: "o/other", reason: "not planned" }],
    );
    expect(calls).toEqual([
      ["issue", "close", "7"],
      ["issue", "close", "3", "--repo", "o/other", "--reason", "not planned"],
    ]);
  });

  it("names the run's repository with --repo on every action that names none", async () => {
    const { calls } = await hookWith(
      {
        ...GITHUB,
        defaultClosureAction: "label-and-close",
        targets: { issues: "any", pullRequests: "own", repositories: ["o/other"] },
      },
      {},
      [
        { action: "merge", pullRequest: 5, method: "squash", labels: { add: ["merged"] } },
        { action: "close", issue: 3, repository: "o/other" },
      ],
      { issue: 7, prNumber: 5 },
      "o/r",
    );
    expect(calls).toEqual([
      ["pr", "merge", "5", "--repo", "o/r", "--squash"],
      ["pr", "edit", "5", "--repo", "o/r", "--add-label", "merged"],
      [
        "issue",
        "edit",
        "7",
        "--repo",
        "o/r",
        "--add-label",
        "done",
        "--remove-label",
        "in-progress",
      ],
      ["issue", "close", "7", "--repo", "o/r"],
      // A repository the action names stays the one it names.
      ["issue", "close", "3", "--repo", "o/other"],
    ]);
  });

  it("a run without an issue or pull request of its own labels any issue of its repository, and closes none", async () => {
    const requests: BoundaryRequest[] = [
      { action: "label-only", issue: 15, labels: { add: ["kind:impl"], remove: [] } },
      { action: "close", issue: 16 },
      { action: "label-only", issue: 17, labels: { add: ["x"] }, repository: "other/repo" },
    ];
    const triager = await hookWith({ ...GITHUB, labels: {} }, {}, requests, {}, "o/r");
    expect(triager.calls).toEqual([
      ["issue", "edit", "15", "--repo", "o/r", "--add-label", "kind:impl"],
    ]);
    expect(triager.result.problems.map((problem) => [problem.code, problem.message])).toEqual([
      [
        "AC-HOOK-004",
        expect.stringContaining(
          "issue #16 is not the run's: this run has no issue of its own (no --issue argument). A run without an issue or pull request of its own may comment on and label any issue of its repository, but closing one needs an issue of its own or a declaration.",
        ),
      ],
      [
        "AC-HOOK-004",
        expect.stringContaining("issue #17 of other/repo is not in the run's repository"),
      ],
    ]);
    // A run with an issue of its own labels no other (its own is closed, the default action).
    const owned = await hookWith({ ...GITHUB, labels: {} }, {}, requests.slice(0, 1), { issue: 1 });
    expect(owned.calls).toEqual([["issue", "close", "1"]]);
    expect(owned.result.problems.map((problem) => problem.code)).toEqual(["AC-HOOK-004"]);
  });

  it("no issue known: reported as AC-HOOK-001, nothing run", async () => {
    const { result, calls } = await hookWith(GITHUB, {}, [], {});
    expect(calls).toEqual([]);
    expect(result.ok).toBe(false);
    expect(result.problems.map((problem) => problem.code)).toEqual(["AC-HOOK-001"]);
  });

  it("a request for a non-numeric issue is AC-HOOK-002", async () => {
    const { result } = await hookWith(GITHUB, {}, [{ action: "close", issue: "7; rm -rf /" }]);
    expect(result.problems.map((problem) => problem.code)).toContain("AC-HOOK-002");
  });

  it("a label both added and removed is added", () => {
    const plan = planGithubActions({
      agent: agentDefinition({ verdict: POLLING, github: GITHUB }),
      params: { issue: 3 },
      closureOutput: { issue: { labels: { remove: ["done"] } } },
    });
    expect(plan.actions[0]).toMatchObject({ addLabels: ["done"], removeLabels: ["in-progress"] });
  });
});

describe("merges a closure step recorded", () => {
  // The merger of the original project: a count:iteration agent whose closure step runs
  // merge-pr.ts, which asks for `gh pr merge <pr> --squash --delete-branch` and the labels.
  const MERGER: AgentDefinition["verdict"] = {
    type: "count:iteration",
    declaredType: "count:iteration",
    config: { maxIterations: 1 },
  };
  const request: BoundaryRequest = {
    action: "merge",
    pullRequest: 5,
    method: "squash",
    deleteBranch: true,
    labels: { add: ["merge:done"], remove: ["merge:ready"] },
  };

  async function merge(behaviour: string, params: Record<string, JsonValue>) {
    const gh = fakeGh(behaviour);
    const result = await runBoundaryHook({
      agent: agentDefinition({ verdict: MERGER, github: GITHUB }),
      params,
      closureOutput: { ok: true, decision: { kind: "merged" } },
      boundaryRequests: [request],
      commandRunner: runnerFor(gh),
      cwd: tempDir(),
      runId: newRunId(),
    });
    return { result, calls: gh.calls() };
  }

  it("merges the run's own pull request, then changes its labels, whatever the verdict", async () => {
    const { result, calls } = await merge("exit 0", { prNumber: 5 });
    expect(calls).toEqual([
      ["pr", "merge", "5", "--squash", "--delete-branch"],
      ["pr", "edit", "5", "--add-label", "merge:done", "--remove-label", "merge:ready"],
    ]);
    expect(result.ok).toBe(true);
    expect(result.actions.map((action) => [action.kind, action.pullRequest])).toEqual([
      ["merge", "5"],
      ["label", "5"],
    ]);
  });

  it("a failed merge is reported as AC-HOOK-003 and its labels are not changed", async () => {
    const { result, calls } = await merge(
      'if [ "$2" = merge ]; then echo "Pull request #5 is not mergeable" >&2; exit 1; fi',
      { prNumber: 5 },
    );
    expect(calls).toEqual([["pr", "merge", "5", "--squash", "--delete-branch"]]);
    expect(result.ok).toBe(false);
    expect(result.problems.map((problem) => problem.code)).toEqual(["AC-HOOK-003"]);
    expect(result.problems[0]?.message).toBe(
      "`gh pr merge` for pull request #5 exited 1: Pull request #5 is not mergeable",
    );
  });

  it("another pull request than the run's is not merged", async () => {
    const { result, calls } = await merge("exit 0", { prNumber: 6 });
    expect(calls).toEqual([]);
    expect(result.problems.map((problem) => problem.code)).toEqual(["AC-HOOK-004"]);
  });
});

describe("the generic command hook", () => {
  it("runs sh -c in the working directory with the run's environment and a result JSON file", async () => {
    const cwd = tempDir();
    const runId = newRunId();
    const result = await runBoundaryHook({
      agent: agentDefinition({
        boundaryHook: {
          command:
            'printf "%s|%s|%s\\n" "$CLIMPT_RUN_ID" "$CLIMPT_AGENT" "$CLIMPT_ISSUE" > hook.out && cp "$CLIMPT_RESULT_JSON" result.json && echo hooked',
        },
      }),
      params: { issue: 5 },
      closureOutput: { summary: "all good" },
      cwd,
      runId,
    });
    expect(result.ok).toBe(true);
    expect(result.actions).toHaveLength(1);
    expect(result.actions[0]).toMatchObject({ kind: "command", exitCode: 0, stdout: "hooked\n" });
    expect(readFileSync(join(cwd, "hook.out"), "utf8")).toBe(`${runId}|fix-bug|5\n`);
    const payload = JSON.parse(readFileSync(join(cwd, "result.json"), "utf8")) as Record<
      string,
      JsonValue
    >;
    expect(payload).toMatchObject({
      runId,
      agent: "fix-bug",
      issue: "5",
      closureOutput: { summary: "all good" },
    });
  });

  it("runs after the gh actions and sees their results", async () => {
    const gh = fakeGh();
    const cwd = tempDir();
    const result = await runBoundaryHook({
      agent: agentDefinition({
        verdict: POLLING,
        github: { ...GITHUB, defaultClosureAction: "close" },
        boundaryHook: { command: 'cp "$CLIMPT_RESULT_JSON" result.json' },
      }),
      params: { issue: 8 },
      closureOutput: {},
      commandRunner: runnerFor(gh),
      cwd,
      runId: newRunId(),
    });
    expect(result.actions.map((action) => action.kind)).toEqual(["close", "command"]);
    const payload = JSON.parse(readFileSync(join(cwd, "result.json"), "utf8")) as {
      githubActions: { kind: string; exitCode: number }[];
    };
    expect(payload.githubActions).toMatchObject([{ kind: "close", exitCode: 0 }]);
  });

  it("a failing command hook is reported with its output, never swallowed", async () => {
    const result = await runBoundaryHook({
      agent: agentDefinition({
        boundaryHook: { command: "echo 'deploy refused: no token' >&2; exit 3" },
      }),
      params: {},
      closureOutput: {},
      cwd: tempDir(),
      runId: newRunId(),
    });
    expect(result.ok).toBe(false);
    expect(result.actions[0]).toMatchObject({ kind: "command", exitCode: 3, ok: false });
    expect(result.actions[0]?.stderr).toContain("deploy refused: no token");
    expect(result.problems[0]).toMatchObject({ code: "AC-HOOK-003" });
    expect(result.problems[0]?.message).toContain("exited 3: deploy refused: no token");
  });

  it("does not pass the model's credentials to the hook", async () => {
    const cwd = tempDir();
    const result = await runBoundaryHook({
      agent: agentDefinition({
        boundaryHook: { command: 'printf "[%s]" "$ANTHROPIC_API_KEY" > key.out' },
      }),
      params: {},
      closureOutput: {},
      commandRunner: createExecaCommandRunner({
        env: { ...process.env, ANTHROPIC_API_KEY: "sk-secret" },
      }),
      cwd,
      runId: newRunId(),
    });
    expect(result.ok).toBe(true);
    expect(readFileSync(join(cwd, "key.out"), "utf8")).toBe("[]");
  });

  it("a hook that hangs is stopped at its timeout and reported", async () => {
    const result = await runBoundaryHook({
      agent: agentDefinition({ boundaryHook: { command: "sleep 30", timeoutMs: 300 } }),
      params: {},
      closureOutput: {},
      cwd: tempDir(),
      runId: newRunId(),
    });
    expect(result.ok).toBe(false);
    expect(result.actions[0]?.timedOut).toBe(true);
    expect(result.problems[0]?.message).toContain("timed out");
  });
});

describe("the command hook through a launcher (the runner's OS sandbox)", () => {
  /** A launcher that runs the command as it is, with `env` as its whole environment. */
  function launcherOf(
    env: Record<string, string>,
    recorded: readonly BoundaryRequest[] = [],
  ): { launch: HookCommandLauncher; requests: LaunchRequest[]; released: () => number } {
    const requests: LaunchRequest[] = [];
    let released = 0;
    return {
      requests,
      released: () => released,
      launch: async (command, request) => {
        requests.push(request);
        return {
          command,
          env,
          release: async () => {
            released++;
          },
          boundaryRequests: () => recorded,
        };
      },
    };
  }

  it("runs the launch with exactly its environment plus the hook's variables, passing the declared env, released once", async () => {
    const cwd = tempDir();
    process.env.CLIMPT_TEST_HOST_ONLY = "host-value";
    try {
      const launcher = launcherOf({ PATH: process.env.PATH ?? "", MARK: "sandboxed" });
      const runId = newRunId();
      // \${VAR-unset}: "unset" unless the variable is in the environment.
      const command = `printf "%s|%s|%s" "\${CLIMPT_TEST_HOST_ONLY-unset}" "$MARK" "$CLIMPT_RUN_ID"`;
      const result = await runBoundaryHook({
        agent: agentDefinition({
          boundaryHook: {
            command,
            env: ["DEPLOY_TOKEN"],
          },
        }),
        params: {},
        closureOutput: {},
        cwd,
        runId,
        launchCommand: launcher.launch,
      });
      expect(result.ok).toBe(true);
      expect(result.actions[0]?.stdout).toBe(`unset|sandboxed|${runId}`);
      expect(result.actions[0]?.command).toEqual(["sh", "-c", command]);
      expect(launcher.requests).toMatchObject([{ cwd, declaredEnv: ["DEPLOY_TOKEN"] }]);
      expect(launcher.released()).toBe(1);
    } finally {
      delete process.env.CLIMPT_TEST_HOST_ONLY;
    }
  });

  it("performs what the command's gh recorded once it exits 0, on the run's own issue only", async () => {
    const recorded: BoundaryRequest[] = [
      { action: "close", issue: 5, comment: "released" },
      { action: "close", issue: 9 },
    ];
    const gh = fakeGh();
    const launcher = launcherOf({ PATH: process.env.PATH ?? "" }, recorded);
    const result = await runBoundaryHook({
      agent: agentDefinition({ github: GITHUB, boundaryHook: { command: "true" } }),
      params: { issue: 5 },
      closureOutput: {},
      commandRunner: runnerFor(gh),
      cwd: tempDir(),
      runId: newRunId(),
      launchCommand: launcher.launch,
    });
    expect(gh.calls()).toEqual([["issue", "close", "5", "--comment", "released"]]);
    expect(result.actions.map((action) => action.kind)).toEqual(["command", "close"]);
    expect(result.problems.map((problem) => problem.code)).toEqual(["AC-HOOK-004"]);
  });

  it("a command that fails: what it recorded is not performed", async () => {
    const gh = fakeGh();
    const launcher = launcherOf({ PATH: process.env.PATH ?? "" }, [{ action: "close", issue: 5 }]);
    const result = await runBoundaryHook({
      agent: agentDefinition({ github: GITHUB, boundaryHook: { command: "exit 4" } }),
      params: { issue: 5 },
      closureOutput: {},
      commandRunner: runnerFor(gh),
      cwd: tempDir(),
      runId: newRunId(),
      launchCommand: launcher.launch,
    });
    expect(gh.calls()).toEqual([]);
    expect(result.ok).toBe(false);
    expect(result.problems.map((problem) => problem.code)).toEqual(["AC-HOOK-003"]);
  });

  it("a launcher that cannot start the sandbox: AC-HOOK-003 with why, nothing ran", async () => {
    const cwd = tempDir();
    const result = await runBoundaryHook({
      agent: agentDefinition({ boundaryHook: { command: "touch ran" } }),
      params: {},
      closureOutput: {},
      cwd,
      runId: newRunId(),
      launchCommand: async () => {
        throw new Error("the OS sandbox cannot start here: bubblewrap (bwrap) not installed");
      },
    });
    expect(result.ok).toBe(false);
    expect(result.problems[0]?.code).toBe("AC-HOOK-003");
    expect(result.problems[0]?.message).toContain(
      "it runs inside the OS sandbox, and the OS sandbox cannot start here: bubblewrap (bwrap) not installed",
    );
    expect(existsSync(join(cwd, "ran"))).toBe(false);
  });
});

describe("idempotency", () => {
  it("concurrent calls for one run id share one execution", async () => {
    const cwd = tempDir();
    git(cwd, "init", "-q");
    const agent = agentDefinition({ boundaryHook: { command: "echo x >> count.txt" } });
    const runId = newRunId();
    const input = { agent, params: {}, closureOutput: {}, cwd, runId };
    const [a, b] = await Promise.all([runBoundaryHook(input), runBoundaryHook(input)]);
    expect(a).toBe(b);
    expect(readFileSync(join(cwd, "count.txt"), "utf8")).toBe("x\n");
  });
});
