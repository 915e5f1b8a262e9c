/**
 * The executor end to end: the real Claude Agent SDK starts the real Claude Code binary of its
 * platform package, which talks to the fake Messages API on 127.0.0.1. Nothing is mocked.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { costOf, type StepEvent, type Usage } from "@climpt/sdk-adapter";
import { reply } from "@climpt/testing";
import { describe, expect, it, vi } from "vitest";
import {
  agentDefinition,
  createClaudeCodeExecutor,
  INTENT_SCHEMA,
  lastMessageBlocks,
  step,
  useFakeClaudeCode,
  useTempDirs,
} from "./claude-code.test-helper.ts";
import type { ToolRefusalEvent } from "./claude-code-executor.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 14 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const claude = useFakeClaudeCode();
const tempDir = useTempDirs();
const MODEL = "claude-sonnet-5-5";

function toolNamesOf(index: number): string[] {
  const body = claude.fake().messageRequests()[index]?.body as { tools?: { name: string }[] };
  return (body.tools ?? []).map((tool) => tool.name).sort();
}

function sumUsage(events: readonly StepEvent[]): Usage {
  const total = {
    inputTokens: 0,
    outputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
  };
  for (const event of events) {
    if (event.type !== "model-response") continue;
    total.inputTokens += event.usage.inputTokens;
    total.outputTokens += event.usage.outputTokens;
    total.cacheCreationInputTokens += event.usage.cacheCreationInputTokens;
    total.cacheReadInputTokens += event.usage.cacheReadInputTokens;
  }
  return total;
}

describe("a work step through Claude Code", () => {
  it("reads and edits files, runs a command, and returns the structured output", async () => {
    const cwd = tempDir();
    mkdirSync(path.join(cwd, "src"));
    writeFileSync(path.join(cwd, "src", "greet.js"), 'export const greet = (n) => "Hello " + m;\n');
    const file = path.join(cwd, "src", "greet.js");
    claude.fake().enqueue(
      reply.toolUse({ name: "Read", input: { file_path: file } }, { text: "Let me look." }),
      reply.toolUse({
        name: "Edit",
        input: { file_path: file, old_string: "+ m;", new_string: "+ n;" },
      }),
      reply.toolUse({ name: "Bash", input: { command: "cat src/greet.js", description: "show" } }),
      reply.toolUse({
        name: "StructuredOutput",
        input: { next_action: { action: "next" }, summary: "fixed the template variable" },
      }),
    );
    const events: StepEvent[] = [];
    const deltas: string[] = [];
    const result = await createClaudeCodeExecutor(claude.settings()).runStep({
      model: "sonnet",
      system: "You fix bugs.",
      prompt: "Fix src/greet.js.",
      outputSchema: INTENT_SCHEMA,
      cwd,
      agent: agentDefinition(),
      step: step("initial.issue", "work"),
      onEvent: (event) => events.push(event),
      onTextDelta: (delta) => deltas.push(delta),
    });

    expect(deltas.join("")).toBe("Let me look.");
    expect(readFileSync(file, "utf8")).toBe('export const greet = (n) => "Hello " + n;\n');
    expect(result.output).toEqual({
      next_action: { action: "next" },
      summary: "fixed the template variable",
    });
    expect(result.toolCalls.map((record) => [record.call.name, record.result.isError])).toEqual([
      ["Read", false],
      ["Edit", false],
      ["Bash", false],
    ]);
    expect(result.toolCalls[0]?.result.content).toContain('"Hello " + m');
    expect(result.toolCalls[2]?.result.content).toContain('"Hello " + n');
    expect(result.model).toBe(MODEL);
    expect(result.turns).toBe(4);
    expect(result.requestIds).toHaveLength(4);
    expect(result.repaired).toBe(false);
    expect(result.transcript[0]).toEqual({ role: "user", content: "Fix src/greet.js." });

    // One request per model call: no count_tokens, no title or side calls, no retried request.
    const requests = claude.fake().requests;
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(4).fill("POST /v1/messages"),
    );
    expect(requests.map((request) => (request.body as { model: string }).model)).toEqual(
      Array(4).fill(MODEL),
    );
    // The model sees the step's tools and Claude Code's output tool, plus the deferred-loading
    // placeholder Claude Code always sends (never to be called), nothing else.
    expect(toolNamesOf(0)).toEqual([
      "Bash",
      "DeferredToolPlaceholder",
      "Edit",
      "Glob",
      "Grep",
      "Read",
      "StructuredOutput",
      "Write",
    ]);
    const system = JSON.stringify((requests[0]?.body as { system?: unknown } | undefined)?.system);
    expect(system).toContain("You fix bugs.");

    // Events in the default executor's order, and usage summed over the calls.
    expect(events.map((event) => event.type)).toEqual([
      "model-request",
      "model-response",
      "tool-call",
      "tool-result",
      "model-request",
      "model-response",
      "tool-call",
      "tool-result",
      "model-request",
      "model-response",
      "tool-call",
      "tool-result",
      "model-request",
      "model-response",
    ]);
    const summed = sumUsage(events);
    expect(result.usage).toEqual(summed);
    expect(result.usage.cacheCreationInputTokens + result.usage.inputTokens).toBeGreaterThan(1000);
    expect(result.costUsd).toBeCloseTo(costOf(summed, MODEL) ?? -1, 9);
    expect(result.priced).toBe(true);
  });

  it("with systemPrompt claude-code, sends Claude Code's own system prompt with the agent's appended", async () => {
    claude.fake().enqueue(
      reply.toolUse({
        name: "StructuredOutput",
        input: { next_action: { action: "next" }, summary: "ok" },
      }),
    );
    await createClaudeCodeExecutor(claude.settings({ systemPrompt: "claude-code" })).runStep({
      model: MODEL,
      system: "AGENT SYSTEM PROMPT MARKER",
      prompt: "Go.",
      outputSchema: INTENT_SCHEMA,
      cwd: tempDir(),
      agent: agentDefinition(),
      step: step("initial.issue", "work"),
    });
    const body = claude.fake().messageRequests()[0]?.body as
      | { system?: { text: string }[] }
      | undefined;
    const system = body?.system;
    const text = (system ?? []).map((block) => block.text).join("\n");
    expect(text.length).toBeGreaterThan(5000);
    expect(text.trimEnd().endsWith("AGENT SYSTEM PROMPT MARKER")).toBe(true);
  });

  it("refuses a boundary command and a write outside the working directory; the model sees tool errors", async () => {
    const cwd = tempDir();
    const outside = path.join(tempDir("climpt-cc-outside-"), "escaped.txt");
    // A fake gh that leaves a mark if anything ever runs it.
    const bin = tempDir("climpt-cc-bin-");
    writeFileSync(path.join(bin, "gh"), `#!/bin/sh\necho "$@" > "${cwd}/gh-was-run"\n`, {
      mode: 0o755,
    });
    claude.fake().enqueue(
      reply.toolUse({ name: "Bash", input: { command: "gh issue close 1", description: "close" } }),
      reply.toolUse({ name: "Write", input: { file_path: outside, content: "escaped" } }),
      reply.toolUse({
        name: "StructuredOutput",
        input: { next_action: { action: "next" }, summary: "could not close" },
      }),
    );
    const refusals: ToolRefusalEvent[] = [];
    const result = await createClaudeCodeExecutor(
      claude.settings({ envExtra: { PATH: `${bin}:${process.env.PATH}` } }),
    ).runStep({
      model: MODEL,
      prompt: "Close the issue.",
      outputSchema: INTENT_SCHEMA,
      cwd,
      agent: agentDefinition(),
      step: step("initial.issue", "work"),
      onToolRefused: (event) => refusals.push(event),
    });

    const requests = claude.fake().messageRequests();
    expect(requests).toHaveLength(3);
    expect(lastMessageBlocks(requests[1])).toEqual([
      expect.objectContaining({
        type: "tool_result",
        is_error: true,
        content: expect.stringContaining("TOOL-POLICY-003"),
      }),
    ]);
    expect(JSON.stringify(lastMessageBlocks(requests[1]))).toContain("gh issue close");
    expect(lastMessageBlocks(requests[2])).toEqual([
      expect.objectContaining({
        type: "tool_result",
        is_error: true,
        content: expect.stringContaining("TOOL-POLICY-004"),
      }),
    ]);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(path.join(cwd, "gh-was-run"))).toBe(false);
    expect(refusals.map((event) => [event.tool, event.code])).toEqual([
      ["Bash", "TOOL-POLICY-003"],
      ["Write", "TOOL-POLICY-004"],
    ]);
    expect(result.toolCalls.map((record) => [record.call.name, record.result.isError])).toEqual([
      ["Bash", true],
      ["Write", true],
    ]);
    expect(result.output).toEqual({ next_action: { action: "next" }, summary: "could not close" });
  });
});
