import {
  createSdkMcpServer,
  type McpSdkServerConfigWithInstance,
  tool,
} from "@anthropic-ai/claude-agent-sdk";
import { ClimptError, type JsonValue } from "@climpt/model";
import type { ToolExecutor } from "@climpt/sdk-adapter";
import type { GithubToolName } from "@climpt/tools";
import { z } from "zod";
import { CLAUDE_CODE_CODES } from "./codes.ts";
import { CLIMPT_MCP_SERVER } from "./tool-access.ts";

/**
 * climpt's own tools that Claude Code does not have (the GitHub tools of a closure step), served
 * to the Claude Code session by an in-process MCP server. A call runs through the step's climpt
 * toolbox, so the toolbox records close and label requests for the boundary hook exactly as in
 * the default executor, and its events reach the journal.
 *
 * `nextCallId(name)` gives the tool_use id of the call being served (the PreToolUse hook sees the
 * id, the MCP handler does not), so the toolbox's events name the same call as the transcript.
 */
export function climptToolServer(
  toolbox: ToolExecutor,
  names: readonly GithubToolName[],
  nextCallId: (name: GithubToolName) => string,
): McpSdkServerConfigWithInstance {
  const tools = names.map((name) => {
    const definition = toolbox.definitions.find((candidate) => candidate.name === name);
    if (definition === undefined) {
      throw new ClimptError({
        code: CLAUDE_CODE_CODES.badSettings,
        message: `The step's toolbox has no "${name}" tool, though the step's policy grants it.`,
        hint: "Pass runStep the toolbox created for this step (createToolbox with the same agent and step).",
      });
    }
    const schema = z.fromJSONSchema(
      definition.inputSchema as Parameters<typeof z.fromJSONSchema>[0],
    );
    if (!(schema instanceof z.ZodObject)) {
      throw new ClimptError({
        code: CLAUDE_CODE_CODES.badSettings,
        message: `The input schema of "${name}" is not an object schema; an MCP tool needs one.`,
      });
    }
    return tool(name, definition.description, schema.shape, async (args) => {
      const result = await toolbox.execute({
        id: nextCallId(name),
        name,
        input: JSON.parse(JSON.stringify(args)) as JsonValue,
      });
      return { content: [{ type: "text", text: result.content }], isError: result.isError };
    });
  });
  return createSdkMcpServer({ name: CLIMPT_MCP_SERVER, version: "1.0.0", tools });
}
