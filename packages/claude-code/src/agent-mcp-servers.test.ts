/**
 * The agent's MCP servers under the claude-code executor: the same servers, the same allowedTools
 * names, the same confinement as under the default executor. Real Claude Code binary, fake API,
 * the real everything server from npm, started by Claude Code through climpt's sandbox launch.
 */
import { createRequire } from "node:module";
import path from "node:path";
import type { McpServerConfig } from "@climpt/model";
import { reply } from "@climpt/testing";
import { describe, expect, it, vi } from "vitest";
import {
  agentDefinition,
  createClaudeCodeExecutor,
  DUMMY_KEY,
  INTENT_SCHEMA,
  lastMessageBlocks,
  step,
  useFakeClaudeCode,
  useTempDirs,
} from "./claude-code.test-helper.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

const claude = useFakeClaudeCode();
const tempDir = useTempDirs();
const require = createRequire(import.meta.url);
const EVERYTHING = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);

describe("the agent's MCP servers in a Claude Code session", () => {
  it("are offered as mcp__<server>__<tool> and run with only the declared environment", async () => {
    const cwd = tempDir();
    const everything: McpServerConfig = {
      transport: "stdio",
      command: process.execPath,
      args: [EVERYTHING, "stdio"],
      env: { DECLARED_VALUE: "declared-123" },
    };
    claude.fake().enqueue(
      reply.toolUse({ name: "mcp__everything__get-env", input: {} }),
      reply.toolUse({
        name: "StructuredOutput",
        input: { next_action: { action: "next" }, summary: "done" },
      }),
    );
    await createClaudeCodeExecutor(claude.settings()).runStep({
      model: "sonnet",
      prompt: "Do the step.",
      outputSchema: INTENT_SCHEMA,
      cwd,
      agent: agentDefinition({
        allowedTools: ["Read", "mcp__everything"],
        mcpServers: { everything },
      }),
      step: step("initial.issue", "work"),
    });
    const requests = claude.fake().messageRequests();
    const offered = JSON.stringify(requests.map((request) => request.body));
    expect(offered).toContain("mcp__everything__get-env");
    const [block] = lastMessageBlocks(requests.at(-1));
    const text = JSON.stringify(block);
    expect(text).toContain("declared-123");
    expect(text).toContain("CLIMPT_SANDBOX");
    expect(text).not.toContain(DUMMY_KEY);
    expect(text).not.toContain("ANTHROPIC");
  });
});
