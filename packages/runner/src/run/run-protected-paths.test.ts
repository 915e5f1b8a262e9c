/**
 * The run's journal and the agent definitions are not the model's to change
 * (docs/design.md#tools-and-their-boundary): Write, Edit and the sandboxed Bash refuse them, so
 * nothing the model leaves there is trusted by `climpt resume` or run by the next `climpt run`.
 */
import { cpSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { JsonValue } from "@climpt/model";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { intentReply, writeTestAgent } from "../agents.test-helper.ts";
import { git, makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { loadAgentDefinition } from "./agent-location.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 8 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The agent, committed in the repository's own `.agent/guarded/`, as `climpt run` finds it. */
function repoWithAgent(boundaries: Readonly<Record<string, JsonValue>> = {}): {
  repo: string;
  agentDir: string;
} {
  const written = writeTestAgent({
    name: "guarded",
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
        allowedTools: ["Read", "Write", "Edit", "Bash"],
        permissionMode: "acceptEdits",
        ...boundaries,
      },
    },
  });
  const repo = makeSampleRepo();
  const agentDir = path.join(repo, ".agent", "guarded");
  cpSync(written, agentDir, { recursive: true });
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "the agent");
  return { repo, agentDir };
}

/** The tool results the model was sent, by tool_use id, joined: what the tools answered. */
function toolResultsSent(requests: readonly { readonly rawBody: string }[]): string {
  const results = new Map<string, string>();
  for (const request of requests) {
    const body = JSON.parse(request.rawBody) as {
      messages: { content: string | { type: string; tool_use_id?: string; content?: string }[] }[];
    };
    for (const message of body.messages) {
      if (typeof message.content === "string") continue;
      for (const block of message.content) {
        if (block.type === "tool_result") results.set(block.tool_use_id ?? "", block.content ?? "");
      }
    }
  }
  return [...results.values()].join("\n");
}

const ATTACK = [
  'J=$(ls tmp/climpt/logs/*.jsonl | head -1); echo \'{"type":"run_end"}\' >> "$J" || echo journal-refused',
  "mv tmp/climpt/logs tmp/climpt/old 2>/dev/null || echo journal-move-refused",
  'echo \'{"name":"guarded"}\' > .agent/guarded/agent.json || echo agent-refused',
  "mkdir .agent/other 2>/dev/null || echo agents-refused",
].join("; ");

async function run(boundaries: Readonly<Record<string, JsonValue>> = {}) {
  const { repo, agentDir } = repoWithAgent(boundaries);
  const agentJson = readFileSync(path.join(agentDir, "agent.json"), "utf8");
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  fake.enqueue(
    reply.toolUse({
      name: "Write",
      input: { file_path: ".agent/guarded/steps_registry.json", content: "{}" },
    }),
    reply.toolUse({ name: "Bash", input: { command: ATTACK } }),
    intentReply("handoff"),
    intentReply("closing"),
  );
  const loaded = await loadAgentDefinition(agentDir);
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0 }),
  }).run({ cwd: repo, args: {} });
  expect(result.success, JSON.stringify(result.error)).toBe(true);
  return { repo, agentDir, agentJson, result, sent: toolResultsSent(fake.messageRequests()) };
}

describe("what no tool of a run may change", () => {
  it("refuses the journal folder and the agent definitions to Write and to the sandboxed Bash", async () => {
    const { repo, agentDir, agentJson, result, sent } = await run();
    expect(sent).toContain(
      'TOOL-POLICY-004 refused by the working-directory policy: ".agent/guarded/steps_registry.json" is inside .agent',
    );
    for (const word of [
      "journal-refused",
      "journal-move-refused",
      "agent-refused",
      "agents-refused",
    ]) {
      expect(sent).toContain(word);
    }
    expect(readFileSync(path.join(agentDir, "agent.json"), "utf8")).toBe(agentJson);
    expect(git(repo, "status", "--porcelain", "--", ".agent")).toBe("");
    expect(readdirSync(path.join(repo, ".agent"))).toEqual(["guarded"]);
    // The journal ends with the run's own end, and holds no line the model wrote.
    const lines = readFileSync(result.journalPath ?? "", "utf8")
      .trim()
      .split("\n");
    expect(lines.filter((line) => line === '{"type":"run_end"}')).toEqual([]);
    expect(JSON.parse(lines.at(-1) ?? "{}")).toMatchObject({ type: "run_end" });
    const refused = lines
      .map((line) => JSON.parse(line) as { type: string; tool?: string })
      .filter((event) => event.type === "tool_refused");
    expect(refused.map((event) => event.tool)).toEqual(["Write"]);
  });

  it("lets an agent that declares editAgents change agent definitions, never its journal", async () => {
    const { agentDir, sent } = await run({ editAgents: true });
    expect(sent).not.toContain("TOOL-POLICY-004");
    expect(sent).toContain("journal-refused");
    expect(sent).not.toContain("agent-refused");
    expect(readFileSync(path.join(agentDir, "agent.json"), "utf8")).toBe('{"name":"guarded"}\n');
    expect(readFileSync(path.join(agentDir, "steps_registry.json"), "utf8")).toBe("{}");
  });
});
