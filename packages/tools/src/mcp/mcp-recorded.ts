/**
 * The MCP servers of a replayed run (`--replay`): no server is started. The tools are the ones
 * the recording offered the model (the cassette holds each request's tool definitions, their
 * annotations included, so the step's policy and the request fingerprints come out the same),
 * and each call's result is the one the recording sent back, by tool_use id, in order.
 */
import {
  type JsonValue,
  parseMcpToolName,
  type ToolDefinition,
  type ToolResult,
} from "@climpt/model";
import { TOOL_CODES } from "../codes.ts";
import type { McpServers, McpTool } from "./mcp-servers.ts";

export interface McpRecording {
  /** Every MCP tool definition the recording offered, once per name. */
  readonly definitions: readonly ToolDefinition[];
  /** tool_use id → the results the recording gave calls with that id, in order. */
  readonly results: ReadonlyMap<string, readonly ToolResult[]>;
}

export function createRecordedMcpServers(recording: McpRecording): McpServers {
  const results = new Map<string, ToolResult[]>();
  for (const [id, list] of recording.results) results.set(id, [...list]);
  const tools: McpTool[] = [];
  for (const definition of recording.definitions) {
    const parsed = parseMcpToolName(definition.name);
    if (parsed?.tool === undefined) continue;
    tools.push({ server: parsed.server, tool: parsed.tool, definition });
  }
  return {
    recorded: true,
    tools: async (servers) => tools.filter((tool) => servers.includes(tool.server)),
    async call(tool: McpTool, callId: string, _input: JsonValue): Promise<ToolResult> {
      const result = results.get(callId)?.shift();
      if (result !== undefined) return result;
      return {
        content: `${TOOL_CODES.mcpReplayMissing}: the cassette has no result for ${tool.definition.name} call ${callId}; no MCP server is started on replay. Record the cassette again.`,
        isError: true,
      };
    },
    close: async () => undefined,
  };
}
