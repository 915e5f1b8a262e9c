import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.ts";
import { reply } from "./replies.ts";

const KEY = "sk-ant-fake-testing-key";
let fake: FakeAnthropic;

function sdk(options: { maxRetries?: number; timeout?: number } = {}): Anthropic {
  return new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0, ...options });
}

const base = {
  model: "claude-haiku-5-5",
  max_tokens: 256,
  messages: [{ role: "user" as const, content: "Hello" }],
};

beforeAll(async () => {
  fake = await startFakeAnthropic({ chunkSize: 5 });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.setHandler(undefined);
});

describe("fake Anthropic server through the real SDK", () => {
  it("answers a non-streaming request with a Message and records the request", async () => {
    fake.enqueue(reply.text("Hi there"));
    const { data, request_id } = await sdk().messages.create(base).withResponse();
    expect(data.content).toEqual([{ type: "text", text: "Hi there", citations: null }]);
    expect(data.stop_reason).toBe("end_turn");
    expect(data.model).toBe("claude-haiku-5-5");
    expect(request_id).toMatch(/^req_fake_/);
    expect(data.usage.input_tokens).toBeGreaterThan(0);
    expect(data.usage.output_tokens).toBeGreaterThan(0);
    const [received] = fake.messageRequests();
    expect(received?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(received?.headers["anthropic-version"]).toBe("2026-10-21");
    expect(received?.body).toMatchObject({ model: "claude-haiku-5-5", max_tokens: 256 });
  });

  it("marks a response completed once all of it was written, and not when the client went away first", async () => {
    fake.enqueue(reply.text("done"), reply.text("too late", { delayMs: 2_000 }));
    await sdk().messages.create(base);
    const stop = new AbortController();
    const aborted = sdk()
      .messages.create(base, { signal: stop.signal })
      .catch((error: unknown) => error);
    while (fake.messageRequests().length < 2)
      await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    expect(await aborted).toBeInstanceOf(Anthropic.APIUserAbortError);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(fake.messageRequests().map((request) => request.response)).toEqual([
      { status: 200, completed: true },
      { status: null, completed: false },
    ]);
  });

  it("streams text deltas that add up to the text", async () => {
    fake.enqueue(reply.text("A streamed answer in pieces"));
    const deltas: string[] = [];
    const stream = sdk().messages.stream(base);
    stream.on("text", (delta) => deltas.push(delta));
    const message = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("A streamed answer in pieces");
    expect(message.content[0]).toMatchObject({ type: "text", text: "A streamed answer in pieces" });
    expect(message.usage.output_tokens).toBeGreaterThan(1);
    expect(stream.request_id).toMatch(/^req_fake_/);
  });

  it("streams a tool call whose input arrives as input_json_delta pieces", async () => {
    fake.enqueue(reply.toolUse({ name: "read_file", input: { path: "src/a.ts", lines: [1, 20] } }));
    const partials: string[] = [];
    const stream = sdk().messages.stream(base);
    stream.on("inputJson", (partial) => partials.push(partial));
    const message = await stream.finalMessage();
    expect(partials.length).toBeGreaterThan(1);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content[0]).toMatchObject({
      type: "tool_use",
      name: "read_file",
      input: { path: "src/a.ts", lines: [1, 20] },
    });
  });

  it("returns structured output as one JSON text block", async () => {
    fake.enqueue(reply.json({ intent: "next", summary: "done" }));
    const message = await sdk().messages.create({
      ...base,
      output_config: { format: { type: "json_schema", schema: { type: "object" } } },
    });
    const block = message.content[0];
    expect(block?.type).toBe("text");
    expect(JSON.parse(block?.type === "text" ? block.text : "")).toEqual({
      intent: "next",
      summary: "done",
    });
  });

  it("reports cache writes, then cache reads when a later request shares the cached prefix", async () => {
    const system = [
      {
        type: "text" as const,
        text: "A long system prompt. ".repeat(50),
        cache_control: { type: "ephemeral" as const },
      },
    ];
    fake.enqueue(reply.text("one"), reply.text("two"));
    const first = await sdk().messages.create({ ...base, system });
    const second = await sdk().messages.create({
      ...base,
      system,
      messages: [{ role: "user", content: "A different question" }],
    });
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
  });

  it("counts tokens deterministically without consuming the queue", async () => {
    const a = await sdk().messages.countTokens(base);
    const b = await sdk().messages.countTokens(base);
    const longer = await sdk().messages.countTokens({
      ...base,
      messages: [{ role: "user", content: "Hello ".repeat(100) }],
    });
    expect(a.input_tokens).toBe(b.input_tokens);
    expect(longer.input_tokens).toBeGreaterThan(a.input_tokens);
    expect(fake.pending()).toBe(0);
  });

  it("serves the real error body for 401, with the request id", async () => {
    fake.enqueue(reply.error(401));
    const error = await sdk()
      .messages.create(base)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    const apiError = error as InstanceType<typeof Anthropic.AuthenticationError>;
    expect(apiError.status).toBe(401);
    expect(apiError.type).toBe("authentication_error");
    expect(apiError.requestID).toMatch(/^req_fake_/);
    expect(apiError.error).toMatchObject({ type: "error", request_id: apiError.requestID });
  });

  it("lets the SDK retry a 429 after retry-after-ms and succeed", async () => {
    fake.enqueue(reply.error(429), reply.text("after the limit"));
    const message = await sdk({ maxRetries: 2 }).messages.create(base);
    expect(message.content[0]).toMatchObject({ text: "after the limit" });
    expect(fake.messageRequests()).toHaveLength(2);
    expect(fake.messageRequests()[1]?.headers["x-stainless-retry-count"]).toBe("1");
  });

  it("answers 529 with overloaded_error until the SDK gives up", async () => {
    fake.setHandler(() => reply.error(529));
    const error = await sdk({ maxRetries: 2 })
      .messages.create(base)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.OverloadedError);
    expect(fake.messageRequests()).toHaveLength(3);
  });

  it("never answers a hanging request, so the SDK times out", async () => {
    fake.enqueue(reply.hang());
    const error = await sdk({ timeout: 150 })
      .messages.create(base)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
  });

  it("cuts a stream in the middle", async () => {
    fake.enqueue(reply.cutStream());
    const stream = sdk().messages.stream(base);
    const error = await stream.finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AnthropicError);
  });

  it("sends a malformed JSON body", async () => {
    fake.enqueue(reply.malformed());
    const error = await sdk()
      .messages.create(base)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SyntaxError);
  });

  it("rejects a tool_use left without its tool_result, as the API does", async () => {
    const error = await sdk()
      .messages.create({
        ...base,
        messages: [
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_1", name: "x", input: {} }],
          },
          { role: "user", content: "no result here" },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String(error)).toContain("toolu_1");
  });

  it("accepts a system message in the middle of the conversation, and counts it", async () => {
    fake.enqueue(reply.text("noted"), reply.text("noted"));
    const first = await sdk().messages.create(base);
    const withSystem = await sdk().messages.create({
      ...base,
      messages: [
        { role: "user", content: "Hello" },
        { role: "system", content: [{ type: "text", text: "The working directory is /repo." }] },
      ],
    });
    expect(withSystem.content[0]).toMatchObject({ text: "noted" });
    expect(withSystem.usage.input_tokens).toBeGreaterThan(first.usage.input_tokens);
    expect(fake.messageRequests()[1]?.body).toMatchObject({
      messages: [{ role: "user" }, { role: "system" }],
    });
  });

  it("rejects a conversation that starts with a system message, or one holding a tool result", async () => {
    const startsWithSystem = await sdk()
      .messages.create({ ...base, messages: [{ role: "system", content: "Be brief." }] })
      .catch((caught: unknown) => caught);
    expect(startsWithSystem).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String(startsWithSystem)).toContain("first message must use the user role");

    const toolResultInSystem = await sdk()
      .messages.create({
        ...base,
        messages: [
          { role: "user", content: "Hello" },
          {
            role: "system",
            // The SDK's types allow only text here; the cast sends what a buggy client might.
            content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x" }] as never,
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(toolResultInSystem).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String(toolResultInSystem)).toContain("only text blocks");
    expect(fake.pending()).toBe(0);
  });

  it("asks the handler when the queue is empty, and fails loudly when neither has a reply", async () => {
    fake.setHandler((request) =>
      JSON.stringify(request.body).includes("ping") ? reply.text("pong") : undefined,
    );
    const pong = await sdk().messages.create({
      ...base,
      messages: [{ role: "user", content: "ping" }],
    });
    expect(pong.content[0]).toMatchObject({ text: "pong" });
    const error = await sdk({ maxRetries: 2 })
      .messages.create(base)
      .catch((caught: unknown) => caught);
    expect(String(error)).toContain("no scripted reply");
    // x-should-retry: false keeps the SDK from retrying a missing script.
    expect(fake.messageRequests()).toHaveLength(2);
  });
});
