/**
 * Every wait of a model call has a bound without any option set: the response must start within
 * `DEFAULT_CONNECT_TIMEOUT_MS`, and a stream may stay silent at most
 * `DEFAULT_STREAM_IDLE_TIMEOUT_MS`. Each bound ends the call with its own code, through the real
 * SDK against the fake API (a connection accepted and never answered; a stream that stalls after
 * its first events).
 *
 * The defaults are checked on a fake clock that the test moves only once the client holds
 * everything the server will ever send, so only the bound under test can end the call and a busy
 * machine cannot make it fire early; the sockets stay real. The configured bounds are checked on
 * the real clock with short values.
 */
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type AnthropicClientOptions,
  createAnthropicClient,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
} from "./anthropic-client.ts";
import { ModelError, ModelTimeoutError } from "./errors.ts";
import { FAKE_KEY } from "./sdk-adapter.test-helper.ts";
import type { ModelRequest } from "./types.ts";

let fake: FakeAnthropic;

function client(options: AnthropicClientOptions = {}) {
  return createAnthropicClient({ apiKey: FAKE_KEY, baseURL: fake.url, maxRetries: 0, ...options });
}

const request: ModelRequest = {
  model: "haiku",
  messages: [{ role: "user", content: "Say hello." }],
  maxTokens: 1024,
};

function settled(promise: Promise<unknown>): { readonly outcome: () => unknown } {
  let outcome: unknown = "pending";
  promise.then(
    () => {
      outcome = "answered";
    },
    (error: unknown) => {
      outcome = error;
    },
  );
  return { outcome: () => outcome };
}

/**
 * Waits until `check` passes, polling on the event loop (setImmediate) and measuring with Date,
 * neither of which the fake clock touches: vi.waitFor would advance the fake clock by its
 * interval on every poll, and this test needs that clock still until it moves it itself.
 */
async function until(check: () => void, limitMs = 120_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() - started > limitMs) throw error;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

beforeAll(async () => {
  fake = await startFakeAnthropic({ chunkSize: 4 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.setHandler(undefined);
});

describe("the default bounds of a model call", () => {
  it("are finite, and a minute and three minutes", () => {
    expect(DEFAULT_CONNECT_TIMEOUT_MS).toBe(60_000);
    expect(DEFAULT_STREAM_IDLE_TIMEOUT_MS).toBe(180_000);
  });

  it("end a call whose connection is accepted and never answered after 60 s (AC-MODEL-004)", async () => {
    fake.enqueue(reply.hang());
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const call = settled(client().call(request));
      // The request has arrived, so the SDK's timer for the response to start runs (beside
      // the HTTP client's own, which allows minutes).
      await until(() => expect(fake.messageRequests()).toHaveLength(1));
      vi.advanceTimersByTime(DEFAULT_CONNECT_TIMEOUT_MS - 1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(call.outcome()).toBe("pending");
      vi.advanceTimersByTime(1);
      await until(() => expect(call.outcome()).not.toBe("pending"));
      const error = call.outcome() as ModelTimeoutError;
      expect(error).toBeInstanceOf(ModelTimeoutError);
      expect(error.code).toBe("AC-MODEL-004");
      expect(error.phase).toBe("start");
      expect(error.message).toContain(`within ${DEFAULT_CONNECT_TIMEOUT_MS} ms`);
      expect(error.hint).toContain("connectTimeoutMs");
    } finally {
      vi.useRealTimers();
    }
  });

  it("end a stream that stalls after it started after 180 s of silence (AC-MODEL-011)", async () => {
    fake.enqueue(reply.cutStream(undefined, { afterEvents: 4, stall: true }));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const deltas: string[] = [];
      const call = settled(client().call({ ...request, onTextDelta: (d) => deltas.push(d) }));
      // Everything the server sends has arrived; what is left is the idle timer alone (the
      // SDK's timer for the response to start ended with the headers).
      await until(() => {
        expect(deltas).toHaveLength(1);
        expect(vi.getTimerCount()).toBe(1);
      });
      vi.advanceTimersByTime(DEFAULT_STREAM_IDLE_TIMEOUT_MS - 1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(call.outcome()).toBe("pending");
      vi.advanceTimersByTime(1);
      await until(() => expect(call.outcome()).not.toBe("pending"));
      const error = call.outcome() as ModelTimeoutError;
      expect(error).toBeInstanceOf(ModelTimeoutError);
      expect(error.code).toBe("AC-MODEL-011");
      expect(error.phase).toBe("idle");
      expect(error.message).toContain(`went silent for ${DEFAULT_STREAM_IDLE_TIMEOUT_MS} ms`);
      expect(error.hint).toContain("streamIdleTimeoutMs");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("configured bounds", () => {
  it("connectTimeoutMs of the client or of the request ends an unanswered call", async () => {
    fake.enqueue(reply.hang(), reply.hang());
    for (const [options, call] of [
      [{ connectTimeoutMs: 200 }, request],
      [{}, { ...request, connectTimeoutMs: 200 }],
    ] as const) {
      const error = await client(options)
        .call(call)
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).code).toBe("AC-MODEL-004");
      expect((error as ModelError).message).toContain("within 200 ms");
    }
  });

  it("streamIdleTimeoutMs ends a stalled stream, which is tried again first", async () => {
    fake.setHandler(() => reply.cutStream(undefined, { afterEvents: 4, stall: true }));
    const error = await client({ maxRetries: 1, streamIdleTimeoutMs: 200 })
      .call(request)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect((error as ModelError).code).toBe("AC-MODEL-011");
    expect((error as ModelError).message).toContain("went silent for 200 ms (2 attempts)");
    expect(fake.messageRequests()).toHaveLength(2);
  });

  it("a specific bound wins over timeoutMs, and timeoutMs stands for both when alone", async () => {
    fake.enqueue(reply.hang());
    const start = await client({ timeoutMs: 120_000, connectTimeoutMs: 200 })
      .call(request)
      .then(
        () => undefined,
        (caught: unknown) => caught as ModelError,
      );
    expect(start?.message).toContain("within 200 ms");
    fake.enqueue(reply.cutStream(undefined, { afterEvents: 4, stall: true }));
    const idle = await client({ timeoutMs: 200 })
      .call(request)
      .then(
        () => undefined,
        (caught: unknown) => caught as ModelError,
      );
    expect(idle?.code).toBe("AC-MODEL-011");
    expect(idle?.message).toContain("went silent for 200 ms");
  });
});
