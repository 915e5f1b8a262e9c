import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAnthropicClient } from "./anthropic-client.ts";
import { ModelError } from "./errors.ts";
import { FAKE_KEY } from "./sdk-adapter.test-helper.ts";
import type { ModelRequest } from "./types.ts";

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});

const request: ModelRequest = {
  model: "haiku",
  system: "s",
  messages: [{ role: "user", content: "Say hello." }],
  maxTokens: 64,
};

describe("credentials in what the client reports", () => {
  it("an API error body that echoes the key reaches the result scrubbed", async () => {
    fake.setHandler(() =>
      reply.error(400, { message: `invalid x-api-key header: ${FAKE_KEY} (check it)` }),
    );
    const client = createAnthropicClient({ apiKey: FAKE_KEY, baseURL: fake.url, maxRetries: 0 });
    const error = await client.call(request).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ModelError);
    const text = `${(error as ModelError).message} ${(error as ModelError).hint ?? ""} ${((error as ModelError).cause as Error | undefined)?.message ?? ""}`;
    expect(text).toContain("invalid x-api-key header: [REDACTED ANTHROPIC_API_KEY] (check it)");
    expect(text).not.toContain(FAKE_KEY);
  });

  it("ANTHROPIC_LOG=debug writes the SDK's log to stderr, never to stdout", async () => {
    fake.setHandler(() => reply.text("hello"));
    const saved = process.env.ANTHROPIC_LOG;
    process.env.ANTHROPIC_LOG = "debug";
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const client = createAnthropicClient({ apiKey: FAKE_KEY, baseURL: fake.url, maxRetries: 0 });
      await client.call(request);
      const out = stdout.mock.calls.map((call) => String(call[0])).join("");
      const err = stderr.mock.calls.map((call) => String(call[0])).join("");
      expect(out).toBe("");
      expect(err).toContain("[anthropic-sdk:debug]");
      expect(err).not.toContain(FAKE_KEY);
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
      if (saved === undefined) delete process.env.ANTHROPIC_LOG;
      else process.env.ANTHROPIC_LOG = saved;
    }
  });
});
