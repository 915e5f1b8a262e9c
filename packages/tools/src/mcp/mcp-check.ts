/**
 * `climpt validate --check-mcp`: starts the agent's MCP servers (as a run would, in the sandbox)
 * and reports what only a running server can tell — a server that does not start, and an
 * allowedTools entry `mcp__<server>__<tool>` naming a tool its server does not offer (a typo,
 * or a tool of another version of the server), which a run would silently not offer the step.
 */
import {
  ClimptError,
  jsonPath,
  type LoadedAgent,
  type Problem,
  parseMcpToolName,
  recordValues,
  stepPath,
} from "@climpt/model";
import { TOOL_CODES } from "../codes.ts";
import { createMcpServers, type McpServersOptions } from "./mcp-servers.ts";

interface NamedEntry {
  readonly name: string;
  readonly file: string;
  readonly path: string;
}

function mcpEntries(loaded: LoadedAgent): NamedEntry[] {
  const { agent, registry, files } = loaded;
  const list =
    agent.shape === "flat" ? "$.behavior.allowedTools" : "$.runner.boundaries.allowedTools";
  const entries: NamedEntry[] = agent.allowedTools.map((name, index) => ({
    name,
    file: files.agent,
    path: jsonPath(list, index),
  }));
  for (const step of recordValues(registry.steps)) {
    (step.permissions.allowedTools ?? []).forEach((name, index) => {
      entries.push({ name, file: files.registry, path: stepPath(step.id, "allowedTools", index) });
    });
  }
  return entries.filter((entry) => parseMcpToolName(entry.name)?.tool !== undefined);
}

export async function checkMcpServers(
  loaded: LoadedAgent,
  options: Omit<McpServersOptions, "servers">,
): Promise<Problem[]> {
  const servers = loaded.agent.mcpServers ?? {};
  const names = Object.keys(servers);
  if (names.length === 0) return [];
  const serversPath =
    loaded.agent.shape === "flat" ? "$.behavior.mcpServers" : "$.runner.boundaries.mcpServers";
  const running = createMcpServers({ ...options, servers });
  const problems: Problem[] = [];
  const offered = new Map<string, Set<string>>();
  try {
    for (const name of names) {
      try {
        const tools = await running.tools([name]);
        offered.set(name, new Set(tools.map((tool) => tool.tool)));
      } catch (error) {
        problems.push(
          ClimptError.isInstance(error)
            ? {
                ...error.toProblem(),
                file: loaded.files.agent,
                path: jsonPath(serversPath, name),
              }
            : {
                code: TOOL_CODES.mcpStartFailed,
                severity: "error",
                message: `MCP server "${name}" did not start: ${(error as Error).message}`,
              },
        );
      }
    }
  } finally {
    await running.close();
  }
  for (const entry of mcpEntries(loaded)) {
    const parsed = parseMcpToolName(entry.name);
    if (parsed?.tool === undefined) continue;
    const tools = offered.get(parsed.server);
    if (tools === undefined || tools.has(parsed.tool)) continue;
    problems.push({
      code: TOOL_CODES.mcpToolNotOffered,
      severity: "error",
      message: `allowedTools names "${entry.name}", but MCP server "${parsed.server}" does not offer a tool "${parsed.tool}" (it offers: ${[...tools].sort().join(", ") || "none"}).`,
      file: entry.file,
      path: entry.path,
      hint: `Name one of the server's tools, or "mcp__${parsed.server}" for all of them.`,
    });
  }
  return problems;
}
