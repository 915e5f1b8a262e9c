import { createAnthropicClient, type ModelRequest } from "@climpt/sdk-adapter";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { limitModelClient } from "./limited-model-client.ts";
import { LocalModelLimiter } from "./local-limiter.ts";
import type { ModelRequestLimiter } from "./model-limiter.ts";

const fakes: FakeAnthropic[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `count` holders of a permit for `holdMs` each; returns the most held at once. */
async function peakConcurrency(
  limiter: ModelRequestLimiter,
  count: number,
  holdMs: number,
): Promise<number> {
  let active = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      const permit = await limiter.acquire();
      active++;
      peak = Math.max(peak, active);
      await sleep(holdMs);
      active--;
      await permit.done({ kind: "ok" });
    }),
  );
  return peak;
}

const REQUEST: ModelRequest = {
  model: "haiku",
  system: "You are a test.",
  messages: [{ role: "user", content: "hi" }],
  maxTokens: 64,
};

describe("the local model-request limiter", () => {
  it("never lets more requests run at once than its limit", async () => {
    const limiter = new LocalModelLimiter({ maxConcurrent: 2 });
    expect(await peakConcurrency(limiter, 8, 20)).toBe(2);
    expect(await limiter.stats()).toMatchObject({ limit: 2, active: 0, throttled: 0 });
  });

  it("halves the limit once per burst of throttles, pauses every request for the wait the API asked, then grows back", async () => {
    const limiter = new LocalModelLimiter({ maxConcurrent: 8 });
    const permits = await Promise.all(Array.from({ length: 4 }, () => limiter.acquire()));
    // A burst: four requests in flight come back 429 together.
    for (const permit of permits) await permit.done({ kind: "throttled", retryAfterMs: 300 });
    expect(await limiter.stats()).toMatchObject({ limit: 4, throttled: 4 });
    const waited = Date.now();
    const next = await limiter.acquire();
    expect(Date.now() - waited).toBeGreaterThanOrEqual(250);
    await next.done({ kind: "ok" });
    for (let index = 0; index < 4; index++) await (await limiter.acquire()).done({ kind: "ok" });
    expect((await limiter.stats()).limit).toBe(5);
  });

  it("backs off on throttles that name no wait, doubling, and drops a waiter whose signal aborts", async () => {
    const limiter = new LocalModelLimiter({ maxConcurrent: 1, baseBackoffMs: 100 });
    await (await limiter.acquire()).done({ kind: "throttled", retryAfterMs: null });
    await (await limiter.acquire()).done({ kind: "throttled", retryAfterMs: null });
    expect((await limiter.stats()).pausedMs).toBeGreaterThanOrEqual(300);
    const holder = await limiter.acquire();
    const stop = new AbortController();
    const waiting = limiter.acquire(stop.signal);
    stop.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
    await holder.done({ kind: "ok" });
    expect(await limiter.stats()).toMatchObject({ active: 0 });
  });
});

describe("a model client behind the limiter, against the fake API through the real SDK", () => {
  async function throttlingApi(throttled: number): Promise<FakeAnthropic> {
    const fake = await startFakeAnthropic();
    fakes.push(fake);
    for (let index = 0; index < throttled; index++)
      fake.enqueue(reply.error(429, { retryAfterMs: 100 }));
    fake.setHandler(() => reply.text("ok"));
    return fake;
  }

  it("turns a burst of 429s into a slower fleet: every call succeeds", async () => {
    const fake = await throttlingApi(6);
    const limiter = new LocalModelLimiter({ maxConcurrent: 4 });
    const client = limitModelClient(
      createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0, stream: false }),
      limiter,
    );
    const replies = await Promise.all(Array.from({ length: 6 }, () => client.call(REQUEST)));
    expect(replies.map((response) => response.text)).toEqual(Array(6).fill("ok"));
    const stats = await limiter.stats();
    expect(stats.throttled).toBe(6);
    // Every request waited out the pause the API asked for (retry-after-ms: 100).
    expect(stats.pausedMs).toBeGreaterThanOrEqual(100);
    expect(fake.messageRequests()).toHaveLength(12);
  });

  it("where the same burst fails the calls of a client without it", async () => {
    const fake = await throttlingApi(6);
    const client = createAnthropicClient({
      apiKey: "sk-test",
      baseURL: fake.url,
      maxRetries: 0,
      stream: false,
    });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => client.call(REQUEST)));
    expect(results.filter((result) => result.status === "rejected")).toHaveLength(6);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: "AC-MODEL-002" });
  });

  it("gives up after maxThrottleRetries and throws the model's own coded error", async () => {
    const fake = await throttlingApi(10);
    const client = limitModelClient(
      createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0, stream: false }),
      new LocalModelLimiter({ maxConcurrent: 1 }),
      { maxThrottleRetries: 2 },
    );
    await expect(client.call(REQUEST)).rejects.toMatchObject({ code: "AC-MODEL-002" });
    expect(fake.messageRequests()).toHaveLength(3);
  });
});
