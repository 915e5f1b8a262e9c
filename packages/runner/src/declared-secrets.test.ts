/**
 * Values the agent declares secret (agent.json `runner.boundaries.secrets`): a variable whose
 * name says nothing about secrets is scrubbed like a token once the agent names it, and never
 * enters the OS sandbox (docs/design.md#tools-and-their-boundary).
 */
import { readFileSync } from "node:fs";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { type FakeRequest, reply, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { intentReply, writeTestAgent } from "./agents.test-helper.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 5 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** A name no secret detector recognises, and a value that looks like nothing in particular. */
const NAME = "WAREHOUSE_LOCATION";
const VALUE = "w16d-warehouse-7f3a9c2e5b8e1d40";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function agent(options: { declare: boolean; sandbox: "off" | "required" }): string {
  return writeTestAgent({
    name: "declares",
    entryStep: "initial.main",
    steps: {
      "initial.main": {
        intents: ["handoff"],
        transitions: { handoff: { target: "closure.done" } },
      },
      "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
    },
    runner: {
      boundaries: {
        allowedTools: ["Read", "Bash"],
        permissionMode: "acceptEdits",
        sandbox: options.sandbox,
        ...(options.declare ? { secrets: [NAME] } : {}),
      },
    },
  });
}

function count(text: string): number {
  return text.split(VALUE).length - 1;
}

/** The text of the tool_result the model was sent. */
function toolResultSent(requests: readonly FakeRequest[]): string {
  return (
    requests.map((request) => request.rawBody).find((body) => body.includes("tool_result")) ?? ""
  );
}

async function run(options: { declare: boolean; sandbox: "off" | "required" }) {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  fake.enqueue(
    reply.toolUse({
      name: "Bash",
      input: { command: `echo "value=\${${NAME}:-unset}"; env | grep ${NAME}; true` },
    }),
    intentReply("handoff"),
    intentReply("closing"),
  );
  const loaded = await loadAgentDefinition(agent(options));
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0 }),
    env: { [NAME]: VALUE },
  }).run({ cwd: makeSampleRepo(), args: {} });
  expect(result.success, JSON.stringify(result.error)).toBe(true);
  return {
    result,
    journal: readFileSync(result.journalPath ?? "", "utf8"),
    requests: fake.messageRequests(),
  };
}

describe("runner.boundaries.secrets", () => {
  it("a declared variable's value, printed by a tool: 0 occurrences in journal, result and the next request", async () => {
    const { result, journal, requests } = await run({ declare: true, sandbox: "off" });
    // The command saw the value (unsandboxed) and printed it; the label stands in its place.
    expect(toolResultSent(requests)).toContain(`value=[REDACTED ${NAME}]`);
    expect(count(journal)).toBe(0);
    expect(count(JSON.stringify(result))).toBe(0);
    expect(requests).toHaveLength(3);
    expect(count(requests.map((request) => request.rawBody).join("\n"))).toBe(0);
  });

  it("undeclared, the same value is not recognised (what the declaration is for)", async () => {
    const { journal, requests } = await run({ declare: false, sandbox: "off" });
    expect(count(toolResultSent(requests))).toBeGreaterThan(0);
    expect(count(journal)).toBeGreaterThan(0);
  });

  it("a declared variable does not enter the OS sandbox", async () => {
    const { journal, requests } = await run({ declare: true, sandbox: "required" });
    expect(toolResultSent(requests)).toContain("value=unset");
    expect(count(journal)).toBe(0);
  });
});
