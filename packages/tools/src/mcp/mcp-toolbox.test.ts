/**
 * MCP tools through the toolbox, with real servers: the everything server from npm and a dying
 * one written with the SDK's server classes (fixtures/), started inside the real OS sandbox.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ClimptError, type McpServerConfig } from "@climpt/model";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolEvent } from "../events.ts";
import { createToolbox } from "../toolbox.ts";
import { agentDefinition, step, useTempDirs } from "../tools.test-helper.ts";
import { createMcpServers, type McpServers } from "./mcp-servers.ts";
import { stepMcpTools } from "./mcp-step-tools.ts";

vi.setConfig({ testTimeout: 120_000 });

const require = createRequire(import.meta.url);
const EVERYTHING = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);
const DYING = fileURLToPath(new URL("./fixtures/dying-server.mjs", import.meta.url));

const tempDir = useTempDirs();
const opened: McpServers[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((servers) => servers.close()));
});

function servers(cwd: string, configs: Record<string, McpServerConfig>): McpServers {
  const made = createMcpServers({ servers: configs, cwd, secrets: { env: [] } });
  opened.push(made);
  return made;
}

const everything: McpServerConfig = {
  transport: "stdio",
  command: process.execPath,
  args: [EVERYTHING, "stdio"],
  env: {},
};

describe("MCP tools under the step-kind policy", () => {
  it("a work step gets every tool its lists grant; a plan (verification) step only read-only ones", async () => {
    const cwd = tempDir();
    const agent = agentDefinition({
      allowedTools: ["Read", "mcp__everything"],
      mcpServers: { everything },
    });
    const running = servers(cwd, { everything });
    const work = await stepMcpTools(running, agent, step("initial.work", "work"));
    const workNames = work.tools.map((tool) => tool.definition.name);
    expect(workNames).toContain("mcp__everything__toggle-simulated-logging");
    expect(workNames).toContain("mcp__everything__echo");

    const verification = step("check.review", "verification");
    const plan = await stepMcpTools(running, agent, verification);
    const planNames = plan.tools.map((tool) => tool.definition.name);
    expect(planNames).toContain("mcp__everything__echo");
    expect(planNames).not.toContain("mcp__everything__toggle-simulated-logging");

    const events: ToolEvent[] = [];
    const toolbox = createToolbox({
      cwd,
      agent,
      step: verification,
      mcp: plan,
      onEvent: (event) => events.push(event),
    });
    expect(toolbox.definitions.map((d) => d.name)).toEqual(["Read", ...planNames]);
    const refused = await toolbox.execute({
      id: "t1",
      name: "mcp__everything__toggle-simulated-logging",
      input: {},
    });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain("TOOL-POLICY-002");
    expect(events).toEqual([
      expect.objectContaining({ type: "tool_refused", code: "TOOL-POLICY-002" }),
    ]);
    const echoed = await toolbox.execute({
      id: "t2",
      name: "mcp__everything__echo",
      input: { message: "hello" },
    });
    expect(echoed).toEqual({ content: "Echo: hello", isError: false });
  });

  it("a step's allowedTools narrows to single tools, and names another server's tool as not granted", async () => {
    const cwd = tempDir();
    const agent = agentDefinition({
      allowedTools: ["mcp__everything__echo", "mcp__everything__get-sum"],
      mcpServers: { everything },
    });
    const narrowed = step("initial.work", "work", { allowedTools: ["mcp__everything__echo"] });
    const tools = await stepMcpTools(servers(cwd, { everything }), agent, narrowed);
    expect(tools.tools.map((tool) => tool.definition.name)).toEqual(["mcp__everything__echo"]);
    const toolbox = createToolbox({ cwd, agent, step: narrowed, mcp: tools });
    const refused = await toolbox.execute({ id: "t", name: "mcp__everything__get-sum", input: {} });
    expect(refused.content).toContain("permissions.allowedTools");
  });
});

describe("MCP servers that fail", () => {
  it("a server that does not start is TOOL-MCP-001 naming the server, its command and its stderr tail", async () => {
    const cwd = tempDir();
    const broken: McpServerConfig = {
      transport: "stdio",
      command: process.execPath,
      args: ["-e", "console.error('broken-server: cannot open config'); process.exit(2)"],
      env: {},
    };
    const agent = agentDefinition({ allowedTools: ["mcp__broken"], mcpServers: { broken } });
    const failure = await stepMcpTools(
      servers(cwd, { broken }),
      agent,
      step("initial.work", "work"),
    ).catch((error: unknown) => error);
    expect(ClimptError.isInstance(failure)).toBe(true);
    const error = failure as ClimptError;
    expect(error.code).toBe("TOOL-MCP-001");
    expect(error.message).toContain('MCP server "broken"');
    expect(error.message).toContain(process.execPath);
    expect(error.message).toContain("broken-server: cannot open config");
  });

  it("a server that dies mid-call is TOOL-MCP-002 with its stderr tail; results are capped and scrubbed", async () => {
    const cwd = tempDir();
    const dying: McpServerConfig = {
      transport: "stdio",
      command: process.execPath,
      args: [DYING],
      env: {},
    };
    const agent = agentDefinition({ allowedTools: ["mcp__dying"], mcpServers: { dying } });
    const work = step("initial.work", "work");
    const tools = await stepMcpTools(servers(cwd, { dying }), agent, work);
    const toolbox = createToolbox({
      cwd,
      agent,
      step: work,
      mcp: tools,
      outputCapBytes: 1000,
      secrets: { values: ["secret-value-1234"] },
    });
    const shout = await toolbox.execute({ id: "a", name: "mcp__dying__shout", input: {} });
    expect(shout.isError).toBe(false);
    expect(shout.content).toContain("bytes of output omitted");
    expect(shout.content).not.toContain("secret-value-1234");
    expect(Buffer.byteLength(shout.content)).toBeLessThan(1200);

    const died = await toolbox.execute({ id: "b", name: "mcp__dying__die", input: {} });
    expect(died.isError).toBe(true);
    expect(died.content).toContain("TOOL-MCP-002");
    expect(died.content).toContain('MCP server "dying"');
    expect(died.content).toContain(DYING);
    expect(died.content).toContain("dying-server: fatal error in die");
    const again = await toolbox.execute({ id: "c", name: "mcp__dying__shout", input: {} });
    expect(again.content).toContain("TOOL-MCP-002");
  });
});

describe("the audit of MCP tools", () => {
  it("lists the MCP tools each step's lists grant, read-only in plan steps", async () => {
    const { auditPolicy, formatPolicyAudit } = await import("../audit.ts");
    const { loadedAgent } = await import("../tools.test-helper.ts");
    const agent = agentDefinition({
      allowedTools: ["Read", "mcp__everything", "mcp__docs__search"],
      mcpServers: { everything, docs: everything },
    });
    const audit = auditPolicy(
      loadedAgent(agent, [
        step("initial.work", "work"),
        step("check.review", "verification"),
        step("closure.done", "closure", { allowedTools: ["Read", "mcp__docs__search"] }),
      ]),
    );
    expect(audit.steps.map((s) => [s.stepId, s.mcpTools])).toEqual([
      ["initial.work", ["mcp__everything", "mcp__docs__search"]],
      ["check.review", ["mcp__everything", "mcp__docs__search"]],
      ["closure.done", ["mcp__docs__search"]],
    ]);
    expect(audit.problems).toEqual([]);
    expect(formatPolicyAudit(audit)).toContain(
      "Read, mcp__everything, mcp__docs__search (read-only tools only)",
    );
  });
});
