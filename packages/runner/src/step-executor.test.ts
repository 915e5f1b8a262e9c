// The StepExecutor seam: an executor other than the Messages API path runs each step phase, and
// everything around it (prompts, journal, usage, budgets, gate, router, validation, resume)
// stays the runner's. The executor here is a scripted one of our own; the validator is a real
// command, and the tool call goes through the real toolbox.
import { existsSync } from "node:fs";
import path from "node:path";
import { type JsonValue, problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { FLAG_VALIDATION, type TestAgentSpec, writeTestAgent } from "./agents.test-helper.ts";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunOptions } from "./run/run-options.ts";
import type { RunEvent } from "./run-event.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import type { StepExecutionRequest, StepExecutionResult, StepExecutor } from "./step-executor.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

const target = (step: string | null) => ({ target: step });

const linear: TestAgentSpec = {
  name: "executed",
  entryStep: "initial.work",
  steps: {
    "initial.work": { intents: ["next"], transitions: { next: target("continuation.work") } },
    "continuation.work": {
      intents: ["handoff"],
      transitions: { handoff: target("closure.done") },
    },
    "closure.done": {
      intents: ["closing", "repeat"],
      transitions: { closing: target(null), repeat: target("continuation.work") },
    },
  },
  ...FLAG_VALIDATION,
};

type Turn = (request: StepExecutionRequest) => Promise<StepExecutionResult>;

/** Answers `action` after reporting one model call of `tokens` input and output tokens. */
function answer(action: string, tokens = 10): Turn {
  return async (request) => {
    const text = JSON.stringify({ next_action: { action, reason: "scripted" } });
    request.observer.modelRequest({ call: 1, model: request.model, repair: false });
    request.observer.modelResponse({
      call: 1,
      replayed: false,
      durationMs: 1,
      reply: {
        content: [{ type: "text", text }],
        usage: {
          inputTokens: tokens,
          outputTokens: tokens,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 0,
        },
        costUsd: 0,
        stopReason: "end_turn",
        model: request.model,
        requestId: null,
      },
    });
    return { ok: true, output: JSON.parse(text) as JsonValue, text };
  };
}

/** A scripted executor; records each request it was given. */
function scripted(turns: Turn[]): StepExecutor & { requests: StepExecutionRequest[] } {
  const requests: StepExecutionRequest[] = [];
  return {
    requests,
    async execute(request) {
      requests.push(request);
      const turn = turns.shift();
      if (turn === undefined) throw new Error("the script ran out");
      return turn(request);
    },
  };
}

async function run(spec: TestAgentSpec, executor: StepExecutor, options: RunOptions = {}) {
  const events: RunEvent[] = [];
  const loaded = await loadAgentDefinition(writeTestAgent(spec));
  const cwd = makeSampleRepo();
  const result = await new StepFlowRunner(loaded, {
    stepExecutor: executor,
    modelClient: { call: () => Promise.reject(new Error("the default executor must not run")) },
    onEvent: (event) => events.push(event),
  }).run({ cwd, ...options });
  return { result, events, cwd };
}

describe("a StepExecutor other than the Messages API", () => {
  it("drives the run; the runner keeps prompts, usage, validation and the retry prompt", async () => {
    const executor = scripted([
      answer("next"),
      answer("handoff"),
      answer("closing"), // validation fails: no ok.flag
      async (request) => {
        // The retry prompt of the failure pattern reaches the executor; it acts through the
        // step's real toolbox and reports the tool call like any executor must.
        const call = { id: "t1", name: "Bash", input: { command: "touch ok.flag" } };
        request.observer.toolCall(call);
        const result = await request.tools.execute(call, request.signal);
        request.observer.toolResult({ call, result, durationMs: 1, replayed: false });
        return answer("handoff")(request);
      },
      answer("closing"),
    ]);
    const { result, events, cwd } = await run(linear, executor);
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(existsSync(path.join(cwd, "ok.flag"))).toBe(true);
    expect(result.state.history.map((entry) => `${entry.stepId}->${entry.transition}`)).toEqual([
      "initial.work->continuation.work",
      "continuation.work->closure.done",
      "closure.done->validation-retry:continuation.work",
      "continuation.work->closure.done",
      "closure.done->closing",
    ]);
    expect(executor.requests[3]?.prompt).toContain("Create ok.flag with `touch ok.flag`.");
    // Five reported calls of 10 + 10 tokens: the runner's totals, journaled with each reply.
    expect(result.usage.inputTokens + result.usage.outputTokens).toBe(100);
    const journal = readJournal(result.journalPath as string);
    const responses = journal.filter((event) => event.type === "model_response");
    expect(responses).toHaveLength(5);
    expect(responses.at(-1)?.type === "model_response" && responses.at(-1)).toMatchObject({
      totals: { inputTokens: 50, outputTokens: 50 },
    });
    expect(events.some((event) => event.type === "tool_result" && !event.result.isError)).toBe(
      true,
    );
  });

  it("a schema failure it reports spends the iteration, and the step runs again", async () => {
    const executor = scripted([
      async () => ({
        ok: false,
        reason: "schema",
        error: problem("FAILED_SCHEMA_RESOLUTION", "no JSON came back"),
      }),
      answer("next"),
      answer("handoff"),
      async (request) => {
        const call = { id: "t1", name: "Bash", input: { command: "touch ok.flag" } };
        await request.tools.execute(call, request.signal);
        return answer("closing")(request);
      },
    ]);
    const { result } = await run(linear, executor);
    expect(result.success).toBe(true);
    expect(result.state.history.map((entry) => `${entry.iteration}:${entry.transition}`)).toEqual([
      "1:schema-failure",
      "2:continuation.work",
      "3:closure.done",
      "4:closing",
    ]);
  });

  it("the usage it reports counts against the run's token budget", async () => {
    const executor = scripted([answer("next", 600), answer("handoff")]);
    const { result } = await run(linear, executor, { budgets: { maxTokens: 1000 } });
    expect(result.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
    expect(result.resumable).toBe(true);
    expect(executor.requests).toHaveLength(1);
  });

  it("on resume it is given what the journal recorded of the interrupted step", async () => {
    // The first session's executor reports one reply, then the API fails (a resumable code).
    const first = scripted([
      answer("next"),
      async (request) => {
        await answer("handoff", 7)(request);
        return {
          ok: false,
          reason: "failed",
          error: problem("AC-MODEL-005", "overloaded"),
        };
      },
    ]);
    const { result, cwd } = await run(linear, first);
    expect(result.error?.code).toBe("AC-MODEL-005");
    expect(result.resumable).toBe(true);

    const second = scripted([
      async (request) => {
        // The recorded reply is offered for replay; this executor serves it as the answer.
        const reply = request.replay?.replies[0];
        expect(reply?.usage.inputTokens).toBe(7);
        const text = reply?.content[0]?.type === "text" ? reply.content[0].text : "";
        request.observer.modelResponse({
          call: 1,
          reply: reply as NonNullable<typeof reply>,
          durationMs: 0,
          replayed: true,
        });
        return { ok: true, output: JSON.parse(text) as JsonValue, text };
      },
      async (request) => {
        await request.tools.execute(
          { id: "t1", name: "Bash", input: { command: "touch ok.flag" } },
          request.signal,
        );
        return answer("closing")(request);
      },
    ]);
    const loaded = await loadAgentDefinition(writeTestAgent(linear));
    const resumed = await new StepFlowRunner(loaded, { stepExecutor: second }).run({
      cwd,
      resume: result.runId,
    });
    expect(resumed.error).toBeUndefined();
    expect(resumed.success).toBe(true);
    expect(second.requests[0]?.replay?.replies).toHaveLength(1);
    // The replayed reply was paid for in the first session: counted once.
    expect(resumed.usage.inputTokens).toBe(10 + 7 + 10);
  });
});
