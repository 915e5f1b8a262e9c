/**
 * How an MCP tool is named to the model and in allowedTools: `mcp__<server>__<tool>`, and
 * `mcp__<server>` for every tool of a server — Claude Code's names, so an agent's lists mean the
 * same under both executors. Server names never hold `__` (the loader refuses them), so the first
 * `__` after the prefix ends the server's name; the tool's own name may hold anything after it.
 */
export const MCP_TOOL_PREFIX = "mcp__";

export interface McpToolName {
  readonly server: string;
  /** Absent: the name is `mcp__<server>`, every tool of the server. */
  readonly tool?: string;
}

/** `mcp__docs__search` → `{ server: "docs", tool: "search" }`; not an MCP name → undefined. */
export function parseMcpToolName(name: string): McpToolName | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const split = rest.indexOf("__");
  if (split === 0 || rest === "") return undefined;
  if (split < 0) return { server: rest };
  const tool = rest.slice(split + 2);
  return tool === "" ? undefined : { server: rest.slice(0, split), tool };
}

export function mcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${tool}`;
}
