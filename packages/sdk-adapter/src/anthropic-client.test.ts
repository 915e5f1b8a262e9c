import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STEP_HEADER, type ToolCall } from "@climpt/model";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type AnthropicClientOptions, createAnthropicClient } from "./anthropic-client.ts";
import {
  ModelAbortedError,
  ModelAuthError,
  ModelBadRequestError,
  ModelConnectionError,
  ModelError,
  ModelOverloadedError,
  ModelRateLimitError,
  ModelResponseError,
  ModelServerError,
  ModelTimeoutError,
} from "./errors.ts";
import { fingerprint } from "./fingerprint.ts";
import { costOf } from "./prices.ts";
import { captureLogger, FAKE_KEY, INTENT_SCHEMA } from "./sdk-adapter.test-helper.ts";
import type { ModelRequest } from "./types.ts";

let fake: FakeAnthropic;

function client(options: AnthropicClientOptions = {}) {
  return createAnthropicClient({ apiKey: FAKE_KEY, baseURL: fake.url, maxRetries: 0, ...options });
}

const request: ModelRequest = {
  model: "haiku",
  system: "You are a careful agent.",
  messages: [{ role: "user", content: "Say hello." }],
  maxTokens: 1024,
};

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

beforeAll(async () => {
  fake = await startFakeAnthropic({ chunkSize: 4 });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.setHandler(undefined);
});

describe("createAnthropicClient against the fake API through the real SDK", () => {
  it("names the step that asks in the x-climpt-step header, and leaves it out of the fingerprint", async () => {
    fake.enqueue(reply.text("a"), reply.text("b"));
    await client().call({ ...request, stepId: "initial.work" });
    await client({ stream: false }).call(request);
    const [withStep, without] = fake.messageRequests();
    expect(withStep?.headers[STEP_HEADER]).toBe("initial.work");
    expect(without?.headers[STEP_HEADER]).toBeUndefined();
    expect(fingerprint({ ...request, stepId: "initial.work" })).toBe(fingerprint(request));
  });

  it("streams a text reply, with deltas, usage, cost, model and request id", async () => {
    fake.enqueue(reply.text("Hello there, friend."));
    const deltas: string[] = [];
    const response = await client().call({
      ...request,
      onTextDelta: (delta) => deltas.push(delta),
    });
    expect(response.text).toBe("Hello there, friend.");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Hello there, friend.");
    expect(response.stopReason).toBe("end_turn");
    expect(response.model).toBe("claude-haiku-5-5");
    expect(response.requestId).toMatch(/^req_fake_/);
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    expect(response.priced).toBe(true);
    expect(response.costUsd).toBeCloseTo(costOf(response.usage, "claude-haiku-5-5") ?? -1, 12);
    const sent = fake.messageRequests()[0];
    expect(sent?.body).toMatchObject({ model: "claude-haiku-5-5", stream: true, max_tokens: 1024 });
  });

  it("works without streaming too, calling the callbacks once", async () => {
    fake.enqueue(reply.toolUse({ name: "read", input: { path: "a.txt" } }, { text: "Reading." }));
    const deltas: string[] = [];
    const calls: ToolCall[] = [];
    const response = await client({ stream: false }).call({
      ...request,
      onTextDelta: (delta) => deltas.push(delta),
      onToolCall: (call) => calls.push(call),
    });
    expect(fake.messageRequests()[0]?.body).not.toHaveProperty("stream");
    expect(deltas).toEqual(["Reading."]);
    expect(calls).toEqual([
      { id: expect.stringMatching(/^toolu_/), name: "read", input: { path: "a.txt" } },
    ]);
    expect(response.toolCalls).toEqual(calls);
    expect(response.stopReason).toBe("tool_use");
  });

  it("reports each streamed tool call once its input is complete", async () => {
    fake.enqueue(
      reply.toolUse([
        { name: "read", input: { path: "a.txt" } },
        { name: "grep", input: { pattern: "TODO", glob: "**/*.ts" } },
      ]),
    );
    const calls: ToolCall[] = [];
    const response = await client().call({ ...request, onToolCall: (call) => calls.push(call) });
    expect(calls.map((call) => call.input)).toEqual([
      { path: "a.txt" },
      { pattern: "TODO", glob: "**/*.ts" },
    ]);
    expect(response.toolCalls).toEqual(calls);
  });

  it("sends the output schema as output_config.format and parses the JSON reply", async () => {
    fake.enqueue(reply.json({ intent: "next", summary: "ok" }));
    const response = await client().call({ ...request, outputSchema: INTENT_SCHEMA });
    expect(fake.messageRequests()[0]?.body).toMatchObject({
      output_config: { format: { type: "json_schema", schema: INTENT_SCHEMA } },
    });
    expect(response.structuredOutput).toEqual({ intent: "next", summary: "ok" });
  });

  it("puts cache breakpoints on the system prompt and the last tool, so a repeated step reads them", async () => {
    const tools = [
      { name: "read", description: "Read a file.", inputSchema: { type: "object" } },
      { name: "bash", description: "Run a command.", inputSchema: { type: "object" } },
    ];
    fake.enqueue(reply.text("first"), reply.text("second"));
    const first = await client().call({ ...request, tools });
    const second = await client().call({
      ...request,
      tools,
      messages: [{ role: "user", content: "Another step's prompt." }],
    });
    const body = fake.messageRequests()[0]?.body as {
      system: { cache_control?: unknown }[];
      tools: { cache_control?: unknown }[];
    };
    expect(body.system).toEqual([
      { type: "text", text: "You are a careful agent.", cache_control: { type: "ephemeral" } },
    ]);
    expect(body.tools[0]).not.toHaveProperty("cache_control");
    expect(body.tools[1]).toHaveProperty("cache_control", { type: "ephemeral" });
    expect(first.usage.cacheCreationInputTokens).toBeGreaterThan(0);
    expect(second.usage.cacheReadInputTokens).toBe(first.usage.cacheCreationInputTokens);
    expect(second.costUsd).toBeLessThan(first.costUsd);
  });

  it("retries a 429 (retry-after-ms) and succeeds", async () => {
    fake.enqueue(reply.error(429, { retryAfterMs: 5 }), reply.text("made it"));
    const response = await client({ maxRetries: 2 }).call(request);
    expect(response.text).toBe("made it");
    expect(fake.messageRequests()).toHaveLength(2);
  });

  it("gives up on 529 after maxRetries with a coded overloaded error", async () => {
    fake.setHandler(() => reply.error(529));
    const error = await failure(client({ maxRetries: 2 }).call(request));
    expect(error).toBeInstanceOf(ModelOverloadedError);
    expect(error.code).toBe("AC-MODEL-003");
    expect(error.requestId).toMatch(/^req_fake_/);
    expect(error.message).toContain("3 attempts");
    expect(fake.messageRequests()).toHaveLength(3);
  });

  it("says a 500 from a server that is not Anthropic's came from that server, not the API's side", async () => {
    fake.setHandler(() => reply.error(500));
    const error = await failure(client().call(request));
    expect(error).toBeInstanceOf(ModelServerError);
    expect(error.message).toContain(`The model server at ${fake.url}`);
    expect(error.message).toContain("ANTHROPIC_BASE_URL");
    expect(error.hint).toContain("its own log");
    expect(`${error.message} ${error.hint}`).not.toContain("API's side");
  });

  it("maps a 429 that outlasts the retries to a rate-limit error with the wait the API asked for", async () => {
    fake.setHandler(() => reply.error(429, { retryAfterMs: 2 }));
    const error = await failure(client({ maxRetries: 1 }).call(request));
    expect(error).toBeInstanceOf(ModelRateLimitError);
    expect((error as ModelRateLimitError).retryAfterMs).toBe(2);
    expect(error.code).toBe("AC-MODEL-002");
  });

  it("maps 401 to an auth error that does not retry and does not show the key", async () => {
    fake.setHandler(() => reply.error(401));
    const error = await failure(client({ maxRetries: 2 }).call(request));
    expect(error).toBeInstanceOf(ModelAuthError);
    expect(error.code).toBe("AC-MODEL-001");
    expect(error.status).toBe(401);
    expect(error.hint).toContain("ANTHROPIC_API_KEY");
    expect(error.cause).toBeDefined();
    expect(`${error.message} ${error.hint}`).not.toContain(FAKE_KEY);
    expect(fake.messageRequests()).toHaveLength(1);
  });

  it("says to set ANTHROPIC_API_KEY when there are no credentials at all", async () => {
    const saved = { ...process.env };
    const emptyConfig = await mkdtemp(join(tmpdir(), "no-anthropic-config-"));
    for (const name of Object.keys(process.env)) {
      if (name.startsWith("ANTHROPIC_")) delete process.env[name];
    }
    process.env.ANTHROPIC_CONFIG_DIR = emptyConfig;
    try {
      const error = await failure(
        createAnthropicClient({ baseURL: fake.url, maxRetries: 0 }).call(request),
      );
      expect(error).toBeInstanceOf(ModelAuthError);
      expect(error.hint).toContain("ANTHROPIC_API_KEY");
      expect(fake.messageRequests()).toHaveLength(0);
    } finally {
      process.env = saved;
      await rm(emptyConfig, { recursive: true, force: true });
    }
  });

  it("maps 400 to a bad-request error carrying the API's message", async () => {
    fake.enqueue(
      reply.error(400, {
        message: "output_config.format.schema: unsupported keyword 'patternProperties'",
      }),
    );
    const error = await failure(client().call(request));
    expect(error).toBeInstanceOf(ModelBadRequestError);
    expect(error.message).toContain("patternProperties");
  });

  it("times out a request that never answers", async () => {
    fake.enqueue(reply.hang(), reply.hang());
    const error = await failure(client({ maxRetries: 1, timeoutMs: 100 }).call(request));
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(error.code).toBe("AC-MODEL-004");
    expect(fake.messageRequests()).toHaveLength(2);
  });

  it("times out a stream that goes silent after it started, trying it again first", async () => {
    // The server sends four events (one text delta) and then nothing, ever. The client's timers
    // run on a fake clock that this test moves only once the client holds everything the server
    // will send, so "went silent" is the only way out and a busy machine cannot make the timeout
    // fire early (before the headers or the delta arrive). The sockets stay real.
    fake.setHandler(() => reply.cutStream(undefined, { afterEvents: 4, stall: true }));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const deltas: string[] = [];
      const outcome = client({ maxRetries: 1, timeoutMs: 150 })
        .call({ ...request, onTextDelta: (d) => deltas.push(d) })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      // vi.waitFor polls on real time; its own 1 s default is a speed limit, so wait long.
      const PATIENCE = { timeout: 120_000, interval: 10 };
      const stallThenSilence = async (attempt: number): Promise<void> => {
        // Everything sent has arrived; what is left on the clock is the idle timer alone (the
        // SDK's timer for the headers ends when they arrive).
        await vi.waitFor(() => {
          expect(fake.messageRequests()).toHaveLength(attempt);
          expect(deltas).toHaveLength(attempt);
          expect(vi.getTimerCount()).toBe(1);
        }, PATIENCE);
        vi.advanceTimersByTime(150);
      };
      await stallThenSilence(1);
      // The silent stream is tried again after a pause, also on the fake clock.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1), PATIENCE);
      vi.advanceTimersToNextTimer();
      await stallThenSilence(2);
      const error = await outcome;
      expect(error).toBeInstanceOf(ModelTimeoutError);
      expect((error as ModelTimeoutError).message).toContain("went silent for 150 ms");
      expect(fake.messageRequests()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("tries a stream that broke off again from scratch, within maxRetries", async () => {
    fake.enqueue(reply.cutStream(), reply.text("whole this time"));
    const response = await client({ maxRetries: 1 }).call(request);
    expect(response.text).toBe("whole this time");
    expect(fake.messageRequests()).toHaveLength(2);
  });

  it("reports a stream that keeps breaking off as a connection error", async () => {
    fake.setHandler(() => reply.cutStream());
    const error = await failure(client({ maxRetries: 1 }).call(request));
    expect(error).toBeInstanceOf(ModelConnectionError);
    expect(error.code).toBe("AC-MODEL-005");
    expect(error.message).toContain("broke off");
    expect(fake.messageRequests()).toHaveLength(2);
  });

  it("reports a cut non-streaming body as a connection error", async () => {
    fake.setHandler(() => reply.cutStream());
    const error = await failure(client({ stream: false }).call(request));
    expect(error).toBeInstanceOf(ModelConnectionError);
  });

  it("maps a malformed JSON body, streamed or not, to a malformed-response error", async () => {
    fake.enqueue(reply.malformed(), reply.malformed());
    const streamed = await failure(client().call(request));
    const plain = await failure(client({ stream: false }).call(request));
    for (const error of [streamed, plain]) {
      expect(error).toBeInstanceOf(ModelResponseError);
      expect(error.code).toBe("AC-MODEL-008");
    }
  });

  it("stops when the caller aborts", async () => {
    fake.enqueue(reply.hang());
    const controller = new AbortController();
    const pending = client().call({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    const error = await failure(pending);
    expect(error).toBeInstanceOf(ModelAbortedError);
    expect(error.code).toBe("AC-MODEL-009");
  });

  it("says once when the request has left and only the reply is awaited", async () => {
    fake.enqueue({ ...reply.text("later"), delayMs: 200 });
    let replied = false;
    const sent: boolean[] = [];
    const pending = client().call({ ...request, onRequestSent: () => sent.push(replied) });
    const response = await pending;
    replied = true;
    expect(response.text).toBe("later");
    // Called once, before the reply was in.
    expect(sent).toEqual([false]);
  });

  it("never writes the API key to any log line, even at debug level", async () => {
    const { lines, logger } = captureLogger();
    fake.enqueue(reply.error(429), reply.text("fine"), reply.error(401));
    const logged = client({ maxRetries: 1, logger, logLevel: "debug" });
    await logged.call(request);
    await logged.call(request).catch(() => undefined);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.join("\n")).toContain("authorization");
    for (const line of lines) expect(line).not.toContain(FAKE_KEY);
    // …while the key really was sent.
    expect(fake.messageRequests()[0]?.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
  });
});
