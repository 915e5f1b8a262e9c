import type { Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { checkAgentRegistry } from "./agent-registry-checks.ts";
import { normalizeAgent } from "./normalize-agent.ts";
import { normalizeRegistry } from "./normalize-registry.ts";

function nested(mcpServers: unknown, extra: Record<string, unknown> = {}): unknown {
  return {
    name: "a",
    runner: { verdict: { type: "count:iteration" }, boundaries: { mcpServers, ...extra } },
  };
}

function issues(raw: unknown): readonly Problem[] {
  const result = normalizeAgent(raw, { file: "agent.json" });
  return result.ok ? [] : result.issues;
}

describe("runner.boundaries.mcpServers", () => {
  it("reads Claude Code's .mcp.json shapes: stdio with and without type, http", () => {
    const result = normalizeAgent(
      nested(
        {
          files: { command: "npx", args: ["-y", "server", "."], env: { ROOT: "/" } },
          everything: { type: "stdio", command: "node" },
          docs: {
            type: "http",
            url: "https://mcp.example.com/mcp",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} as .mcp.json writes it, not a template.
            headers: { Authorization: "Bearer ${DOCS_TOKEN}" },
          },
        },
        { sandbox: { network: { allow: ["mcp.example.com"] } } },
      ),
    );
    expect(result.ok && result.value.mcpServers).toEqual({
      files: {
        transport: "stdio",
        command: "npx",
        args: ["-y", "server", "."],
        env: { ROOT: "/" },
      },
      everything: { transport: "stdio", command: "node", args: [], env: {} },
      docs: {
        transport: "http",
        url: "https://mcp.example.com/mcp",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} as .mcp.json writes it, not a template.
        headers: { Authorization: "Bearer ${DOCS_TOKEN}" },
      },
    });
  });

  it("reads behavior.mcpServers in the flat shape", () => {
    const result = normalizeAgent({
      name: "a",
      behavior: { mcpServers: { files: { command: "node", args: ["s.js"] } } },
    });
    expect(result.ok && Object.keys(result.value.mcpServers ?? {})).toEqual(["files"]);
  });

  it("names the file, the JSON path and the server for a stdio server without a command", () => {
    const found = issues(nested({ files: { args: ["x"] } }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      code: "AC-MCP-001",
      file: "agent.json",
      path: "$.runner.boundaries.mcpServers.files.command",
    });
    expect(found[0]?.message).toContain('"files"');
    expect(found[0]?.hint).toContain(".mcp.json");
  });

  it("never quotes an env or header value", () => {
    const found = issues(nested({ files: { command: "node", env: { TOKEN: 12345678 } } }));
    expect(found[0]).toMatchObject({
      code: "AC-MCP-001",
      path: "$.runner.boundaries.mcpServers.files.env.TOKEN",
    });
    expect(found[0]?.message).not.toContain("12345678");
  });

  it("refuses unknown types, bad urls, passwords in urls and names with __", () => {
    const allow = { sandbox: { network: { allow: ["h.example"] } } };
    const codes = (servers: unknown) => issues(nested(servers, allow)).map((p) => [p.code, p.path]);
    expect(codes({ a: { type: "sse", url: "https://h.example/sse" } })).toEqual([
      ["AC-MCP-001", "$.runner.boundaries.mcpServers.a.type"],
    ]);
    expect(codes({ a: { type: "http", url: "ftp://h.example/" } })).toEqual([
      ["AC-MCP-001", "$.runner.boundaries.mcpServers.a.url"],
    ]);
    const withPassword = issues(
      nested({ a: { type: "http", url: "https://u:hunter2@h.example/" } }, allow),
    );
    expect(withPassword[0]?.code).toBe("AC-MCP-001");
    expect(withPassword[0]?.message).not.toContain("hunter2");
    expect(codes({ a__b: { command: "node" } })).toEqual([
      ["AC-MCP-001", "$.runner.boundaries.mcpServers.a__b"],
    ]);
    expect(codes({ a: { command: "node", args: "x" } })).toEqual([
      ["AC-MCP-001", "$.runner.boundaries.mcpServers.a.args"],
    ]);
  });

  it("refuses an http server at a host the sandbox network does not declare (AC-MCP-002)", () => {
    const found = issues(nested({ docs: { type: "http", url: "https://mcp.example.com/mcp" } }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      code: "AC-MCP-002",
      path: "$.runner.boundaries.mcpServers.docs.url",
    });
    expect(found[0]?.hint).toContain("network.allow");
    const wildcard = normalizeAgent(
      nested(
        { docs: { type: "http", url: "https://mcp.example.com:8443/mcp" } },
        { sandbox: { network: { allow: ["*.example.com:8443"] } } },
      ),
    );
    expect(wildcard.ok).toBe(true);
    const wrongPort = issues(
      nested(
        { docs: { type: "http", url: "https://mcp.example.com/mcp" } },
        { sandbox: { network: { allow: ["mcp.example.com:8443"] } } },
      ),
    );
    expect(wrongPort[0]?.code).toBe("AC-MCP-002");
  });
});

describe("allowedTools naming MCP servers (AC-MCP-003)", () => {
  function registry(stepTools?: readonly string[]) {
    const result = normalizeRegistry(
      {
        agentId: "a",
        entryStep: "initial.work",
        steps: {
          "initial.work": {
            stepId: "initial.work",
            c2: "initial",
            c3: "work",
            edition: "default",
            ...(stepTools === undefined ? {} : { allowedTools: stepTools }),
          },
        },
      },
      { file: "steps_registry.json" },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.value;
  }

  it("reports an agent entry and a step entry naming an undeclared server, with their paths", () => {
    const agent = normalizeAgent(
      nested(
        { docs: { command: "node" } },
        { allowedTools: ["Read", "mcp__docs", "mcp__doc__search"] },
      ),
    );
    if (!agent.ok) throw new Error("agent");
    const problems = checkAgentRegistry(agent.value, registry(["mcp__docs__get", "mcp__wiki"]), {
      agentFile: "agent.json",
      registryFile: "steps_registry.json",
    }).filter((p) => p.code === "AC-MCP-003");
    expect(problems.map((p) => [p.file, p.path])).toEqual([
      ["agent.json", "$.runner.boundaries.allowedTools[2]"],
      ["steps_registry.json", '$.steps["initial.work"].allowedTools[1]'],
    ]);
    expect(problems[0]?.message).toContain('declared: "docs"');
  });

  it("reports nothing when every server is declared", () => {
    const agent = normalizeAgent(
      nested({ docs: { command: "node" } }, { allowedTools: ["mcp__docs__search"] }),
    );
    if (!agent.ok) throw new Error("agent");
    const problems = checkAgentRegistry(agent.value, registry()).filter(
      (p) => p.code === "AC-MCP-003",
    );
    expect(problems).toEqual([]);
  });
});
