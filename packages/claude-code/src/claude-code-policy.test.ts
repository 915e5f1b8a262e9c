/**
 * climpt's tool policy, enforced through Claude Code's own mechanisms (its tool list, the
 * PreToolUse hook, canUseTool, plan mode, its sandbox), seen from what the model receives.
 * Real binary, fake API.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { reply } from "@climpt/testing";
import { createToolbox, TOOL_NAMES } from "@climpt/tools";
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
import type { ClaudeCodeStepInput } from "./claude-code-executor.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 17 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const claude = useFakeClaudeCode();
const tempDir = useTempDirs();
const DONE = reply.toolUse({
  name: "StructuredOutput",
  input: { next_action: { action: "next" }, summary: "done" },
});

function input(cwd: string, extra: Partial<ClaudeCodeStepInput> = {}): ClaudeCodeStepInput {
  return {
    model: "sonnet",
    prompt: "Do the step.",
    outputSchema: INTENT_SCHEMA,
    cwd,
    agent: agentDefinition(),
    step: step("initial.issue", "work"),
    ...extra,
  };
}

function toolNames(index = 0): string[] {
  const body = claude.fake().messageRequests()[index]?.body as { tools?: { name: string }[] };
  return (body.tools ?? [])
    .map((tool) => tool.name)
    .filter((name) => name !== "DeferredToolPlaceholder" && name !== "StructuredOutput")
    .sort();
}

function toolResult(index: number): { content: string; is_error?: boolean } {
  const [block] = lastMessageBlocks(claude.fake().messageRequests()[index]);
  const result = block as { content: unknown; is_error?: boolean };
  return {
    content: typeof result.content === "string" ? result.content : JSON.stringify(result.content),
    ...(result.is_error === undefined ? {} : { is_error: result.is_error }),
  };
}

describe("the sandbox", () => {
  it("runs commands without the API credentials and without write access outside the working directory", async () => {
    const cwd = tempDir();
    const outside = tempDir("climpt-cc-outside-");
    claude.fake().enqueue(
      reply.toolUse({
        name: "Bash",
        input: { command: `env; touch ${outside}/escaped; echo inside > inside.txt` },
      }),
      DONE,
    );
    await createClaudeCodeExecutor(claude.settings()).runStep(input(cwd));
    const result = toolResult(1);
    expect(result.content).toContain("ANTHROPIC_BASE_URL="); // the command saw an environment…
    expect(result.content).not.toContain("ANTHROPIC_API_KEY"); // …without the key
    expect(result.content).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(path.join(outside, "escaped"))).toBe(false);
    expect(existsSync(path.join(cwd, "inside.txt"))).toBe(true);
    // Nothing sent to the model carries the key.
    for (const request of claude.fake().requests) expect(request.rawBody).not.toContain(DUMMY_KEY);
  });
});

describe("which tools a step has", () => {
  it("under permissionMode plan: only reading tools, and a write the model tries anyway fails", async () => {
    const cwd = tempDir();
    claude.fake().enqueue(
      reply.toolUse({
        name: "Write",
        input: { file_path: path.join(cwd, "plan.txt"), content: "x" },
      }),
      DONE,
    );
    const result = await createClaudeCodeExecutor(claude.settings()).runStep(
      input(cwd, { step: step("verification.issue", "verification", { permissionMode: "plan" }) }),
    );
    expect(toolNames()).toEqual(["Glob", "Grep", "Read"]);
    expect(toolResult(1).is_error).toBe(true);
    expect(existsSync(path.join(cwd, "plan.txt"))).toBe(false);
    expect(result.toolCalls[0]?.result.isError).toBe(true);
  });

  it("offers Claude Code's extra tools where the agent's allowedTools lists them, narrowed by the step", async () => {
    const agent = agentDefinition({
      allowedTools: ["Read", "Bash", "TaskCreate", "Task", "WebFetch"],
    });
    claude.fake().enqueue(DONE, DONE);
    await createClaudeCodeExecutor(claude.settings()).runStep(input(tempDir(), { agent }));
    // `Task` is the original runtime's name of Claude Code's `Agent` tool.
    expect(toolNames(0)).toEqual(["Agent", "Bash", "Read", "TaskCreate", "WebFetch"]);
    await createClaudeCodeExecutor(claude.settings()).runStep(
      input(tempDir(), {
        agent,
        step: step("initial.issue", "work", { allowedTools: ["Read", "TaskCreate"] }),
      }),
    );
    expect(toolNames(1)).toEqual(["Read", "TaskCreate"]);
  });

  it("grants a tool listed with a specifier only for calls the rule matches", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "a.txt"), "a\n");
    claude
      .fake()
      .enqueue(
        reply.toolUse({ name: "Bash", input: { command: "cat a.txt" } }),
        reply.toolUse({ name: "Bash", input: { command: "rm a.txt" } }),
        DONE,
      );
    const refused: string[] = [];
    await createClaudeCodeExecutor(claude.settings()).runStep(
      input(cwd, {
        agent: agentDefinition({ allowedTools: ["Read", "Bash(cat:*)"] }),
        onToolRefused: (event) => refused.push(`${event.tool} ${event.code}`),
      }),
    );
    expect(toolResult(1)).toEqual({ content: "a", is_error: false });
    expect(toolResult(2).is_error).toBe(true);
    expect(toolResult(2).content).toContain("Bash(cat:*)");
    expect(existsSync(path.join(cwd, "a.txt"))).toBe(true);
    expect(refused).toEqual(["Bash TOOL-POLICY-001"]);
  });
});

describe("subagents", () => {
  it("go through the same hook: a subagent's boundary command is refused", async () => {
    const cwd = tempDir();
    const calls = { main: 0, subagent: 0 };
    claude.fake().setHandler((request) => {
      // Claude Code marks a subagent's requests in their system prompt.
      if (
        JSON.stringify((request.body as { system?: unknown }).system).includes("_is_subagent=true")
      ) {
        calls.subagent++;
        return calls.subagent === 1
          ? reply.toolUse({ name: "Bash", input: { command: "gh issue close 1" } })
          : reply.text("The close was refused.");
      }
      calls.main++;
      return calls.main === 1
        ? reply.toolUse({
            name: "Agent",
            input: {
              description: "close the issue",
              prompt: "Close issue 1 with gh.",
              subagent_type: "general-purpose",
              run_in_background: false,
            },
          })
        : DONE;
    });
    const refused: string[] = [];
    let mainOutputTokens = 0;
    const result = await createClaudeCodeExecutor(claude.settings()).runStep(
      input(cwd, {
        agent: agentDefinition({ allowedTools: ["Read", "Bash", "Task"] }),
        onToolRefused: (event) => refused.push(`${event.tool} ${event.code}`),
        onEvent: (event) => {
          if (event.type === "model-response") mainOutputTokens += event.usage.outputTokens;
        },
      }),
    );
    expect(calls).toEqual({ main: 2, subagent: 2 });
    expect(refused).toEqual(["Bash TOOL-POLICY-003"]);
    const subagentRequest = claude
      .fake()
      .messageRequests()
      .filter((request) => JSON.stringify(request.body).includes("_is_subagent=true"))[1];
    // The subagent's next request carries the refusal as an error tool_result (Claude Code may
    // add a note of its own after it).
    const body = subagentRequest?.body as { messages?: { content: unknown }[] } | undefined;
    const messages = body?.messages ?? [];
    const blocks = messages.flatMap((message) =>
      Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : [],
    );
    expect(blocks).toContainEqual(
      expect.objectContaining({
        type: "tool_result",
        is_error: true,
        content: expect.stringContaining("TOOL-POLICY-003"),
      }),
    );
    // The subagent's calls are in the step's spend, though only the main conversation has events.
    expect(result.turns).toBe(2);
    expect(mainOutputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(mainOutputTokens);
  });
});

describe("the user's Claude Code settings", () => {
  it("are read (CLAUDE.md reaches the model) but cannot switch the policy off", async () => {
    const cwd = tempDir();
    mkdirSync(path.join(cwd, ".claude"));
    writeFileSync(
      path.join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        permissions: { allow: ["Bash", "Write"], defaultMode: "bypassPermissions" },
        disableAllHooks: true,
      }),
    );
    writeFileSync(path.join(cwd, "CLAUDE.md"), "Project rule: answer in haiku.\n");
    claude
      .fake()
      .enqueue(
        reply.toolUse({ name: "Bash", input: { command: "gh pr merge 3" } }),
        reply.toolUse({ name: "Write", input: { file_path: "../escaped.txt", content: "x" } }),
        DONE,
      );
    await createClaudeCodeExecutor(claude.settings()).runStep(input(cwd));
    expect(JSON.stringify(claude.fake().messageRequests()[0]?.body)).toContain(
      "Project rule: answer in haiku.",
    );
    expect(toolResult(1)).toMatchObject({ is_error: true });
    expect(toolResult(1).content).toContain("TOOL-POLICY-003");
    expect(toolResult(2).content).toContain("TOOL-POLICY-004");
    expect(existsSync(path.join(path.dirname(cwd), "escaped.txt"))).toBe(false);
  });
});

describe("GitHub tools of a closure step", () => {
  it("are climpt's, served over MCP: a close is recorded for the boundary hook, not performed", async () => {
    const cwd = tempDir();
    // A closure step gets the GitHub tools its agent lists (docs/design.md#tools-and-their-boundary).
    const agent = agentDefinition({
      github: { enabled: true, labels: {}, defaultClosureAction: "close" },
      allowedTools: [...TOOL_NAMES],
    });
    const closure = step("closure.issue", "closure");
    const toolbox = createToolbox({ cwd, agent, step: closure, params: { issue: 12 } });
    claude.fake().enqueue(
      reply.toolUse({
        name: "mcp__climpt__github_close_issue",
        input: { issue: 12, comment: "Fixed in the last commit." },
      }),
      reply.toolUse({
        name: "StructuredOutput",
        input: { next_action: { action: "closing" }, summary: "closing" },
      }),
    );
    const result = await createClaudeCodeExecutor(claude.settings()).runStep(
      input(cwd, { agent, step: closure, toolbox }),
    );
    expect(toolNames()).toEqual([
      "Bash",
      "Edit",
      "Glob",
      "Grep",
      "Read",
      "Write",
      "mcp__climpt__github_close_issue",
      "mcp__climpt__github_comment",
      "mcp__climpt__github_edit_labels",
    ]);
    expect(toolResult(1).content).toContain("Recorded for the boundary hook");
    expect(toolbox.boundaryRequests()).toEqual([
      expect.objectContaining({ action: "close", issue: 12, comment: "Fixed in the last commit." }),
    ]);
    expect(result.toolCalls[0]?.call.id).toBe(
      (lastMessageBlocks(claude.fake().messageRequests()[1])[0] as { tool_use_id: string })
        .tool_use_id,
    );
  });

  it("do not exist in a work step, whatever allowedTools says", async () => {
    const agent = agentDefinition({
      allowedTools: ["Read", "github_close_issue"],
      github: { enabled: true, labels: {}, defaultClosureAction: "close" },
    });
    const work = step("initial.issue", "work");
    claude
      .fake()
      .enqueue(
        reply.toolUse({ name: "mcp__climpt__github_close_issue", input: { issue: 12 } }),
        DONE,
      );
    const toolbox = createToolbox({ cwd: tempDir(), agent, step: work });
    await createClaudeCodeExecutor(claude.settings()).runStep(
      input(tempDir(), { agent, step: work, toolbox }),
    );
    expect(toolNames()).toEqual(["Read"]);
    expect(toolResult(1).is_error).toBe(true);
    expect(toolbox.boundaryRequests()).toEqual([]);
  });
});
