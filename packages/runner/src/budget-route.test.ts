import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import type { JsonValue } from "@climpt/model";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { installSimpleFakeGh, startFakeAnthropic, waitFor } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type TestAgentSpec, writeTestAgent } from "./agents.test-helper.ts";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunOptions } from "./run/run-options.ts";
import type { RunEvent } from "./run-event.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): each test drives a run with Bash in the sandbox, one
// a child process killed mid-step; 4–8 s each at load 4.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const CHILD = path.join(import.meta.dirname, "fixtures", "run-in-child.mjs");

/**
 * Every model call of these runs costs the same: 1,000 input tokens and nothing else, $0.004 at
 * the default model's $4 per million (claude-opus-5-5), so the cost after the n-th call is
 * n × $0.004. A --max-cost of $0.011 is reached by the third step's call.
 */
const CALL_USAGE = {
  input_tokens: 1000,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};
const MAX_COST = 0.011;

function intent(action: string, extra: Readonly<Record<string, JsonValue>> = {}) {
  return {
    kind: "message" as const,
    usage: CALL_USAGE,
    content: [
      { type: "text" as const, text: JSON.stringify({ next_action: { action }, ...extra }) },
    ],
  };
}

function bash(command: string) {
  return {
    kind: "message" as const,
    usage: CALL_USAGE,
    content: [{ type: "tool_use" as const, name: "Bash", input: { command } }],
  };
}

const target = (step: string | null) => ({ target: step });

/**
 * Three work steps, then closure.done; closure.budget is where a spent budget sends the run: it
 * comments what was found on the run's issue and labels it for a person, with gh (the sandbox's
 * broker runs the fake gh), then closes.
 */
function agentSpec(overrides: Partial<TestAgentSpec> = {}): TestAgentSpec {
  return {
    name: "budgeted",
    entryStep: "initial.one",
    parameters: { issue: { type: "number", required: true } },
    steps: {
      "initial.one": { intents: ["next"], transitions: { next: target("continuation.two") } },
      "continuation.two": {
        intents: ["next"],
        transitions: { next: target("continuation.three") },
      },
      "continuation.three": {
        intents: ["next", "handoff"],
        transitions: { next: target("closure.done"), handoff: target("closure.done") },
      },
      "closure.done": { intents: ["closing"], transitions: { closing: target(null) } },
      "closure.budget": {
        intents: ["closing"],
        transitions: { closing: target(null) },
        prompt: "The budget is spent. Comment what you found on issue {uv-issue}, label it.",
        uvVariables: ["issue"],
      },
    },
    registry: { onBudget: "closure.budget" },
    ...overrides,
  };
}

const COMMENT = "Budget spent after three steps: found the cause in slugify, not fixed yet.";
const ON_BUDGET_REPLIES = [
  bash(`gh issue comment 5 --body "${COMMENT}" && gh issue edit 5 --add-label needs-human`),
  intent("closing"),
];

async function setup(spec: TestAgentSpec) {
  const gh = installSimpleFakeGh({ issues: { 5: {} } });
  closers.push(() => rmSync(gh.bin, { recursive: true, force: true }));
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  const agentDir = writeTestAgent(spec);
  const loaded = await loadAgentDefinition(agentDir);
  const events: RunEvent[] = [];
  const runner = new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
    ghCommand: gh.gh,
    onEvent: (event) => events.push(event),
  });
  const run = (options: RunOptions) => runner.run(options);
  return { gh, fake, agentDir, events, run };
}

const stepsRun = (history: readonly { stepId: string; transition: string }[]) =>
  history.map((entry) => `${entry.stepId} → ${entry.transition}`);

describe("budgets as flow (onBudget)", () => {
  it("a run that reaches --max-cost in its third step goes to its onBudget closure, whose comment reaches the issue", async () => {
    const { gh, fake, events, run } = await setup(agentSpec());
    fake.enqueue(intent("next"), intent("next"), intent("next"), ...ON_BUDGET_REPLIES);
    const repo = makeSampleRepo();
    const result = await run({ args: { issue: 5 }, cwd: repo, budgets: { maxCostUsd: MAX_COST } });

    expect(result.success).toBe(false);
    expect(result.error).toMatchObject({ code: "RUN-BUDGET-001", family: "AGENT_BUDGET_EXCEEDED" });
    expect(result.error?.message).toContain('onBudget step "closure.budget"');
    expect(result.budget).toMatchObject({
      limit: "maxCostUsd",
      max: MAX_COST,
      onBudget: "closure.budget",
    });
    expect(result.budget?.stepId).toBeUndefined();
    expect(result.budget?.spent).toBeCloseTo(0.012, 6);
    // closure.done never ran: the budget sent the fourth iteration to closure.budget.
    expect(stepsRun(result.state.history)).toEqual([
      "initial.one → continuation.two",
      "continuation.two → continuation.three",
      "continuation.three → closure.done",
      "closure.budget → closing",
    ]);
    expect(result.finalStepId).toBe("closure.budget");
    expect(gh.issue(5)).toMatchObject({ state: "OPEN", comments: [COMMENT] });
    expect(gh.issue(5).labels).toContain("needs-human");
    // Neither the completion chain nor the boundary hook ran for a budget ending.
    expect(events.some((e) => e.type === "verdict" || e.type === "boundary_hook")).toBe(false);
    const budget = events.find((e) => e.type === "budget");
    expect(budget).toMatchObject({ iteration: 4, stepId: "closure.done" });
    expect(fake.pending()).toBe(0);
    expect(result.resumable).toBe(true);
  });

  it("without onBudget the run fails as before, coded, and says which budget", async () => {
    const { fake, run } = await setup(agentSpec({ registry: {} }));
    fake.enqueue(intent("next"), intent("next"), intent("next"));
    const result = await run({
      args: { issue: 5 },
      cwd: makeSampleRepo(),
      budgets: { maxCostUsd: MAX_COST },
    });
    expect(result.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
    expect(result.error?.message).toContain("The cost budget is spent");
    expect(result.budget).toMatchObject({ limit: "maxCostUsd", onBudget: null });
    expect(result.state.history).toHaveLength(3);
    expect(result.resumable).toBe(true);
  });

  it("the iteration cap sends the run to onBudget as one iteration past the cap, the last step's output and handoff kept", async () => {
    const spec = agentSpec();
    const { gh, fake, events, run } = await setup({
      ...spec,
      steps: {
        ...spec.steps,
        "continuation.two": {
          intents: ["next"],
          handoffFields: ["found.cause"],
          transitions: { next: target("continuation.three") },
        },
      },
    });
    const found = { cause: "slugify keeps runs of dashes" };
    fake.enqueue(intent("next"), intent("next", { found }), ...ON_BUDGET_REPLIES);
    const result = await run({ args: { issue: 5 }, cwd: makeSampleRepo(), maxIterations: 2 });
    expect(result.error?.code).toBe("RUN-BUDGET-001");
    expect(result.budget).toMatchObject({ limit: "maxIterations", max: 2 });
    expect(stepsRun(result.state.history)).toEqual([
      "initial.one → continuation.two",
      "continuation.two → closure.budget",
      "closure.budget → closing",
    ]);
    expect(result.iterations).toBe(3);
    expect(gh.issue(5).comments).toEqual([COMMENT]);
    // The step the cap stopped is recorded with what it said, not as unanswered: its output in
    // its step_end (the journal) and its handoff in the state the onBudget step ran with.
    const stepEnds = events.filter((event) => event.type === "step_end");
    expect(stepEnds[1]).toMatchObject({
      stepId: "continuation.two",
      final: false,
      output: { next_action: { action: "next" }, found },
      handoff: { cause: found.cause },
    });
    expect(result.state.handoff["continuation.two"]).toEqual({ cause: found.cause });
    const journal = readJournal(result.journalPath as string);
    expect(journal.filter((event) => event.type === "step_end")[1]).toMatchObject({
      output: { found },
    });
  });

  it("a step's own limits are a budget: its third execution goes to onBudget", async () => {
    const spec = agentSpec();
    const { fake, run } = await setup({
      ...spec,
      steps: {
        ...spec.steps,
        "continuation.two": {
          intents: ["next", "repeat"],
          transitions: { next: target("continuation.three"), repeat: target("continuation.two") },
          extra: { limits: { maxIterations: 2 } },
        },
      },
    });
    fake.enqueue(intent("next"), intent("repeat"), intent("repeat"), ...ON_BUDGET_REPLIES);
    const result = await run({ args: { issue: 5 }, cwd: makeSampleRepo() });
    expect(result.budget).toMatchObject({
      limit: "maxIterations",
      stepId: "continuation.two",
      max: 2,
      spent: 2,
    });
    expect(stepsRun(result.state.history).at(-1)).toBe("closure.budget → closing");
    expect(result.state.history).toHaveLength(4);
  });

  it("an onBudget step that does not close ends the run there (RUN-BUDGET-002): it has one execution", async () => {
    const spec = agentSpec();
    const { fake, run } = await setup({
      ...spec,
      steps: {
        ...spec.steps,
        "closure.budget": {
          intents: ["closing", "repeat"],
          transitions: { closing: target(null), repeat: target("closure.budget") },
        },
      },
    });
    fake.enqueue(intent("next"), intent("next"), intent("next"), intent("repeat"));
    const result = await run({
      args: { issue: 5 },
      cwd: makeSampleRepo(),
      budgets: { maxCostUsd: MAX_COST },
    });
    expect(result.error).toMatchObject({ code: "RUN-BUDGET-002", family: "AGENT_BUDGET_EXCEEDED" });
    expect(result.state.history).toHaveLength(4);
    expect(fake.pending()).toBe(0);
  });

  it("after kill -9 and resume the spent amount continues from the journal: the budget is reached at the same step", async () => {
    const { gh, agentDir } = await setup(agentSpec());
    const repo = makeSampleRepo();
    // The crashing run: steps one and two answer ($0.008 spent), step three's call never does.
    const first = await startFakeAnthropic();
    closers.push(() => first.close());
    first.enqueue(intent("next"), intent("next"), { kind: "hang" });
    const child = spawn(
      process.execPath,
      [
        CHILD,
        agentDir,
        repo,
        first.url,
        JSON.stringify({ issue: 5 }),
        JSON.stringify({ budgets: { maxCostUsd: MAX_COST } }),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    closers.push(() => {
      child.kill("SIGKILL");
    });
    let stdout = "";
    let stderr = "";
    let exitedEarly: string | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("exit", (code, signal) => {
      exitedEarly = `the child exited (${signal ?? code}): ${stderr}`;
    });
    await waitFor(() => first.messageRequests().length === 3 && stdout.includes("\n"), {
      what: "step three's hanging call and the run id",
      failed: () => exitedEarly,
    });
    const runId = stdout.split("\n")[0] as string;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;

    // Resumed with the same --max-cost against a fresh server: step three, then closure.budget.
    // Had the budget restarted at $0 here, step three would leave $0.004 spent and the run
    // would go on to closure.done, which has no reply queued.
    const second = await startFakeAnthropic();
    closers.push(() => second.close());
    second.enqueue(intent("next"), ...ON_BUDGET_REPLIES);
    const events: RunEvent[] = [];
    const resumed = await new StepFlowRunner(await loadAgentDefinition(agentDir), {
      modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: second.url }),
      ghCommand: gh.gh,
      onEvent: (event) => events.push(event),
    }).run({ resume: runId, cwd: repo, budgets: { maxCostUsd: MAX_COST } });

    expect(resumed.runId).toBe(runId);
    expect(resumed.error?.code).toBe("RUN-BUDGET-001");
    expect(resumed.usage.costUsd).toBeCloseTo(0.02, 6);
    expect(resumed.budget?.spent).toBeCloseTo(0.012, 6);
    expect(events.find((e) => e.type === "budget")).toMatchObject({
      iteration: 4,
      stepId: "closure.done",
    });
    expect(stepsRun(resumed.state.history)).toEqual([
      "initial.one → continuation.two",
      "continuation.two → continuation.three",
      "continuation.three → closure.done",
      "closure.budget → closing",
    ]);
    expect(second.pending()).toBe(0);
    expect(gh.issue(5).comments).toEqual([COMMENT]);

    // Resumed again with the same budget: the onBudget step is served from the journal, so
    // nothing is asked of the model and the comment is not posted twice.
    const third = await startFakeAnthropic();
    closers.push(() => third.close());
    const again = await new StepFlowRunner(await loadAgentDefinition(agentDir), {
      modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: third.url }),
      ghCommand: gh.gh,
    }).run({ resume: runId, cwd: repo, budgets: { maxCostUsd: MAX_COST } });
    expect(again.error?.code).toBe("RUN-BUDGET-001");
    expect(third.messageRequests()).toHaveLength(0);
    expect(gh.issue(5).comments).toEqual([COMMENT]);
    const journal = readJournal(again.journalPath as string);
    expect(journal.filter((e) => e.type === "run_start")).toHaveLength(1);
  });
});
