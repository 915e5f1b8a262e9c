import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ToolExecutor } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { createToolbox } from "./toolbox.ts";
import { agentDefinition, step, toolboxFor, useTempDirs } from "./tools.test-helper.ts";

describe("createToolbox", () => {
  const tempDir = useTempDirs();

  it("is a ToolExecutor whose definitions carry a JSON Schema and a description per tool", () => {
    const box: ToolExecutor = toolboxFor(tempDir());
    for (const definition of box.definitions) {
      expect(definition.description.length).toBeGreaterThan(40);
      expect(definition.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
    }
    const read = box.definitions.find((d) => d.name === "Read");
    expect(read?.inputSchema).toEqual({
      type: "object",
      properties: {
        file_path: expect.objectContaining({ type: "string", minLength: 1 }),
        offset: expect.objectContaining({ type: "integer", minimum: 1 }),
        limit: expect.objectContaining({ type: "integer", minimum: 1 }),
      },
      required: ["file_path"],
      additionalProperties: false,
    });
  });

  it("emits tool_call then tool_result for a call that runs", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "a.txt"), "hello\n");
    const box = toolboxFor(dir);
    await box.call("Read", { file_path: "a.txt" });
    expect(box.events).toEqual([
      { type: "tool_call", id: "call_1", tool: "Read", input: { file_path: "a.txt" } },
      {
        type: "tool_result",
        id: "call_1",
        tool: "Read",
        isError: false,
        content: "     1\thello",
        durationMs: expect.any(Number),
      },
    ]);
  });

  it("refuses a tool name it does not know, naming the tools it has", async () => {
    const box = toolboxFor(tempDir(), {
      agent: agentDefinition({ allowedTools: ["Read", "TodoWrite"] }),
    });
    const result = await box.call("TodoWrite", { todos: [] });
    expect(result).toEqual({
      content:
        'TOOL-POLICY-001 refused by the tool policy: there is no tool named "TodoWrite". The tools of this step are: Read.',
      isError: true,
    });
    expect(box.events).toEqual([
      expect.objectContaining({ type: "tool_refused", tool: "TodoWrite", code: "TOOL-POLICY-001" }),
    ]);
  });

  it("throws a coded error for a working directory that does not exist", () => {
    expect(() =>
      createToolbox({
        cwd: "/no/such/dir",
        agent: agentDefinition(),
        step: step("initial.x", "work"),
      }),
    ).toThrow(expect.objectContaining({ code: "TOOL-CONFIG-001" }));
  });

  it("keeps boundary requests per toolbox: a new step execution starts empty", async () => {
    const dir = tempDir();
    const first = toolboxFor(dir, { kind: "closure", params: { issue: 1 } });
    await first.call("github_close_issue", { issue: 1 });
    expect(first.boundaryRequests()).toHaveLength(1);
    expect(toolboxFor(dir, { kind: "closure" }).boundaryRequests()).toEqual([]);
  });
});
