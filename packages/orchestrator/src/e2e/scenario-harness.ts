import { execFileSync } from "node:child_process";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import {
  type FakeAnthropic,
  startFakeAnthropic,
  type WorkflowScenario,
  writeWorkflowScenario,
} from "@climpt/testing";
import { expect } from "vitest";
import { RunnerDispatcher } from "../dispatch/runner-dispatcher.ts";
import { GhClient } from "../github/gh-client.ts";
import { LocalModelLimiter } from "../limiter/local-limiter.ts";
import { loadWorkflow } from "../load-workflow.ts";
import type { OrchestratorContext } from "../orchestrate/orchestrate-issue.ts";
import { FileIssueStateStore } from "../state/file-state-store.ts";

export interface Harness {
  readonly scenario: WorkflowScenario;
  readonly fake: FakeAnthropic;
  readonly limiter: LocalModelLimiter;
  context(signal?: AbortSignal): Promise<OrchestratorContext>;
  close(): Promise<void>;
}

/** The workflow scenario with the real runner behind the orchestrator, on this machine. */
export async function startHarness(
  options: Parameters<typeof writeWorkflowScenario>[0] = {},
): Promise<Harness> {
  const scenario = writeWorkflowScenario(options);
  const fake = await startFakeAnthropic();
  fake.setHandler(scenario.model.handler);
  const limiter = new LocalModelLimiter({ maxConcurrent: 4 });
  const env = { ...process.env, ...scenario.gh.env };
  return {
    scenario,
    fake,
    limiter,
    async context(signal) {
      const loaded = await loadWorkflow(scenario.repoDir);
      if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
      return {
        workflow: loaded.value.workflow,
        gh: new GhClient({ cwd: scenario.repoDir, env }),
        dispatcher: new RunnerDispatcher({
          repoDir: scenario.repoDir,
          worktreeRoot: scenario.worktreeRoot,
          limiter,
          modelClient: createAnthropicClient({
            apiKey: "sk-test-key",
            baseURL: fake.url,
            maxRetries: 0,
          }),
          runner: { env, ghCommand: scenario.gh.ghPath },
        }),
        store: new FileIssueStateStore(path.join(scenario.repoDir, ".climpt", "orchestrator")),
        repo: scenario.repo,
        ...(signal === undefined ? {} : { signal }),
      };
    },
    async close() {
      await fake.close();
      scenario.remove();
    },
  };
}

/** Every issue ends where its script leads: phase label, open or closed, comments, path. */
export function expectScenarioOutcome(scenario: WorkflowScenario): void {
  const phaseLabels = [
    "needs-triage",
    "kind:consider",
    "kind:detail",
    "kind:impl",
    "kind:review",
    "done",
    "wontfix",
    "need clearance",
  ];
  for (const [number, expected] of Object.entries(scenario.expected)) {
    const issue = scenario.gh.issue(Number(number));
    expect({
      issue: Number(number),
      labels: issue?.labels.filter((label) => phaseLabels.includes(label)),
      state: issue?.state,
    }).toEqual({
      issue: Number(number),
      labels: [expected.label],
      state: expected.state,
    });
    expect({ issue: Number(number), comments: issue?.comments.length }).toEqual({
      issue: Number(number),
      comments: expected.comments,
    });
    // An issue that finished holds no order slot; one that stopped keeps it.
    const orders = issue?.labels.filter((label) => label.startsWith("order:")) ?? [];
    expect(orders.length).toBe(expected.state === "CLOSED" ? 0 : 1);
  }
}

/** The commits on an issue's branch, newest first. */
export function branchLog(repoDir: string, issue: number, base = "main"): string[] {
  return gitLines(repoDir, ["log", "--format=%s", "--no-merges", `${base}..climpt/issue-${issue}`]);
}

/** The scenario repository's first commit (every issue branch starts from it). */
export function initialCommit(repoDir: string): string {
  return gitLines(repoDir, ["rev-list", "--max-parents=0", "main"])[0] as string;
}

/** Subjects of the commits `main` has besides its first, merges left out: the work that landed. */
export function landedLog(repoDir: string): string[] {
  return gitLines(repoDir, [
    "log",
    "--format=%s",
    "--no-merges",
    `${initialCommit(repoDir)}..main`,
  ]);
}

function gitLines(repoDir: string, args: readonly string[]): string[] {
  return execFileSync("git", [...args], { cwd: repoDir, encoding: "utf8" })
    .trim()
    .split("\n")
    .filter((line) => line !== "");
}
