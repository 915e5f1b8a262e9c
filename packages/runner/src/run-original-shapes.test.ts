import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import {
  type FakeReply,
  installOriginalShape,
  installSimpleFakeGh,
  type OriginalShapeAgent,
  reply,
  startFakeAnthropic,
} from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunOptions } from "./run/run-options.ts";
import type { RunEvent } from "./run-event.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 6 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Runs one original-shaped agent in a fresh sample repository with a stateful fake gh. */
async function runShape(
  agent: OriginalShapeAgent,
  replies: readonly FakeReply[],
  options: RunOptions = {},
  /** Changes the installed agent folder before it is loaded. */
  prepare?: (dir: string) => void,
) {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  fake.enqueue(...replies);
  const gh = installSimpleFakeGh({
    issues: { 5: { labels: ["kind:detail"] } },
    pullRequests: { 3: { head: "feature" } },
  });
  const cwd = makeSampleRepo();
  const dir = installOriginalShape(agent, cwd);
  prepare?.(dir);
  const loaded = await loadAgentDefinition(dir);
  const events: RunEvent[] = [];
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
    onEvent: (event) => events.push(event),
    ghCommand: gh.gh,
    // Programs a step runs (the merger's) find the fake gh on PATH.
    env: { PATH: gh.path },
  }).run({ cwd, ...options });
  return { result, events, fake, gh };
}

/** Rewrites one JSON file of an installed agent folder. */
function editJson<T>(dir: string, name: string, edit: (json: T) => void): void {
  const file = path.join(dir, name);
  const json = JSON.parse(readFileSync(file, "utf8")) as T;
  edit(json);
  writeFileSync(file, JSON.stringify(json));
}

const sandboxOff = (dir: string): void =>
  editJson<{ runner: { boundaries: { sandbox?: string } } }>(dir, "agent.json", (json) => {
    json.runner.boundaries.sandbox = "off";
  });

describe("original-shaped agents in the runner", () => {
  it("a closure step without a gate (triager) completes through count:iteration", async () => {
    const { result, events } = await runShape("triager", [
      reply.text("Listed the open issues; none needed a label."),
    ]);
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.iterations).toBe(1);
    expect(result.finalStepId).toBe("triage");
    // A step without a schema: its final text is the output the result carries.
    expect(result.output).toBe("Listed the open issues; none needed a label.");
    expect(result.state.history.map((entry) => `${entry.stepId} → ${entry.transition}`)).toEqual([
      "triage → closing",
    ]);
    const prompt = events.find((event) => event.type === "prompt_resolved");
    // The frontmatter is stripped and the parameters' defaults fill the variables.
    expect(prompt?.type === "prompt_resolved" && prompt.text).toContain(
      "carry a label named in .agent/workflow.json",
    );
  });

  it("sends the label-only closure variant (detailer) and reports the closure's verdict", async () => {
    const { result, events, gh } = await runShape(
      "detailer",
      [
        reply.json({
          stepId: "detail",
          summary: "Wrote the spec as a comment draft.",
          next_action: { action: "closing" },
          verdict: "detailed",
          closure_action: "label-only",
        }),
      ],
      { args: { issue: 5 } },
    );
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.verdict).toBe("detailed");
    // The closure step's output travels in the result (no caller re-reads the journal for it),
    // the same as the journal's last step_end holds.
    expect(result.output).toMatchObject({ verdict: "detailed", closure_action: "label-only" });
    expect(result.output).toEqual(events.findLast((event) => event.type === "step_end")?.output);
    const prompt = events.find((event) => event.type === "prompt_resolved");
    expect(prompt?.type === "prompt_resolved" && prompt.promptFile).toMatch(
      /f_default_label-only\.md$/,
    );
    // count:iteration is not poll:state: the original's hook leaves GitHub alone.
    // Only the run's question for its repository, before the first step: nothing changed.
    expect(gh.calls()).toEqual([["repo", "view", "--json", "nameWithOwner"]]);
    expect(gh.issue(5)).toMatchObject({ state: "OPEN", labels: ["kind:detail"] });
  });

  it("runs a program closure step (merger) in the sandbox: its gh pr merge of the run's PR is recorded, and the boundary hook merges it", async () => {
    const verdictPath = verdictFile("approved");
    const { result, events, fake, gh } = await runShape("merger", [], {
      args: { prNumber: 3, verdictPath },
    });
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(fake.messageRequests()).toHaveLength(0);
    // The program's `gh pr merge 3 --squash` reached the broker, which recorded it for the hook
    // (a merge is a boundary action) and answered "Recorded"; the program then exited 0.
    const program = events.find((event) => event.type === "program");
    expect(program?.type === "program" && program.exitCode).toBe(0);
    expect(program?.type === "program" && program.stdout).toContain('"merged":true');
    // The hook performed it once, after validated completion, on the run's own pull request.
    const hook = events.find((event) => event.type === "boundary_hook");
    expect(hook?.type === "boundary_hook" && hook.ok).toBe(true);
    expect(hook?.type === "boundary_hook" && hook.actions).toMatchObject([
      {
        kind: "merge",
        // Pinned to the run's repository (fixed before its first step), as gh would resolve it.
        command: ["gh", "pr", "merge", "3", "--repo", "climpt-test/sample", "--squash"],
        pullRequest: "3",
        ok: true,
      },
    ]);
    expect(gh.calls().filter((argv) => argv[0] === "pr" && argv[1] === "merge")).toEqual([
      ["pr", "merge", "3", "--repo", "climpt-test/sample", "--squash"],
    ]);
    expect(gh.state().pullRequests["3"]?.state).toBe("MERGED");
  });

  it("a program closure step's merge of another pull request is refused in the sandbox and never reaches GitHub", async () => {
    const verdictPath = verdictFile("approved");
    // The run is for PR 4; its program, edited to take PR 3, asks to merge PR 3.
    const { result, gh } = await runShape(
      "merger",
      [],
      { args: { prNumber: 4, verdictPath } },
      (dir) =>
        editJson<{ steps: { merge: { runner: { args: string[] } } } }>(
          dir,
          "steps_registry.json",
          (json) => {
            json.steps.merge.runner.args[2] = "3";
          },
        ),
    );
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("RUN-PROGRAM-002");
    expect(result.error?.message).toContain("refused by climpt's GitHub broker");
    expect(result.error?.message).toContain("pull request #3 is not the run's");
    expect(gh.calls().filter((argv) => argv[1] === "merge")).toEqual([]);
    expect(gh.state().pullRequests["3"]?.state).toBe("OPEN");
  });

  it('runs a program closure step (merger) with the sandbox "off": exit 0 completes, without a model call', async () => {
    const verdictPath = verdictFile("approved");
    const { result, events, fake, gh } = await runShape(
      "merger",
      [],
      { args: { prNumber: 3, verdictPath } },
      sandboxOff,
    );
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(fake.messageRequests()).toHaveLength(0);
    expect(gh.state().pullRequests["3"]?.state).toBe("MERGED");
    const program = events.find((event) => event.type === "program");
    expect(program?.type === "program" && program.command).toEqual([
      "node",
      ".agent/merger/scripts/merge-pr.mjs",
      "--pr",
      "3",
      "--verdict",
      verdictPath,
    ]);
    expect(result.state.history.map((entry) => `${entry.stepId} → ${entry.transition}`)).toEqual([
      "merge → closing",
    ]);
  });

  it("a program that exits non-zero ends the run with RUN-PROGRAM-002 once the cap is used", async () => {
    // The run cap is the verdict's maxIterations (1), as in the original.
    const { result, gh } = await runShape("merger", [], {
      args: { prNumber: 3, verdictPath: verdictFile("rejected") },
    });
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("RUN-PROGRAM-002");
    expect(result.error?.message).toContain("exited 1");
    expect(result.error?.message).toContain('verdict is \\"rejected\\"');
    expect(gh.state().pullRequests["3"]?.state).toBe("OPEN");
  });
});

function verdictFile(verdict: string): string {
  const file = path.join(tempDirForFile("climpt-verdict-"), "verdict.json");
  writeFileSync(file, JSON.stringify({ verdict }));
  return file;
}
