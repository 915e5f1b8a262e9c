/**
 * One MCP tool call inside the toolbox: the step's policy first (a tool it does not get is
 * refused with the reason, as a built-in one is), then the server, then the result capped and
 * scrubbed of every known secret exactly like a built-in tool's, with the same events.
 */
import {
  type AgentDefinition,
  isRecord,
  parseMcpToolName,
  type Step,
  type ToolCall,
  type ToolResult,
} from "@climpt/model";
import { TOOL_CODES } from "../codes.ts";
import type { ToolEvent } from "../events.ts";
import { capHeadTail } from "../text-cap.ts";
import { mcpToolRefusal } from "./mcp-policy.ts";
import { type McpStepTools, mcpToolFacts } from "./mcp-step-tools.ts";

export interface McpCallContext {
  readonly agent: AgentDefinition;
  readonly step: Step;
  readonly mcp: McpStepTools | undefined;
  readonly outputCapBytes: number;
  readonly scrub: (text: string) => string;
  readonly emit: (event: ToolEvent) => void;
  readonly refuse: (call: ToolCall, code: string, reason: string) => ToolResult;
}

export async function runMcpCall(
  call: ToolCall,
  signal: AbortSignal | undefined,
  context: McpCallContext,
): Promise<ToolResult> {
  const tool = context.mcp?.tools.find((entry) => entry.definition.name === call.name);
  if (tool === undefined) {
    const refusal = whyNot(call.name, context);
    return context.refuse(call, refusal.code, refusal.reason);
  }
  context.emit({ type: "tool_call", id: call.id, tool: call.name, input: call.input });
  const started = Date.now();
  let result: ToolResult;
  if (!isRecord(call.input)) {
    result = {
      content: `${TOOL_CODES.invalidInput}: invalid input for ${call.name}: the arguments must be a JSON object.`,
      isError: true,
    };
  } else {
    result = await (context.mcp as McpStepTools).servers.call(tool, call.id, call.input, signal);
  }
  if (context.mcp?.servers.recorded !== true) {
    // A server's output is as untrusted as a command's: capped, then every known secret replaced.
    const capped = capHeadTail(result.content, context.outputCapBytes).text;
    result = { content: context.scrub(capped), isError: result.isError };
  }
  context.emit({
    type: "tool_result",
    id: call.id,
    tool: call.name,
    isError: result.isError,
    content: result.content,
    durationMs: Date.now() - started,
  });
  return result;
}

/** Why the step has no such MCP tool: the policy's reason, or that no server of it offers it. */
function whyNot(name: string, context: McpCallContext): { code: string; reason: string } {
  const offered = context.mcp?.offered.find((entry) => entry.definition.name === name);
  if (offered !== undefined) {
    const refusal = mcpToolRefusal(context.agent, context.step, mcpToolFacts(offered));
    if (refusal !== undefined) return refusal;
  }
  const parsed = parseMcpToolName(name);
  if (parsed?.tool !== undefined) {
    // Not offered by a running server: the lists may still rule it out, which says more.
    const refusal = mcpToolRefusal(context.agent, context.step, {
      server: parsed.server,
      tool: parsed.tool,
      readOnly: true,
    });
    if (refusal !== undefined) return refusal;
  }
  const available = context.mcp?.tools.map((tool) => tool.definition.name) ?? [];
  return {
    code: TOOL_CODES.unavailable,
    reason: `there is no tool named "${name}" in this step: no MCP server of the agent offers it${available.length === 0 ? "" : ` (this step's MCP tools: ${available.join(", ")})`}.`,
  };
}
