import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { reply } from "@climpt/mock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFakeScript } from "./script-file.ts";
import { serveFakeScript } from "./serve-script.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "fake-script-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("serving a scripted JSON file (the climpt-fake-anthropic CLI)", () => {
  it("serves the replies in order, then the fallback, and logs requests without credentials", async () => {
    const scriptPath = join(dir, "script.json");
    const requestsLog = join(dir, "requests.jsonl");
    await writeFile(
      scriptPath,
      JSON.stringify({
        replies: [reply.text("first"), reply.json({ ok: true })],
        fallback: reply.error(400),
      }),
    );
    const served = await serveFakeScript({ scriptPath, requestsLog });
    const client = new Anthropic({
      apiKey: "sk-ant-secret-in-header",
      baseURL: served.fake.url,
      maxRetries: 0,
    });
    const params = {
      model: "claude-sonnet-5-5",
      max_tokens: 64,
      messages: [{ role: "user" as const, content: "hi" }],
    };
    const first = await client.messages.create(params);
    const second = await client.messages.create(params);
    const third = await client.messages.create(params).catch((error: unknown) => error);
    await served.stop();
    expect(first.content[0]).toMatchObject({ text: "first" });
    expect(second.content[0]).toMatchObject({ text: '{"ok":true}' });
    expect(third).toBeInstanceOf(Anthropic.BadRequestError);
    const log = await readFile(requestsLog, "utf8");
    expect(log.trim().split("\n")).toHaveLength(3);
    expect(log).not.toContain("sk-ant-secret-in-header");
    expect(JSON.parse(log.split("\n")[0] ?? "{}")).toMatchObject({
      path: "/v1/messages",
      body: params,
    });
  });

  it("names the file and the entry of a bad script", () => {
    expect(() => parseFakeScript('{"replies":[{"kind":"nope"}]}', "s.json")).toThrow(
      /s\.json at \$\.replies\[0\]/,
    );
    expect(() => parseFakeScript("not json", "s.json")).toThrow(/s\.json: not valid JSON/);
  });
});
