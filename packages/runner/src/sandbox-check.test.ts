/**
 * The agent's sandbox setting, as a run sees it: "off" is recorded in the journal as a notice and
 * Bash then runs unsandboxed. (The refusal where the sandbox cannot start, RUN-SANDBOX-001, is not
 * tested here: making the probe fail poisons its per-process cache for the test files that share
 * the worker.)
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { loadAgentDefinition } from "./agent-location.ts";
import { intentReply, writeTestAgent } from "./agents.test-helper.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

const closers: Array<() => Promise<void>> = [];
const savedPath = process.env.PATH;
afterEach(async () => {
  process.env.PATH = savedPath;
  for (const close of closers.splice(0)) await close();
});

function agentWithSandbox(sandbox: string): string {
  return writeTestAgent({
    name: "sandboxed",
    entryStep: "initial.main",
    steps: {
      "initial.main": {
        intents: ["handoff"],
        transitions: { handoff: { target: "closure.done" } },
      },
      "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
    },
    runner: {
      boundaries: { allowedTools: ["Read", "Bash"], permissionMode: "acceptEdits", sandbox },
    },
  });
}

async function fakeApi() {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  return {
    fake,
    client: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
  };
}

describe("runner.boundaries.sandbox", () => {
  it('"off" is a notice in the journal, and Bash runs unsandboxed', async () => {
    const { fake, client } = await fakeApi();
    const cwd = makeSampleRepo();
    // Outside the working directory: only an unsandboxed command can write there.
    const outside = path.join(path.dirname(cwd), `${path.basename(cwd)}-outside.txt`);
    fake.enqueue(
      reply.toolUse({ name: "Bash", input: { command: `echo out > ${outside}` } }),
      intentReply("handoff"),
      intentReply("closing"),
    );
    const loaded = await loadAgentDefinition(agentWithSandbox("off"));
    const events: { type: string; message?: string }[] = [];
    const result = await new StepFlowRunner(loaded, {
      modelClient: client,
      onEvent: (event) => events.push(event as { type: string; message?: string }),
    }).run({ cwd, args: {} });
    expect(result.success).toBe(true);
    expect(existsSync(outside)).toBe(true);
    const notices = events.filter((event) => event.type === "notice").map((e) => e.message ?? "");
    expect(notices.some((message) => message.includes("RUN-SANDBOX-002"))).toBe(true);
    const journal = readFileSync(result.journalPath ?? "", "utf8");
    expect(journal).toContain("RUN-SANDBOX-002");
  });
});
