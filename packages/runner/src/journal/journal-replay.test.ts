import type { ToolCall, ToolExecutor, ToolResult } from "@climpt/sdk-adapter";
import { describe, expect, it } from "vitest";
import { JournalToolReplay, type RecordedReply } from "./journal-replay.ts";

function replyCalling(...calls: { id: string; name: string }[]): RecordedReply {
  return {
    content: calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: {} })),
    usage: {
      inputTokens: 1,
      outputTokens: 1,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    },
    costUsd: 0,
    stopReason: "tool_use",
    model: "claude-test",
    requestId: null,
  } as unknown as RecordedReply;
}

/** The live tools: records what really ran. */
function liveTools(ran: string[]): ToolExecutor {
  return {
    definitions: [],
    execute: async (call: ToolCall): Promise<ToolResult> => {
      ran.push(call.id);
      return { isError: false, content: `live ${call.name}` };
    },
  };
}

describe("JournalToolReplay on resume", () => {
  it("serves recorded results, answers side-effecting calls in flight with RUN-RESUME-004, re-runs read-only ones", async () => {
    const ran: string[] = [];
    const replay = new JournalToolReplay(
      liveTools(ran),
      new Map([["done", [{ isError: false, content: "recorded" }]]]),
      [
        replyCalling(
          { id: "done", name: "Bash" },
          { id: "bash", name: "Bash" },
          { id: "write", name: "Write" },
          { id: "read", name: "Read" },
          { id: "grep", name: "Grep" },
        ),
      ],
    );
    const call = (id: string, name: string): ToolCall => ({ id, name, input: {} });
    expect((await replay.execute(call("done", "Bash"))).content).toBe("recorded");
    const bash = await replay.execute(call("bash", "Bash"));
    expect(bash.isError).toBe(true);
    expect(bash.content).toMatch(/^RUN-RESUME-004: .*Bash call was running.*effect is unknown/);
    expect((await replay.execute(call("write", "Write"))).content).toMatch(/^RUN-RESUME-004/);
    expect((await replay.execute(call("read", "Read"))).content).toBe("live Read");
    expect((await replay.execute(call("grep", "Grep"))).content).toBe("live Grep");
    // Each in-flight call is answered once: the same id later in the step (a live reply) runs.
    expect((await replay.execute(call("bash", "Bash"))).content).toBe("live Bash");
    expect(ran).toEqual(["read", "grep", "bash"]);
  });
});

describe("JournalToolReplay and MCP tools in flight", () => {
  it("re-runs an MCP call whose server marks it read-only or idempotent; any other is effect unknown", async () => {
    const ran: string[] = [];
    const schema = { type: "object" as const };
    const tools: ToolExecutor = {
      ...liveTools(ran),
      definitions: [
        {
          name: "mcp__s__look",
          description: "",
          inputSchema: schema,
          annotations: { readOnlyHint: true },
        },
        {
          name: "mcp__s__put",
          description: "",
          inputSchema: schema,
          annotations: { idempotentHint: true },
        },
        {
          name: "mcp__s__send",
          description: "",
          inputSchema: schema,
          annotations: { readOnlyHint: false },
        },
        { name: "mcp__s__plain", description: "", inputSchema: schema },
      ],
    };
    const replay = new JournalToolReplay(tools, new Map(), [
      replyCalling(
        { id: "look", name: "mcp__s__look" },
        { id: "put", name: "mcp__s__put" },
        { id: "send", name: "mcp__s__send" },
        { id: "plain", name: "mcp__s__plain" },
      ),
    ]);
    const results = [];
    for (const [id, name] of [
      ["look", "mcp__s__look"],
      ["put", "mcp__s__put"],
      ["send", "mcp__s__send"],
      ["plain", "mcp__s__plain"],
    ] as const) {
      results.push(await replay.execute({ id, name, input: {} }));
    }
    expect(ran).toEqual(["look", "put"]);
    expect(results[2]?.content).toMatch(/^RUN-RESUME-004: .*mcp__s__send call was running/);
    expect(results[3]?.content).toMatch(/^RUN-RESUME-004/);
  });
});
