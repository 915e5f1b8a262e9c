/**
 * Secrets never leave a run: tokens a tool prints, a model reply that repeats one, and an API
 * error body that echoes one are absent from the journal, the `--record` cassette, the result,
 * the events listeners see, and every request sent to the model.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { intentReply, writeTestAgent } from "../agents.test-helper.ts";
import { makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { tempDirForFile } from "../temp-dirs.test-helper.ts";
import { loadAgentDefinition } from "./agent-location.ts";

const GH_TOKEN = "ghp_W16cTestToken0123456789abcdefABCDEF";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYW16cSECRET";
const API_KEY = "sk-ant-api03-w16c-test-key-0123456789";
const SECRETS = [GH_TOKEN, AWS_SECRET, API_KEY];

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Bash unsandboxed, so the tokens really reach the command and only scrubbing can hide them. */
function agent(): string {
  return writeTestAgent({
    name: "leaky",
    entryStep: "initial.main",
    steps: {
      "initial.main": {
        intents: ["handoff"],
        transitions: { handoff: { target: "closure.done" } },
        handoffFields: ["summary"],
      },
      "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
    },
    runner: {
      boundaries: { allowedTools: ["Read", "Bash"], permissionMode: "acceptEdits", sandbox: "off" },
    },
  });
}

function occurrences(text: string): number {
  return SECRETS.reduce((count, secret) => count + text.split(secret).length - 1, 0);
}

describe("secrets never leave a run", () => {
  it("tool output, model text and the result: 0 occurrences in journal, cassette, result, events and requests", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(
      reply.toolUse({
        name: "Bash",
        input: {
          command:
            'echo "gh=$GH_TOKEN aws=$AWS_SECRET_ACCESS_KEY"; tr "\\0" "\\n" < /proc/$PPID/environ | grep -E "TOKEN|SECRET|API_KEY"; true',
        },
      }),
      // A model that repeats a secret it should not know: the journal still never holds it.
      intentReply("handoff", { summary: `the token is ${GH_TOKEN}` }),
      intentReply("closing"),
    );
    const cassette = path.join(tempDirForFile("climpt-cassette-"), "run.jsonl");
    const events: unknown[] = [];
    const loaded = await loadAgentDefinition(agent());
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: API_KEY, baseURL: fake.url, maxRetries: 0 }),
      env: { GH_TOKEN, AWS_SECRET_ACCESS_KEY: AWS_SECRET, ANTHROPIC_API_KEY: API_KEY },
      onEvent: (event) => events.push(event),
    }).run({ cwd: makeSampleRepo(), args: {}, record: cassette });

    expect(result.success).toBe(true);
    const journal = readFileSync(result.journalPath ?? "", "utf8");
    // The command ran and printed them: what the journal holds in their place is the label.
    expect(journal).toContain("[REDACTED GH_TOKEN]");
    expect(journal).toContain("[REDACTED AWS_SECRET_ACCESS_KEY]");
    expect(occurrences(journal)).toBe(0);
    expect(occurrences(readFileSync(cassette, "utf8"))).toBe(0);
    expect(occurrences(JSON.stringify(result))).toBe(0);
    expect(occurrences(JSON.stringify(events))).toBe(0);
    // The bodies: the API key belongs in the authorization header of each request, nowhere else.
    const bodies = fake.messageRequests().map((request) => request.rawBody);
    expect(bodies.length).toBe(3);
    expect(occurrences(bodies.join("\n"))).toBe(0);
  });

  it("an API error body that echoes a token: 0 occurrences in the result and the journal", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(
      reply.error(400, {
        type: "invalid_request_error",
        message: `bad header x-gh: ${GH_TOKEN} with key ${API_KEY}`,
      }),
    );
    const loaded = await loadAgentDefinition(agent());
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: API_KEY, baseURL: fake.url, maxRetries: 0 }),
      env: { GH_TOKEN, ANTHROPIC_API_KEY: API_KEY },
    }).run({ cwd: makeSampleRepo(), args: {} });
    expect(result.success).toBe(false);
    expect(result.error?.message).toContain("[REDACTED GH_TOKEN]");
    expect(occurrences(JSON.stringify(result))).toBe(0);
    expect(occurrences(readFileSync(result.journalPath ?? "", "utf8"))).toBe(0);
  });
});
