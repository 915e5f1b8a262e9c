import { tmpdir } from "node:os";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { installSimpleFakeGh, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  FLAG_VALIDATION,
  intentReply,
  type TestAgentSpec,
  writeTestAgent,
} from "./agents.test-helper.ts";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunnerOptions, RunOptions } from "./run/run-options.ts";
import type { RunEvent } from "./run-event.ts";
import { fakeGhThatNeverCloses, git, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 14 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Reply = Parameters<Awaited<ReturnType<typeof startFakeAnthropic>>["enqueue"]>[number];

async function runAgent(
  spec: TestAgentSpec,
  replies: readonly Reply[],
  options: RunOptions = {},
  runnerOptions: RunnerOptions = {},
) {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  fake.enqueue(...replies);
  const events: RunEvent[] = [];
  const loaded = await loadAgentDefinition(writeTestAgent(spec));
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
    onEvent: (event) => events.push(event),
    ...runnerOptions,
  }).run({ cwd: makeSampleRepo(), ...options });
  return { result, events, fake };
}

const target = (step: string | null) => ({ target: step });

const linear: TestAgentSpec = {
  name: "linear",
  entryStep: "initial.work",
  steps: {
    "initial.work": {
      intents: ["next", "repeat", "abort"],
      transitions: { next: target("continuation.work"), repeat: target("initial.work") },
    },
    "continuation.work": {
      intents: ["next", "handoff"],
      transitions: { next: target("continuation.work"), handoff: target("closure.done") },
    },
    "closure.done": {
      intents: ["closing", "repeat"],
      transitions: { closing: target(null), repeat: target("continuation.work") },
    },
  },
};

describe("flows", () => {
  it("linear: next → handoff → closing, with aliases the schema lets through", async () => {
    const { result } = await runAgent(linear, [
      intentReply("next"),
      intentReply("next"),
      intentReply("handoff"),
      intentReply("closing"),
    ]);
    expect(result.success).toBe(true);
    expect(result.state.history.map((entry) => entry.transition)).toEqual([
      "continuation.work",
      "continuation.work",
      "closure.done",
      "closing",
    ]);
  });

  it("jump goes to the step the model names in targetField", async () => {
    const spec: TestAgentSpec = {
      name: "jumper",
      entryStep: "initial.work",
      steps: {
        "initial.work": {
          intents: ["next", "jump"],
          targetField: "next_action.target",
          transitions: { next: target("continuation.slow"), jump: target("continuation.slow") },
        },
        "continuation.slow": {
          intents: ["handoff"],
          transitions: { handoff: target("closure.done") },
        },
        "continuation.fast": {
          intents: ["handoff"],
          transitions: { handoff: target("closure.done") },
        },
        "closure.done": { intents: ["closing"], transitions: { closing: target(null) } },
      },
    };
    const { result } = await runAgent(spec, [
      {
        kind: "message",
        content: [
          {
            type: "text",
            text: JSON.stringify({ next_action: { action: "jump", target: "continuation.fast" } }),
          },
        ],
      },
      intentReply("handoff"),
      intentReply("closing"),
    ]);
    expect(result.success).toBe(true);
    expect(result.state.history.map((entry) => entry.stepId)).toEqual([
      "initial.work",
      "continuation.fast",
      "closure.done",
    ]);
  });

  it("a conditional transition follows the handoff value, and default when it matches nothing", async () => {
    const spec: TestAgentSpec = {
      name: "branching",
      entryStep: "initial.triage",
      steps: {
        "initial.triage": {
          intents: ["next"],
          handoffFields: ["triage.status"],
          transitions: {
            next: {
              condition: "status",
              targets: { ready: "continuation.build", default: "continuation.ask" },
            },
          },
        },
        "continuation.build": {
          intents: ["handoff"],
          transitions: { handoff: target("closure.done") },
        },
        "continuation.ask": {
          intents: ["handoff"],
          transitions: { handoff: target("closure.done") },
        },
        "closure.done": { intents: ["closing"], transitions: { closing: target(null) } },
      },
    };
    const ready = await runAgent(spec, [
      intentReply("next", { triage: { status: "ready" } }),
      intentReply("handoff"),
      intentReply("closing"),
    ]);
    expect(ready.result.state.history[1]?.stepId).toBe("continuation.build");
    expect(ready.result.state.handoff["initial.triage"]).toEqual({ status: "ready" });
    const blocked = await runAgent(spec, [
      intentReply("next", { triage: { status: "blocked" } }),
      intentReply("handoff"),
      intentReply("closing"),
    ]);
    expect(blocked.result.state.history[1]?.stepId).toBe("continuation.ask");
  });

  it("abort ends the run as a failure with AGENT_ABORTED, never as success", async () => {
    const { result } = await runAgent(linear, [intentReply("abort")]);
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("AGENT_ABORTED");
    expect(result.state.history.at(-1)).toMatchObject({
      stepId: "initial.work",
      intent: "abort",
      transition: "abort",
    });
  });

  it("the iteration cap ends a loop with AGENT_MAX_ITERATIONS", async () => {
    const { result } = await runAgent(
      linear,
      Array.from({ length: 5 }, () => intentReply("repeat")),
      {
        maxIterations: 3,
      },
    );
    expect(result.error?.code).toBe("AGENT_MAX_ITERATIONS");
    expect(result.iterations).toBe(3);
  });

  it("schema fail-fast: two steps in a row without valid output end with FAILED_SCHEMA_RESOLUTION", async () => {
    // The run-level code is the error's family; its code is the last failure's own (no JSON).
    const prose = {
      kind: "message" as const,
      content: [{ type: "text" as const, text: "I am done." }],
    };
    // Each failed step is two calls: the answer and the one repair turn.
    const { result, events, fake } = await runAgent(linear, [prose, prose, prose, prose]);
    expect(result.error).toMatchObject({ code: "AC-STEP-001", family: "FAILED_SCHEMA_RESOLUTION" });
    // Each failed attempt's step_failed event (the first only spent its iteration) is coded the
    // same way.
    const failed = events.filter((event) => event.type === "step_failed");
    const attempt = { code: "AC-STEP-001", family: "FAILED_SCHEMA_RESOLUTION" };
    expect(failed.map((event) => event.error)).toEqual([
      expect.objectContaining(attempt),
      expect.objectContaining(attempt),
    ]);
    expect(fake.messageRequests()).toHaveLength(4);
    expect(result.state.history.map((entry) => entry.transition)).toEqual([
      "schema-failure",
      "error",
    ]);
  });

  it("one schema failure aborts only that iteration: the step runs again and the flow goes on", async () => {
    const prose = {
      kind: "message" as const,
      content: [{ type: "text" as const, text: "no json" }],
    };
    const { result } = await runAgent(linear, [
      prose,
      prose,
      intentReply("next"),
      intentReply("handoff"),
      intentReply("closing"),
    ]);
    expect(result.success).toBe(true);
    expect(
      result.state.history.map((entry) => `${entry.iteration}:${entry.stepId}:${entry.transition}`),
    ).toEqual([
      "1:initial.work:schema-failure",
      "2:initial.work:continuation.work",
      "3:continuation.work:closure.done",
      "4:closure.done:closing",
    ]);
  });

  it("intent fail-fast: an output without an intent after the first iteration is FAILED_STEP_ROUTING", async () => {
    const spec: TestAgentSpec = {
      ...linear,
      steps: {
        ...linear.steps,
        "continuation.work": {
          ...linear.steps["continuation.work"],
          requireIntent: false,
        } as never,
      },
    };
    const { result } = await runAgent(spec, [
      intentReply("next"),
      {
        kind: "message",
        content: [{ type: "text", text: JSON.stringify({ status: "completed" }) }],
      },
    ]);
    expect(result.success).toBe(false);
    // The run-level code is the error's family; its code is the gate's specific one.
    expect(result.error).toMatchObject({ code: "SR-INTENT-007", family: "FAILED_STEP_ROUTING" });
  });

  it("a step that ran and failed appears in the history whichever step ran before it", async () => {
    const refusal = {
      kind: "message" as const,
      content: [{ type: "text" as const, text: "I will not do that." }],
      stopReason: "refusal" as const,
    };
    // The same failure after a different step and after the same step: one history entry each.
    const afterOther = await runAgent(linear, [intentReply("next"), refusal]);
    const afterSame = await runAgent(linear, [intentReply("repeat"), refusal]);
    for (const { result } of [afterOther, afterSame]) {
      expect(result.error?.code).toBe("AC-STEP-003");
      expect(result.iterations).toBe(2);
      expect(result.state.history.at(-1)).toMatchObject({ iteration: 2, transition: "error" });
    }
  });

  it("an exception inside the loop (a custom verdict that throws) ends as a coded, resumable result with run_end", async () => {
    const spec: TestAgentSpec = {
      ...linear,
      name: "thrower",
      runner: { verdict: { type: "meta:custom", config: { handlerPath: "prompts/verdict.mjs" } } },
      prompts: {
        "verdict.mjs": [
          "export function createVerdict() {",
          "  return {",
          "    observe() {},",
          '    async afterIteration() { throw new Error("verdict bug"); },',
          '    async decide() { return { done: true, reason: "ok" }; },',
          "    uvVariables() { return {}; },",
          "  };",
          "}",
        ].join("\n"),
      },
    };
    const { result, events } = await runAgent(spec, [intentReply("next")]);
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("AGENT_STEP_FAILED");
    expect(result.error?.message).toContain("verdict bug");
    expect(result.resumable).toBe(true);
    const journal = readJournal(result.journalPath as string);
    expect(journal.at(-1)?.type).toBe("run_end");
    expect(events.at(-1)?.type).toBe("run_end");
  });

  it("the boundary hook runs once, only after validated closing, through gh", async () => {
    // The original's hook acts on GitHub for poll:state only; the stateful fake gh shows the
    // issue closed afterwards, which is what poll:state confirms.
    const gh = installSimpleFakeGh({ issues: { 7: {} } });
    const spec: TestAgentSpec = {
      ...linear,
      name: "closer",
      parameters: { issue: { type: "number", required: true } },
      runner: {
        verdict: { type: "poll:state", config: {} },
        integrations: { github: { enabled: true, defaultClosureAction: "close" } },
      },
      ...FLAG_VALIDATION,
    };
    const { result, events } = await runAgent(
      spec,
      [
        intentReply("next"),
        intentReply("handoff"),
        intentReply("closing"),
        {
          kind: "message",
          content: [
            { type: "tool_use", id: "toolu_t1", name: "Bash", input: { command: "touch ok.flag" } },
          ],
        },
        intentReply("handoff"),
        intentReply("closing"),
      ],
      { args: { issue: 7 } },
      { ghCommand: gh.gh },
    );
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    const changes = gh.calls().filter(([, action]) => action !== "view");
    // In the run's repository (the fake's, asked before the first step), whatever gh would pick;
    // the close carries the completion ledger, then the verified commit's status is set.
    const [close, status, ...more] = changes;
    expect(close?.slice(0, 6)).toEqual([
      "issue",
      "close",
      "7",
      "--repo",
      "climpt-test/sample",
      "--comment",
    ]);
    const evidence = close?.[6] ?? "";
    expect(evidence).toContain("| flag |");
    expect(evidence).toContain(`Re-check: \`climpt verify ${result.runId}\``);
    expect(status?.slice(0, 4)).toEqual([
      "api",
      "--method",
      "POST",
      `repos/climpt-test/sample/statuses/${result.ledger?.at(-1)?.commit?.sha}`,
    ]);
    expect(more).toEqual([]);
    expect(gh.issue(7)).toMatchObject({ state: "CLOSED", comments: [evidence] });
    // This simple fake gh knows no statuses: a warning, never a failed run.
    expect(
      events.some(
        (event) =>
          event.type === "notice" &&
          event.message.startsWith("The commit status climpt/verified could not be set"),
      ),
    ).toBe(true);
    const order = events
      .map((event) => event.type)
      .filter((type) => type === "verdict" || type === "boundary_hook");
    expect(order).toEqual(["verdict", "verdict", "boundary_hook"]);
    expect(result.boundary?.ok).toBe(true);
  });

  it("a run that ran its boundary hook and then failed does not call itself resumable", async () => {
    // The issue never closes: `gh issue view` always reports it open.
    const gh = fakeGhThatNeverCloses();
    const spec: TestAgentSpec = {
      ...linear,
      name: "poller",
      parameters: { issue: { type: "number", required: true } },
      runner: {
        verdict: { type: "poll:state", config: {} },
        integrations: { github: { enabled: true, defaultClosureAction: "close" } },
      },
    };
    const { result } = await runAgent(
      spec,
      [intentReply("next"), intentReply("handoff"), intentReply("closing")],
      { args: { issue: 7 } },
      { ghCommand: gh },
    );
    expect(result.error?.code).toBe("AGENT_VERDICT_UNCONFIRMED");
    expect(result.boundary).toBeDefined();
    // Resuming would refuse (RUN-RESUME-003): the result must not invite it.
    expect(result.resumable).toBe(false);
  });

  it("worktree mode runs on its own branch, merges it back and removes the worktree after success", async () => {
    const repo = makeSampleRepo();
    const spec: TestAgentSpec = { ...linear, name: "wt" };
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(
      {
        kind: "message",
        content: [
          {
            type: "tool_use",
            id: "toolu_w1",
            name: "Bash",
            input: { command: "echo hi > note.txt && git add note.txt && git commit -qm note" },
          },
        ],
      },
      intentReply("next"),
      intentReply("handoff"),
      intentReply("closing"),
    );
    const loaded = await loadAgentDefinition(writeTestAgent(spec));
    let cwd = "";
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url }),
      onEvent: (event) => {
        if (event.type === "run_start") cwd = event.cwd;
      },
      env: {
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t.invalid",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t.invalid",
      },
    }).run({ cwd: repo, worktree: true });
    expect(result.success).toBe(true);
    expect(cwd).not.toBe(repo);
    expect(git(repo, "worktree", "list")).not.toContain(cwd);
    // The branch was merged back into main (worktree-finish.test.ts covers the options).
    const branch = `climpt/wt/${result.runId}`;
    expect(git(repo, "log", "--format=%s", "-1", "main^2")).toBe("note");
    expect(result.worktree).toMatchObject({ branch, merged: true, removed: true });
    expect(git(repo, "status", "--porcelain")).toBe("");
  });
});

describe("bad input", () => {
  it("refuses a working directory that does not exist, and creates nothing", async () => {
    const { existsSync } = await import("node:fs");
    const missing = path.join(tmpdir(), `climpt-missing-${process.pid}-${Date.now()}`);
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    await expect(
      new StepFlowRunner(loaded, {
        modelClient: { call: () => Promise.reject(new Error("not called")) },
      }).run({
        cwd: missing,
      }),
    ).rejects.toMatchObject({ code: "RUN-CWD-001" });
    expect(existsSync(missing)).toBe(false);
  });
});

describe("a budget verdict", () => {
  it("count:iteration sends the flow to closure so that the closure is the budget's last iteration", async () => {
    const spec: TestAgentSpec = {
      name: "budgeted",
      entryStep: "initial.work",
      runner: { verdict: { type: "count:iteration", config: { maxIterations: 3 } } },
      steps: {
        "initial.work": {
          intents: ["next", "repeat"],
          transitions: { next: target("initial.work"), repeat: target("initial.work") },
        },
        "closure.done": {
          intents: ["closing", "repeat"],
          transitions: { closing: target(null), repeat: target("initial.work") },
        },
      },
      ...FLAG_VALIDATION,
    };
    const { result, events } = await runAgent(spec, [
      {
        kind: "message",
        content: [
          { type: "tool_use", id: "toolu_b1", name: "Bash", input: { command: "touch ok.flag" } },
        ],
      },
      intentReply("repeat"),
      intentReply("repeat"),
      intentReply("closing"),
    ]);
    expect(result.error).toBeUndefined();
    expect(result.iterations).toBe(3);
    expect(result.state.history.map((entry) => `${entry.stepId}->${entry.transition}`)).toEqual([
      "initial.work->initial.work",
      "initial.work->closure.done",
      "closure.done->closing",
    ]);
    // remaining is the iterations left after the one the prompt is for, in every template.
    const closurePrompt = events.find(
      (event) => event.type === "prompt_resolved" && event.stepId === "closure.done",
    );
    expect(closurePrompt?.type === "prompt_resolved" && closurePrompt.iteration).toBe(3);
  });
});
