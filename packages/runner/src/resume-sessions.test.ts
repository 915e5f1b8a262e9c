import { appendFileSync, cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { loadFakeScript, startFakeAnthropic, waitFor } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  FLAG_VALIDATION,
  intentReply,
  type TestAgentSpec,
  writeTestAgent,
} from "./agents.test-helper.ts";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunEvent } from "./run-event.ts";
import type { RunResult } from "./run-result.ts";
import { EXAMPLES, fakeModel, git, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 41 s at load 13–25.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

// Resume across several sessions of one run: each test stops a run in a way a user can
// (a signal, a failure, a crash that tears the journal's last line) and checks that the next
// `--resume` neither repeats completed work nor serves replies that do not belong to it.

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Fake = Awaited<ReturnType<typeof startFakeAnthropic>>;

async function newFake(): Promise<Fake> {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  return fake;
}

function runnerFor(
  loaded: Awaited<ReturnType<typeof loadAgentDefinition>>,
  fake: Fake,
  onEvent?: (event: RunEvent) => void,
): StepFlowRunner {
  return new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}

const target = (step: string | null) => ({ target: step });

const linear: TestAgentSpec = {
  name: "linear",
  entryStep: "initial.work",
  steps: {
    "initial.work": {
      intents: ["next", "abort"],
      transitions: { next: target("continuation.work") },
    },
    "continuation.work": {
      intents: ["handoff"],
      transitions: { handoff: target("closure.done") },
    },
    "closure.done": {
      intents: ["closing"],
      transitions: { closing: target(null) },
    },
  },
};

const bash = (id: string, command: string) => ({
  kind: "message" as const,
  content: [{ type: "tool_use" as const, id, name: "Bash", input: { command } }],
});

function tokens(result: RunResult) {
  return {
    input:
      result.usage.inputTokens +
      result.usage.cacheReadInputTokens +
      result.usage.cacheCreationInputTokens,
    output: result.usage.outputTokens,
  };
}

/** The tokens of the model replies the journal events record, each call (iteration, phase, number) once. */
function responseTokens(events: readonly RunEvent[]) {
  const calls = new Map<string, { input: number; output: number }>();
  for (const event of events) {
    if (event.type !== "model_response") continue;
    calls.set(`${event.iteration} ${event.phase} ${event.call}`, {
      input:
        event.usage.inputTokens +
        event.usage.cacheReadInputTokens +
        event.usage.cacheCreationInputTokens,
      output: event.usage.outputTokens,
    });
  }
  let input = 0;
  let output = 0;
  for (const call of calls.values()) {
    input += call.input;
    output += call.output;
  }
  return { input, output };
}

describe("resume across sessions", () => {
  it("interrupted twice in the same step, the second resume serves each recorded reply once, in order", async () => {
    const agent = path.join(EXAMPLES, "agents", "fix-bug");
    const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", "fix-bug.json"));
    const reference = await (async () => {
      const { client, fake } = await fakeModel("fix-bug");
      closers.push(() => fake.close());
      return new StepFlowRunner(await loadAgentDefinition(agent), { modelClient: client }).run({
        args: { issue: 1 },
        cwd: makeSampleRepo(),
      });
    })();
    expect(reference.success).toBe(true);

    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(agent);
    const fake = await newFake();
    const runner = runnerFor(loaded, fake);

    // Session 1: the implement step's first call (4) answers, its second (5) hangs.
    fake.enqueue(...script.replies.slice(0, 4), { kind: "hang" });
    let controller = new AbortController();
    let running = runner.run({ args: { issue: 1 }, cwd: repo, signal: controller.signal });
    await waitFor(() => fake.messageRequests().length === 5, { what: "call 5" });
    controller.abort();
    const first = await running;
    expect(first.error?.code).toBe("AGENT_INTERRUPTED");

    // Session 2: call 4 comes from the journal, call 5 answers live, call 6 hangs.
    fake.reset();
    fake.enqueue(script.replies[4] as never, { kind: "hang" });
    controller = new AbortController();
    running = runner.run({ resume: first.runId, cwd: repo, signal: controller.signal });
    await waitFor(() => fake.messageRequests().length === 2, { what: "call 6" });
    controller.abort();
    expect((await running).error?.code).toBe("AGENT_INTERRUPTED");

    // Session 3: calls 4 and 5 come from the journal, once each; 6..14 are live.
    fake.reset();
    fake.enqueue(...script.replies.slice(5));
    const resumed = await runner.run({ resume: first.runId, cwd: repo });
    expect(resumed.error).toBeUndefined();
    expect(fake.messageRequests()).toHaveLength(script.replies.length - 5);
    expect(resumed.state.history).toEqual(reference.state.history);
    expect(tokens(resumed)).toEqual(tokens(reference));
    const resumes = readJournal(resumed.journalPath as string).filter(
      (event) => event.type === "run_resume",
    );
    expect(resumes.map((event) => event.type === "run_resume" && event.replayedModelCalls)).toEqual(
      [1, 2],
    );
  });

  it.each([
    ["unique tool_use ids", false],
    ["a tool_use id the check call reuses from the step call", true],
  ])(
    "check dialect, %s: interrupted in the check call, resume serves the step call and the check's tool call from the journal",
    async (_name, reuseId) => {
      const agent = path.join(EXAMPLES, "agents", "code-improver");
      const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", "code-improver.json"));
      // A scripted or recorded model may repeat ids that the real API never would.
      const replies = reuseId
        ? (JSON.parse(
            JSON.stringify(script.replies).replaceAll("toolu_ci_03", "toolu_ci_02"),
          ) as typeof script.replies)
        : script.replies;
      const args = { topic: "slugify output" };
      const reference = await (async () => {
        const fake = await newFake();
        fake.enqueue(...replies);
        return runnerFor(await loadAgentDefinition(agent), fake).run({
          args,
          cwd: makeSampleRepo(),
        });
      })();
      expect(reference.success).toBe(true);

      const repo = makeSampleRepo();
      const fake = await newFake();
      const toolResults = (events: RunEvent[]) =>
        events.flatMap((event) =>
          event.type === "tool_result" && event.iteration === 2 ? [event.result] : [],
        );
      const firstEvents: RunEvent[] = [];
      const loaded = await loadAgentDefinition(agent);
      // Calls 4-5 are s_b2c1's step phase, 6 its check's Bash; the check's verdict (7) hangs.
      fake.enqueue(...replies.slice(0, 6), { kind: "hang" });
      const controller = new AbortController();
      const running = runnerFor(loaded, fake, (event) => firstEvents.push(event)).run({
        args,
        cwd: repo,
        signal: controller.signal,
      });
      await waitFor(() => fake.messageRequests().length === 7, { what: "call 7" });
      controller.abort();
      const stopped = await running;
      expect(stopped.error?.code).toBe("AGENT_INTERRUPTED");

      fake.reset();
      fake.enqueue(...replies.slice(6));
      const resumedEvents: RunEvent[] = [];
      const resumed = await runnerFor(loaded, fake, (event) => resumedEvents.push(event)).run({
        resume: stopped.runId,
        cwd: repo,
      });
      expect(resumed.error).toBeUndefined();
      expect(fake.messageRequests()).toHaveLength(replies.length - 6);
      expect(resumed.state.history).toEqual(reference.state.history);
      // Every completed call is counted once: the first session's and the resumed one's. (Not
      // compared with the reference run's totals: a Bash result's text may differ between two
      // runs on a loaded machine, and the fake counts tokens from the request's bytes.)
      expect(tokens(resumed)).toEqual(responseTokens([...firstEvents, ...resumedEvents]));
      expect(tokens(resumed).output).toBe(tokens(reference).output);
      // The Edit's and the check's Bash results, each served to its own call.
      expect(toolResults(firstEvents)).toHaveLength(2);
      expect(toolResults(resumedEvents).slice(0, 2)).toEqual(toolResults(firstEvents));
    },
  );

  it("count:check keeps its count across a resume (check_count in the prompt)", async () => {
    // code-improver with a check budget its script uses up (five status checks, the last one
    // the closure's), whose count its analyze prompt shows.
    const agent = path.join(tempDirForFile("climpt-agent-"), "code-improver");
    cpSync(path.join(EXAMPLES, "agents", "code-improver"), agent, { recursive: true });
    const agentJson = JSON.parse(readFileSync(path.join(agent, "agent.json"), "utf8"));
    agentJson.behavior.completionType = "checkBudget";
    agentJson.behavior.completionConfig = { maxChecks: 5 };
    writeFileSync(path.join(agent, "agent.json"), JSON.stringify(agentJson));
    const analyze = path.join(agent, "prompts/steps/phase/analyze/f_default.md");
    writeFileSync(analyze, `Checks so far: {uv-check_count}.\n${readFileSync(analyze, "utf8")}`);
    const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", "code-improver.json"));
    const loaded = await loadAgentDefinition(agent);
    const promptOf = (events: RunEvent[]) =>
      events.find(
        (event) =>
          event.type === "prompt_resolved" && event.iteration === 3 && event.phase === "step",
      );

    const repo = makeSampleRepo();
    const fake = await newFake();
    const firstEvents: RunEvent[] = [];
    // Two checks ran (s_a8f3 OK, s_b2c1 NG); the fallback's second s_a8f3 (call 8) hangs.
    fake.enqueue(...script.replies.slice(0, 7), { kind: "hang" });
    const controller = new AbortController();
    const running = runnerFor(loaded, fake, (event) => firstEvents.push(event)).run({
      args: { topic: "slugify output" },
      cwd: repo,
      signal: controller.signal,
    });
    await waitFor(() => fake.messageRequests().length === 8, { what: "call 8" });
    controller.abort();
    const stopped = await running;
    expect(stopped.error?.code).toBe("AGENT_INTERRUPTED");
    const before = promptOf(firstEvents);
    expect(before?.type === "prompt_resolved" && before.text).toContain("Checks so far: 2.");

    fake.reset();
    fake.enqueue(...script.replies.slice(7));
    const resumedEvents: RunEvent[] = [];
    const resumed = await runnerFor(loaded, fake, (event) => resumedEvents.push(event)).run({
      resume: stopped.runId,
      cwd: repo,
    });
    expect(resumed.error).toBeUndefined();
    const after = promptOf(resumedEvents);
    expect(after?.type === "prompt_resolved" && after.text).toContain("Checks so far: 2.");
  });

  it("a run that failed on what the model said and was then interrupted resumes from the interrupted attempt, not the failed one", async () => {
    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    const runner = runnerFor(loaded, fake);

    // Session 1: the model aborts.
    fake.enqueue(intentReply("abort"));
    const failed = await runner.run({ cwd: repo });
    expect(failed.error?.code).toBe("AGENT_ABORTED");

    // Session 2: the step runs again live; its tool runs, then the next call hangs.
    fake.reset();
    fake.enqueue(bash("toolu_count", "echo once >> count.txt"), { kind: "hang" });
    const controller = new AbortController();
    const running = runner.run({ resume: failed.runId, cwd: repo, signal: controller.signal });
    await waitFor(() => fake.messageRequests().length === 2, { what: "the hanging call" });
    controller.abort();
    expect((await running).error?.code).toBe("AGENT_INTERRUPTED");

    // Session 3: the tool call is served from session 2, the abort reply of session 1 is not.
    fake.reset();
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const resumed = await runner.run({ resume: failed.runId, cwd: repo });
    expect(resumed.error).toBeUndefined();
    expect(resumed.success).toBe(true);
    expect(fake.messageRequests()).toHaveLength(3);
    expect(readFileSync(path.join(repo, "count.txt"), "utf8")).toBe("once\n");
  });

  it("usage stays summed over every call made, including the attempt that failed before the resume", async () => {
    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    const runner = runnerFor(loaded, fake);
    fake.enqueue(intentReply("abort"));
    const failed = await runner.run({ cwd: repo });
    expect(failed.error?.code).toBe("AGENT_ABORTED");
    expect(failed.usage.outputTokens).toBeGreaterThan(0);

    fake.reset();
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const resumed = await runner.run({ resume: failed.runId, cwd: repo });
    expect(resumed.success).toBe(true);
    let output = 0;
    let input = 0;
    for (const event of readJournal(resumed.journalPath as string)) {
      if (event.type !== "model_response") continue;
      output += event.usage.outputTokens;
      input += event.usage.inputTokens;
    }
    expect(resumed.usage.outputTokens).toBe(output);
    expect(resumed.usage.inputTokens).toBe(input);
  });

  it("a tool call in flight at the stop is not run again on resume: the model is told its effect is unknown", async () => {
    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    const controller = new AbortController();
    const counter = path.join(repo, "counter");
    const runner = runnerFor(loaded, fake);
    // A side effect (a line, a commit), then a wait that only the stop can end: the call is in
    // flight, its effect already happened, when the run stops.
    fake.enqueue(
      bash(
        "toolu_slow",
        "echo run >> counter && git add counter && git commit -qm counted && touch committed && until [ -f go ]; do sleep 0.05; done",
      ),
    );
    const running = runner.run({ cwd: repo, signal: controller.signal });
    await waitFor(() => existsSync(path.join(repo, "committed")), {
      what: "the command's side effects",
    });
    controller.abort();
    const stopped = await running;
    expect(stopped.error?.code).toBe("AGENT_INTERRUPTED");
    expect(stopped.resumable).toBe(true);

    writeFileSync(path.join(repo, "go"), "");
    fake.reset();
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const resumed = await runner.run({ resume: stopped.runId, cwd: repo });
    expect(resumed.success).toBe(true);
    // Not run twice: one line, one commit.
    expect(readFileSync(counter, "utf8")).toBe("run\n");
    expect(
      git(repo, "log", "--format=%s")
        .split("\n")
        .filter((s) => s === "counted"),
    ).toHaveLength(1);
    // The model was told the call's effect is unknown, not given the abort notice.
    const sent = JSON.stringify(fake.messageRequests()[0]?.body);
    expect(sent).toContain("RUN-RESUME-004");
    expect(sent).toContain("its effect is unknown");
  });

  it("a signal during validation is AGENT_INTERRUPTED, and resume validates the closure reply from the journal", async () => {
    const repo = makeSampleRepo();
    const spec: TestAgentSpec = {
      ...linear,
      name: "validated",
      ...FLAG_VALIDATION,
    };
    const loaded = await loadAgentDefinition(writeTestAgent(spec));
    const fake = await newFake();
    const controller = new AbortController();
    const runner = runnerFor(loaded, fake, (event) => {
      if (event.type === "route" && event.decision === "closing") controller.abort();
    });
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const stopped = await runner.run({ cwd: repo, signal: controller.signal });
    expect(stopped.error?.code).toBe("AGENT_INTERRUPTED");
    expect(stopped.resumable).toBe(true);
    expect(stopped.state.history.map((entry) => entry.stepId)).toEqual([
      "initial.work",
      "continuation.work",
    ]);

    writeFileSync(path.join(repo, "ok.flag"), "");
    fake.reset();
    const resumed = await runner.run({ resume: stopped.runId, cwd: repo });
    expect(resumed.error).toBeUndefined();
    expect(resumed.success).toBe(true);
    // The closing reply was served from the journal: no model call was repeated.
    expect(fake.messageRequests()).toHaveLength(0);
  });

  it("a journal whose last line a crash cut off can be resumed, and resumed again", async () => {
    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    const runner = runnerFor(loaded, fake);
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const stopped = await runner.run({ cwd: repo, budgets: { maxTokens: 1 } });
    expect(stopped.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
    const journal = stopped.journalPath as string;
    // What a kill -9 in the middle of a write leaves behind.
    appendFileSync(journal, '{"type":"notice","level":"info","mess');

    const again = await runner.run({ resume: stopped.runId, cwd: repo, budgets: { maxTokens: 1 } });
    expect(again.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
    expect(() => readJournal(journal)).not.toThrow();
    expect(readJournal(journal).at(-1)?.type).toBe("run_end");

    const done = await runner.run({ resume: stopped.runId, cwd: repo });
    expect(done.success).toBe(true);
  });
});

describe("a crash while the boundary hook runs", () => {
  it("cannot happen where the hook has nothing to do: the run stays resumable", async () => {
    const repo = makeSampleRepo();
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const fake = await newFake();
    const runner = runnerFor(loaded, fake);
    fake.enqueue(intentReply("next"), intentReply("handoff"), intentReply("closing"));
    const done = await runner.run({ cwd: repo });
    expect(done.success).toBe(true);
    const journal = done.journalPath as string;
    const events = readJournal(journal);
    // No command hook and no GitHub action: nothing that could act twice, so no start marker.
    expect(events.some((event) => event.type === "boundary_hook_start")).toBe(false);
    // Killed after the last step end, before the run's end was journaled.
    const lines = readFileSync(journal, "utf8").trimEnd().split("\n");
    const end = lines.findIndex((line) => line.includes('"type":"run_end"'));
    writeFileSync(journal, `${lines.slice(0, end).join("\n")}\n`);
    const requests = fake.messageRequests().length;

    const resumed = await runner.run({ resume: done.runId, cwd: repo });
    expect(resumed.success).toBe(true);
    expect(fake.messageRequests()).toHaveLength(requests);
  });

  it("leaves a journal that resume refuses, so the hook never acts twice", async () => {
    const repo = makeSampleRepo();
    const { client, fake } = await fakeModel("fix-bug");
    try {
      // fix-bug with a command hook: the hook has something to do, so its start is journaled.
      const parent = tempDirForFile("climpt-hooked-");
      const dir = path.join(parent, "fix-bug");
      cpSync(path.join(EXAMPLES, "agents", "fix-bug"), dir, { recursive: true });
      const manifest = JSON.parse(readFileSync(path.join(dir, "agent.json"), "utf8"));
      manifest.runner.boundaries.boundaryHook = { command: "echo hook >> hook-ran.log" };
      writeFileSync(path.join(dir, "agent.json"), JSON.stringify(manifest));
      const loaded = await loadAgentDefinition(dir);
      const runner = new StepFlowRunner(loaded, { modelClient: client });
      const done = await runner.run({ args: { issue: 1 }, cwd: repo });
      expect(done.success).toBe(true);
      expect(readFileSync(path.join(repo, "hook-ran.log"), "utf8")).toBe("hook\n");
      // Cut the journal right after boundary_hook_start, as a crash during the hook's commands would.
      const file = done.journalPath as string;
      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      const start = lines.findIndex((line) => line.includes('"type":"boundary_hook_start"'));
      expect(start).toBeGreaterThan(0);
      writeFileSync(file, `${lines.slice(0, start + 1).join("\n")}\n`);
      await expect(runner.run({ resume: done.runId, cwd: repo })).rejects.toMatchObject({
        code: "RUN-RESUME-003",
        message: expect.stringContaining("while its boundary hook was running"),
      });
    } finally {
      await fake.close();
    }
  });
});
