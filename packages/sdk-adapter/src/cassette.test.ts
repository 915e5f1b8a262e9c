import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicClient } from "./anthropic-client.ts";
import { createRecordingClient, createReplayClient, readCassette } from "./cassette.ts";
import { CassetteError } from "./errors.ts";
import { fingerprint } from "./fingerprint.ts";
import { runStep, type StepEvent } from "./run-step.ts";
import { captureLogger, FAKE_KEY, fakeTools, INTENT_SCHEMA } from "./sdk-adapter.test-helper.ts";
import type { ModelClient, ModelRequest, ModelResponse } from "./types.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "climpt-cassette-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const done = { intent: "next", summary: "read both files" };

function stepOptions(client: ModelClient, onEvent?: (event: StepEvent) => void) {
  const tools = fakeTools({
    read: (input) => ({ content: `contents of ${JSON.stringify(input)}`, isError: false }),
  });
  return {
    client,
    model: "haiku",
    system: "You are the cassette test agent.",
    prompt: "Read a.ts and b.ts, then report.",
    outputSchema: INTENT_SCHEMA,
    tools,
    ...(onEvent === undefined ? {} : { onEvent }),
  };
}

describe("record and replay", () => {
  it("replays a recorded step offline with the same outputs, and the key is in no file or log line", async () => {
    const cassette = join(dir, "cassettes", "step.jsonl");
    const fake = await startFakeAnthropic();
    fake.enqueue(
      reply.toolUse({ name: "read", input: { path: "a.ts" } }),
      reply.toolUse({ name: "read", input: { path: "b.ts" } }),
      reply.text(`Done: ${JSON.stringify(done)}`),
    );
    const { lines, logger } = captureLogger();
    const live = createAnthropicClient({
      apiKey: FAKE_KEY,
      baseURL: fake.url,
      logger,
      logLevel: "debug",
    });
    const eventLines: string[] = [];
    const recorded = await runStep(
      stepOptions(createRecordingClient(live, cassette), (event) =>
        eventLines.push(JSON.stringify(event)),
      ),
    );
    await fake.close();

    const replayed = await runStep(stepOptions(createReplayClient(cassette, { strict: true })));
    expect(replayed.output).toEqual(done);
    expect(replayed.output).toEqual(recorded.output);
    expect(replayed.salvaged).toEqual(["prose"]);
    expect(replayed.usage).toEqual(recorded.usage);
    expect(replayed.costUsd).toBe(recorded.costUsd);
    expect(replayed.transcript).toEqual(recorded.transcript);
    expect(replayed.toolCalls.map((record) => record.call)).toEqual(
      recorded.toolCalls.map((record) => record.call),
    );

    const text = await readFile(cassette, "utf8");
    expect(text.trim().split("\n")).toHaveLength(3);
    expect(text).not.toContain(FAKE_KEY);
    expect(text).not.toContain("RECOGNISABLE");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of [...lines, ...eventLines]) expect(line).not.toContain("RECOGNISABLE");
  });

  it("serves repeated identical requests in recorded order, and refuses one more than recorded", async () => {
    const cassette = join(dir, "twice.jsonl");
    const answers = ["first", "second"];
    let index = 0;
    const scripted: ModelClient = {
      async call(): Promise<ModelResponse> {
        const text = answers[index++] ?? "extra";
        return {
          content: [{ type: "text", text }],
          text,
          toolCalls: [],
          usage: {
            inputTokens: 1,
            outputTokens: 1,
            cacheCreationInputTokens: 0,
            cacheReadInputTokens: 0,
          },
          costUsd: 0,
          priced: true,
          stopReason: "end_turn",
          model: "claude-haiku-5-5",
        };
      },
    };
    const request: ModelRequest = {
      model: "haiku",
      messages: [{ role: "user", content: "again" }],
      maxTokens: 10,
    };
    const recorder = createRecordingClient(scripted, cassette);
    await recorder.call(request);
    await recorder.call(request);
    const replay = createReplayClient(cassette);
    const deltas: string[] = [];
    expect(
      (await replay.call({ ...request, onTextDelta: (delta) => deltas.push(delta) })).text,
    ).toBe("first");
    expect((await replay.call(request)).text).toBe("second");
    expect(deltas).toEqual(["first"]);
    const error = await replay.call(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CassetteError);
    expect((error as CassetteError).code).toBe("AC-REPLAY-001");
    expect((error as CassetteError).message).toContain("recorded it only 2 time(s)");
  });

  it("explains a strict miss with a diff against the nearest recorded request", async () => {
    const cassette = join(dir, "miss.jsonl");
    const fake = await startFakeAnthropic();
    fake.enqueue(reply.json(done));
    const live = createAnthropicClient({ apiKey: FAKE_KEY, baseURL: fake.url });
    await runStep({ ...stepOptions(createRecordingClient(live, cassette)), tools: undefined });
    await fake.close();

    const replay = createReplayClient(cassette, { strict: true });
    const error = await runStep({
      ...stepOptions(replay),
      tools: undefined,
      prompt: "Read c.ts instead, then report.",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CassetteError);
    const miss = error as CassetteError;
    expect(miss.code).toBe("AC-REPLAY-001");
    expect(miss.file).toBe(cassette);
    expect(miss.message).toContain("Nearest recorded request (line 1) differs at:");
    expect(miss.message).toContain(
      '$.messages[0].content: recorded "Read a.ts and b.ts, then report.", requested "Read c.ts instead, then report."',
    );
    expect(miss.message.split("\n")).toHaveLength(3);
  });

  it("falls through to the inner client on a miss when not strict", async () => {
    const cassette = join(dir, "absent.jsonl");
    const fake = await startFakeAnthropic();
    fake.enqueue(reply.json(done));
    try {
      const live = createAnthropicClient({ apiKey: FAKE_KEY, baseURL: fake.url });
      const replay = createReplayClient(cassette, { strict: false, inner: live });
      const result = await runStep({ ...stepOptions(replay), tools: undefined });
      expect(result.output).toEqual(done);
      expect(fake.messageRequests()).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it("names the file and line of a corrupt cassette, and a missing one in strict mode", async () => {
    const cassette = join(dir, "bad.jsonl");
    await writeFile(cassette, '{"v":1,"fingerprint":"x","response":{}}\nnot json\n');
    expect(() => createReplayClient(cassette)).toThrow(
      /Line 2 of the cassette .*bad\.jsonl is not valid JSON/,
    );
    expect(() => readCassette(join(dir, "none.jsonl"))).toThrow(CassetteError);
    expect(() => createReplayClient(join(dir, "none.jsonl"))).toThrow(/cannot be read/);
  });

  it("refuses a FIFO as the cassette at once, instead of waiting for a writer", () => {
    const fifo = join(dir, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    // A plain read would block the whole process here: the test's time limit, not this error.
    expect(() => createReplayClient(fifo)).toThrow(/is not a regular file \(a FIFO\)/);
    expect(() => readCassette(fifo)).toThrow(CassetteError);
  });
});

describe("fingerprint", () => {
  const base: ModelRequest = {
    model: "sonnet",
    system: "s",
    messages: [{ role: "user", content: "p" }],
    maxTokens: 100,
    outputSchema: { type: "object", properties: { a: { type: "string" } } },
  };

  it("ignores limits, key order and callbacks, and resolves aliases", () => {
    const same: ModelRequest = {
      outputSchema: { properties: { a: { type: "string" } }, type: "object" },
      maxTokens: 999,
      timeoutMs: 5,
      messages: [{ content: "p", role: "user" }],
      system: "s",
      model: "claude-sonnet-5-5",
      onTextDelta: () => {},
    };
    expect(fingerprint(same)).toBe(fingerprint(base));
  });

  it("changes with anything that changes the reply", () => {
    const variants: ModelRequest[] = [
      { ...base, model: "haiku" },
      { ...base, system: "t" },
      { ...base, messages: [{ role: "user", content: "q" }] },
      { ...base, outputSchema: { type: "object" } },
      { ...base, tools: [{ name: "read", description: "r", inputSchema: { type: "object" } }] },
    ];
    const prints = new Set([fingerprint(base), ...variants.map(fingerprint)]);
    expect(prints.size).toBe(variants.length + 1);
  });
});
