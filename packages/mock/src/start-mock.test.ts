import Anthropic from "@anthropic-ai/sdk";
import { STEP_HEADER } from "@climpt/model";
import { afterEach, describe, expect, it } from "vitest";
import { MOCK_CODES } from "./codes.ts";
import { parseMockScript } from "./mock-script.ts";
import { type RunningMock, startMock } from "./start-mock.ts";

const running: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((mock) => mock.close()));
});

async function serve(script: unknown): Promise<RunningMock> {
  const parsed = parseMockScript(JSON.stringify(script), "mock.json");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const mock = await startMock({ script: parsed.value });
  running.push(mock);
  return mock;
}

function sdk(mock: RunningMock, maxRetries = 0): Anthropic {
  return new Anthropic({ apiKey: "mock-key", baseURL: mock.url, maxRetries });
}

/** The error body's message, as the API (and the mock) put it. */
function bodyMessage(error: unknown): string {
  const body = (error as { error?: { error?: { message?: string } } }).error;
  return body?.error?.message ?? "";
}

const base = { model: "claude-sonnet-5-5", max_tokens: 256 } as const;

function ask(
  client: Anthropic,
  prompt: string,
  step?: string,
  history: Anthropic.MessageParam[] = [],
) {
  return client.messages.create(
    { ...base, messages: [{ role: "user", content: prompt }, ...history] },
    step === undefined ? {} : { headers: { [STEP_HEADER]: step } },
  );
}

describe("startMock (the real SDK against a script)", () => {
  it("answers a step's turns in order: tool calls first, then the structured output", async () => {
    const mock = await serve({
      rules: [
        { step: "other.step", reply: { text: "wrong rule" } },
        {
          step: "initial.work",
          turns: [
            { toolCalls: [{ name: "Glob", input: { pattern: "*.md" } }], text: "Looking first." },
            { output: { next_action: { action: "next" } } },
          ],
        },
      ],
    });
    const client = sdk(mock);
    const first = await ask(client, "# Step: plan", "initial.work");
    expect(first.stop_reason).toBe("tool_use");
    expect(first.content.map((block) => block.type)).toEqual(["text", "tool_use"]);
    const call = first.content[1] as Anthropic.ToolUseBlock;
    expect(call).toMatchObject({ name: "Glob", input: { pattern: "*.md" } });
    const second = await ask(client, "# Step: plan", "initial.work", [
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "a.md" }] },
    ]);
    expect(second.content[0]).toMatchObject({ text: '{"next_action":{"action":"next"}}' });
    expect(mock.served.map((served) => [served.rule, served.facts.turn, served.answered])).toEqual([
      ["$.rules[1]", 0, "toolCalls"],
      ["$.rules[1]", 1, "output"],
    ]);
  });

  it("matches by prompt text or a regular expression when no step is named", async () => {
    const mock = await serve({
      rules: [
        { prompt: "commit your work", reply: { text: "by text" } },
        { promptMatches: "^# Step: (plan|review)", reply: { text: "by pattern" } },
      ],
    });
    const client = sdk(mock);
    expect((await ask(client, "Please commit your work now")).content[0]).toMatchObject({
      text: "by text",
    });
    expect((await ask(client, "# Step: review it")).content[0]).toMatchObject({
      text: "by pattern",
    });
  });

  it("injects 529 overloaded errors the SDK retries, a bounded number of times", async () => {
    const mock = await serve({
      rules: [
        { step: "a", reply: { text: "after two", failFirst: { status: 529, times: 2 } } },
        { step: "b", reply: { text: "never", failFirst: { status: 529, times: 5 } } },
      ],
    });
    const client = sdk(mock, 2);
    expect((await ask(client, "x", "a")).content[0]).toMatchObject({ text: "after two" });
    const failed = await ask(client, "x", "b").catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Anthropic.APIError);
    expect(failed).toMatchObject({ status: 529, error: { error: { type: "overloaded_error" } } });
    // Two retries, then the error: three requests for b, no more.
    expect(mock.served.map((served) => `${served.facts.step}:${served.answered}`)).toEqual([
      "a:error",
      "a:error",
      "a:text",
      "b:error",
      "b:error",
      "b:error",
    ]);
  });

  it("keeps no history when told (a long-lived server), and still reports each request", async () => {
    const parsed = parseMockScript(JSON.stringify({ rules: [{ reply: { text: "ok" } }] }));
    if (!parsed.ok) throw new Error("bad script");
    const heard: string[] = [];
    const mock = await startMock({
      script: parsed.value,
      keepHistory: false,
      onServed: (served) => heard.push(`#${served.index} ${served.rule} ${served.answered}`),
    });
    running.push(mock);
    await ask(sdk(mock), "one");
    await ask(sdk(mock), "two");
    expect(heard).toEqual(["#1 $.rules[0] text", "#2 $.rules[0] text"]);
    expect(mock.served).toEqual([]);
    expect(mock.server.requests).toEqual([]);
  });

  it("waits delayMs before answering", async () => {
    const mock = await serve({ rules: [{ reply: { text: "slow", delayMs: 300 } }] });
    const started = performance.now();
    await ask(sdk(mock), "anything");
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("answers a request no rule takes with AC-MOCK-003, naming its step and the closest rule", async () => {
    const mock = await serve({
      rules: [
        { step: "initial.work", reply: { text: "a" } },
        { name: "work", step: "continuation.wrk", reply: { text: "b" } },
        { step: "closure.done", prompt: "finish", reply: { text: "c" } },
      ],
    });
    const client = sdk(mock, 2);
    const failed = await ask(client, "# Step: do the work", "continuation.work").catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Anthropic.BadRequestError);
    const message = bodyMessage(failed);
    expect(message).toContain(MOCK_CODES.noMatch);
    expect(message).toContain('step "continuation.work", turn 0');
    expect(message).toContain('$.rules[1] "work": its step is "continuation.wrk"');
    // Not retried: asking again cannot change the script.
    expect(mock.server.messageRequests()).toHaveLength(1);

    const tooMany = await ask(client, "# Step", "initial.work", [
      { role: "assistant", content: "a" },
      { role: "user", content: "again" },
    ]).catch((error: unknown) => error);
    expect(bodyMessage(tooMany)).toMatch(/\$\.rules\[0\]: it has 1 turn and this is turn 1/);
  });
});
