import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicClient } from "./anthropic-client.ts";
import { ModelAuthError, StepError } from "./errors.ts";
import { type RunStepOptions, runStep, type StepEvent } from "./run-step.ts";
import { FAKE_KEY, fakeTools, INTENT_SCHEMA } from "./sdk-adapter.test-helper.ts";
import { addUsage, ZERO_USAGE } from "./types.ts";

let fake: FakeAnthropic;

function options(overrides: Partial<RunStepOptions> = {}): RunStepOptions {
  return {
    client: createAnthropicClient({ apiKey: FAKE_KEY, baseURL: fake.url, maxRetries: 2 }),
    model: "sonnet",
    system: "You are the climpt test agent.",
    prompt: "Do the work, then report your intent.",
    outputSchema: INTENT_SCHEMA,
    maxTurns: 5,
    maxTokens: 2048,
    ...overrides,
  };
}

async function stepFailure(promise: Promise<unknown>): Promise<StepError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StepError);
  return error as StepError;
}

type Body = {
  messages: { role: string; content: string | { type: string; [key: string]: unknown }[] }[];
};

function sentBody(index: number): Body {
  return fake.messageRequests()[index]?.body as Body;
}

const done = { intent: "next", summary: "finished" };

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.setHandler(undefined);
});

describe("runStep", () => {
  it("returns the structured output of a one-call step", async () => {
    fake.enqueue(reply.json(done));
    const result = await runStep(options());
    expect(result.output).toEqual(done);
    expect(result.turns).toBe(1);
    expect(result.salvaged).toEqual([]);
    expect(result.repaired).toBe(false);
    expect(result.model).toBe("claude-sonnet-5-5");
    expect(result.transcript).toEqual([
      { role: "user", content: "Do the work, then report your intent." },
      { role: "assistant", content: [{ type: "text", text: JSON.stringify(done) }] },
    ]);
  });

  it("runs the tool loop: executes each tool_use and sends tool_result turns", async () => {
    const tools = fakeTools({
      read: (input) => ({ content: `contents of ${JSON.stringify(input)}`, isError: false }),
      bash: () => ({ content: "exit 1: tests failed", isError: true }),
    });
    fake.enqueue(
      reply.toolUse(
        [
          { name: "read", input: { path: "a.ts" }, id: "toolu_a" },
          { name: "bash", input: { command: "pnpm test" }, id: "toolu_b" },
        ],
        { text: "Let me look." },
      ),
      reply.toolUse({ name: "read", input: { path: "b.ts" }, id: "toolu_c" }),
      reply.json(done),
    );
    const events: StepEvent[] = [];
    const result = await runStep(options({ tools, onEvent: (event) => events.push(event) }));
    expect(result.output).toEqual(done);
    expect(result.turns).toBe(3);
    expect(tools.calls.map((call) => call.name)).toEqual(["read", "bash", "read"]);
    expect(result.toolCalls.map((record) => [record.call.id, record.result.isError])).toEqual([
      ["toolu_a", false],
      ["toolu_b", true],
      ["toolu_c", false],
    ]);
    // The second request carries both results, in order, in one user turn.
    const second = sentBody(1);
    expect(second.messages).toHaveLength(3);
    expect(second.messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_a", content: 'contents of {"path":"a.ts"}' },
      {
        type: "tool_result",
        tool_use_id: "toolu_b",
        content: "exit 1: tests failed",
        is_error: true,
        cache_control: { type: "ephemeral" },
      },
    ]);
    // Every call offers the tools and asks for the schema.
    for (const index of [0, 1, 2]) {
      expect(fake.messageRequests()[index]?.body).toMatchObject({
        tools: [{ name: "read" }, { name: "bash" }],
        output_config: { format: { type: "json_schema" } },
      });
    }
    expect(events.map((event) => event.type)).toEqual([
      "model-request",
      "model-response",
      "tool-call",
      "tool-result",
      "tool-call",
      "tool-result",
      "model-request",
      "model-response",
      "tool-call",
      "tool-result",
      "model-request",
      "model-response",
    ]);
  });

  it("sums usage and cost over every call, and the loop reads earlier turns from the cache", async () => {
    const tools = fakeTools({ read: () => ({ content: "x".repeat(400), isError: false }) });
    fake.enqueue(
      reply.toolUse({ name: "read", input: {} }),
      reply.toolUse({ name: "read", input: {} }),
      reply.json(done),
    );
    const events: StepEvent[] = [];
    const result = await runStep(options({ tools, onEvent: (event) => events.push(event) }));
    const responses = events.filter((event) => event.type === "model-response");
    const summed = responses.reduce((sum, event) => addUsage(sum, event.usage), ZERO_USAGE);
    expect(result.usage).toEqual(summed);
    expect(result.costUsd).toBeCloseTo(
      responses.reduce((sum, event) => sum + event.costUsd, 0),
      12,
    );
    expect(result.priced).toBe(true);
    // Call 3 reads what call 2 wrote at the end of the conversation.
    expect(responses[2]?.usage.cacheReadInputTokens).toBeGreaterThan(
      responses[1]?.usage.cacheReadInputTokens ?? Number.POSITIVE_INFINITY,
    );
  });

  it("answers a call to an unknown tool, or a tool that throws, with an error result instead of failing", async () => {
    const tools = fakeTools({
      flaky: () => {
        throw new Error("disk on fire");
      },
    });
    fake.enqueue(
      reply.toolUse([
        { name: "nope", input: {}, id: "toolu_1" },
        { name: "flaky", input: {}, id: "toolu_2" },
      ]),
      reply.json(done),
    );
    const result = await runStep(options({ tools }));
    expect(result.output).toEqual(done);
    expect(result.toolCalls.map((record) => record.result)).toEqual([
      { content: 'Unknown tool "nope". Available tools: flaky.', isError: true },
      { content: 'Tool "flaky" failed: disk on fire', isError: true },
    ]);
  });

  it.each([
    ["a ```json fence", `Done.\n\`\`\`json\n${JSON.stringify(done)}\n\`\`\``, ["fence"]],
    ["JSON after prose", `I finished the work. ${JSON.stringify(done)}`, ["prose"]],
    ["an {output: …} wrapper", JSON.stringify({ output: done }), ["output-wrapper"]],
    ["stringified JSON", JSON.stringify(JSON.stringify(done)), ["stringified"]],
  ])("salvages %s without spending a repair turn", async (_name, text, kinds) => {
    fake.enqueue(reply.text(text));
    const events: StepEvent[] = [];
    const result = await runStep(options({ onEvent: (event) => events.push(event) }));
    expect(result.output).toEqual(done);
    expect(result.salvaged).toEqual(kinds);
    expect(result.turns).toBe(1);
    expect(events).toContainEqual({ type: "salvage", turn: 1, kinds });
  });

  it("gives the model one repair turn carrying the validation errors", async () => {
    fake.enqueue(reply.json({ intent: "close", summary: "all done" }), reply.json(done));
    const events: StepEvent[] = [];
    const result = await runStep(options({ onEvent: (event) => events.push(event) }));
    expect(result.output).toEqual(done);
    expect(result.repaired).toBe(true);
    expect(result.turns).toBe(2);
    const repairTurn = sentBody(1).messages.at(-1);
    expect(repairTurn?.role).toBe("user");
    expect(JSON.stringify(repairTurn?.content)).toContain(
      '$.intent: must be one of [\\"next\\",\\"repeat\\"]',
    );
    expect(events).toContainEqual({
      type: "repair",
      turn: 1,
      reason: "schema-invalid",
      errors: ['$.intent: must be one of ["next","repeat"]'],
    });
    expect(events.find((event) => event.type === "model-request" && event.repair)).toBeDefined();
  });

  it("fails with AC-STEP-002 and the errors when the repair turn is still invalid", async () => {
    fake.enqueue(reply.json({ intent: "close" }), reply.json({ intent: "closing" }));
    const error = await stepFailure(runStep(options()));
    expect(error.code).toBe("AC-STEP-002");
    expect(error.reason).toBe("schema-invalid");
    expect(error.validationErrors).toEqual(
      expect.arrayContaining(['$: missing required property "summary"']),
    );
    expect(error.message).toContain("$.intent");
    expect(error.step.calls).toBe(2);
    expect(error.step.usage.outputTokens).toBeGreaterThan(0);
    expect(error.lastOutput).toEqual({ intent: "closing" });
  });

  it("fails with AC-STEP-001 when no reply holds any JSON", async () => {
    fake.enqueue(reply.text("I am not sure."), reply.text("Still not sure."));
    const error = await stepFailure(runStep(options()));
    expect(error.code).toBe("AC-STEP-001");
    expect(error.reason).toBe("output-missing");
    expect(error.message).toContain("Still not sure.");
  });

  it("fails with AC-STEP-003 on a refusal, without a repair turn", async () => {
    fake.enqueue(reply.text("", { stopReason: "refusal" }));
    const error = await stepFailure(runStep(options()));
    expect(error.code).toBe("AC-STEP-003");
    expect(fake.messageRequests()).toHaveLength(1);
  });

  it("fails with AC-STEP-004 when the JSON was cut off at max_tokens", async () => {
    fake.enqueue(reply.text('{"intent": "next", "summ', { stopReason: "max_tokens" }));
    const error = await stepFailure(runStep(options()));
    expect(error.code).toBe("AC-STEP-004");
    expect(error.message).toContain("max_tokens (2048)");
    expect(fake.messageRequests()).toHaveLength(1);
  });

  it("fails with AC-STEP-005 when the model keeps calling tools past maxTurns", async () => {
    const tools = fakeTools({ read: () => ({ content: "more", isError: false }) });
    fake.setHandler(() => reply.toolUse({ name: "read", input: {} }));
    const error = await stepFailure(runStep(options({ tools, maxTurns: 3 })));
    expect(error.code).toBe("AC-STEP-005");
    expect(fake.messageRequests()).toHaveLength(3);
    expect(tools.calls).toHaveLength(2);
  });

  it("fails with AC-STEP-007 before any call when the schema cannot compile", async () => {
    const error = await stepFailure(runStep(options({ outputSchema: { $ref: "#/$defs/nope" } })));
    expect(error.code).toBe("AC-STEP-007");
    expect(fake.messageRequests()).toHaveLength(0);
  });

  it("fails with AC-STEP-007 before any call when a pattern is not a regular expression", async () => {
    const schema = {
      type: "object",
      properties: { id: { type: "string", pattern: "issue-(" } },
    };
    const error = await stepFailure(runStep(options({ outputSchema: schema })));
    expect(error.code).toBe("AC-STEP-007");
    expect(error.message).toContain("$.properties.id.pattern");
    expect(fake.messageRequests()).toHaveLength(0);
  });

  it("compiles the schema while the first reply is awaited, and does not wait for a reply it cannot check", async () => {
    // Only a compile finds this broken ("strnig" is no JSON type): the request is already out.
    // Its reply would take a minute; the step ends long before (else the test times out).
    fake.enqueue({ ...reply.json(done), delayMs: 60_000 });
    const schema = { type: "object", properties: { intent: { type: "strnig" } } };
    const error = await stepFailure(runStep(options({ outputSchema: schema })));
    expect(error.code).toBe("AC-STEP-007");
    expect(error.message).toContain("strnig");
    expect(error.step.calls).toBe(1);
  });

  it("does not fail the step on a retried transient error", async () => {
    fake.enqueue(reply.error(529), reply.error(429), reply.json(done));
    const result = await runStep(options());
    expect(result.output).toEqual(done);
    expect(fake.messageRequests()).toHaveLength(3);
  });

  it("rethrows an API failure as its coded error, with what the step had spent", async () => {
    const tools = fakeTools({ read: () => ({ content: "ok", isError: false }) });
    fake.enqueue(reply.toolUse({ name: "read", input: {} }), reply.error(401));
    const error = await runStep(options({ tools })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelAuthError);
    const auth = error as ModelAuthError;
    expect(auth.step?.calls).toBe(2);
    expect(auth.step?.usage.inputTokens).toBeGreaterThan(0);
    expect(auth.step?.transcript).toHaveLength(3);
  });

  it("returns the final text and no output when the step has no schema", async () => {
    fake.enqueue(reply.text("Plain answer."));
    const result = await runStep(options({ outputSchema: undefined }));
    expect(result.output).toBeUndefined();
    expect(result.text).toBe("Plain answer.");
    expect(fake.messageRequests()[0]?.body).not.toHaveProperty("output_config");
  });

  it("sends back thinking blocks unchanged in the tool loop", async () => {
    const tools = fakeTools({ read: () => ({ content: "ok", isError: false }) });
    fake.enqueue(
      reply.message([
        { type: "thinking", thinking: "I should read a file.", signature: "sig-123" },
        { type: "tool_use", name: "read", input: {}, id: "toolu_t" },
      ]),
      reply.json(done),
    );
    await runStep(options({ tools }));
    expect(sentBody(1).messages[1]?.content).toEqual([
      { type: "thinking", thinking: "I should read a file.", signature: "sig-123" },
      { type: "tool_use", id: "toolu_t", name: "read", input: {} },
    ]);
  });
});
