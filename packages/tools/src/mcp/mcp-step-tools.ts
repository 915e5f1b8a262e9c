/**
 * The MCP tools of one step: the run's servers' tools that the step's policy grants
 * (mcp-policy.ts), asked of the servers before the step's toolbox is made — a tool list needs
 * the server running, and the toolbox's definitions are fixed when the step starts.
 */
import type { AgentDefinition, Step } from "@climpt/model";
import { type McpToolFacts, mcpServersNamed, mcpToolRefusal } from "./mcp-policy.ts";
import type { McpServers, McpTool } from "./mcp-servers.ts";

export interface McpStepTools {
  readonly servers: McpServers;
  /** The tools the step gets, in the servers' order. */
  readonly tools: readonly McpTool[];
  /** Every tool of the servers the step's lists name (for the reason a call is refused). */
  readonly offered: readonly McpTool[];
}

export function mcpToolFacts(tool: McpTool): McpToolFacts {
  return {
    server: tool.server,
    tool: tool.tool,
    readOnly: tool.definition.annotations?.readOnlyHint === true,
  };
}

/**
 * Starts (once per run) the servers the step's lists name and keeps the tools it may call.
 * Throws a `ClimptError` `TOOL-MCP-001` when a server does not start.
 */
export async function stepMcpTools(
  servers: McpServers,
  agent: AgentDefinition,
  step: Step,
): Promise<McpStepTools> {
  const names = mcpServersNamed(agent, step);
  if (names.length === 0) return { servers, tools: [], offered: [] };
  const offered = await servers.tools(names);
  const tools = offered.filter(
    (tool) => mcpToolRefusal(agent, step, mcpToolFacts(tool)) === undefined,
  );
  return { servers, tools, offered };
}
