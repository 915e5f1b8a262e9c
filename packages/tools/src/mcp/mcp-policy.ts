/**
 * The tool policy for MCP tools (`mcp__<server>__<tool>`), the same rules as for the built-in
 * tools (policy.ts): the agent's allowedTools ∩ the step's `allowedTools` (when set), where
 * `mcp__<server>` grants every tool of the server; and `permissionMode: plan` keeps only the tools
 * that say they change nothing (`readOnlyHint: true` in the server's annotations), since a plan
 * step — a verification step by default — must not change the work it judges. A server's own
 * claims are all climpt can know about a tool it did not write: an unannotated tool counts as one
 * that writes.
 */
import { type AgentDefinition, parseMcpToolName, type Step } from "@climpt/model";
import { TOOL_CODES } from "../codes.ts";
import { stepPermissionMode, type ToolRefusal } from "../policy.ts";

/** What the policy needs to know of one tool a server offers. */
export interface McpToolFacts {
  readonly server: string;
  readonly tool: string;
  readonly readOnly: boolean;
}

function grants(list: readonly string[], server: string, tool: string): boolean {
  return list.some((entry) => {
    const parsed = parseMcpToolName(entry);
    return parsed?.server === server && (parsed.tool === undefined || parsed.tool === tool);
  });
}

/** The servers whose tools some entry of the agent's (and the step's) lists may grant. */
export function mcpServersNamed(agent: AgentDefinition, step: Step): string[] {
  const declared = Object.keys(agent.mcpServers ?? {});
  const stepList = step.permissions.allowedTools;
  return declared.filter((server) => {
    const inAgent = agent.allowedTools.some((e) => parseMcpToolName(e)?.server === server);
    const inStep =
      stepList === undefined || stepList.some((e) => parseMcpToolName(e)?.server === server);
    return inAgent && inStep;
  });
}

/** Why the step does not get this MCP tool, or undefined when it does. */
export function mcpToolRefusal(
  agent: AgentDefinition,
  step: Step,
  facts: McpToolFacts,
): ToolRefusal | undefined {
  const name = `mcp__${facts.server}__${facts.tool}`;
  if (agent.mcpServers?.[facts.server] === undefined) {
    return {
      code: TOOL_CODES.unavailable,
      reason: `"${name}" belongs to MCP server "${facts.server}", which agent.json runner.boundaries.mcpServers does not declare.`,
    };
  }
  if (!grants(agent.allowedTools, facts.server, facts.tool)) {
    return {
      code: TOOL_CODES.unavailable,
      reason: `"${name}" is not in the agent's allowedTools (agent.json); neither is "mcp__${facts.server}".`,
    };
  }
  const stepList = step.permissions.allowedTools;
  if (stepList !== undefined && !grants(stepList, facts.server, facts.tool)) {
    return {
      code: TOOL_CODES.unavailable,
      reason: `"${name}" is not in step "${step.id}"'s permissions.allowedTools.`,
    };
  }
  if (stepPermissionMode(agent, step) === "plan" && !facts.readOnly) {
    return {
      code: TOOL_CODES.planReadOnly,
      reason: `step "${step.id}" runs in permissionMode "plan", which is read-only: MCP tools are offered only when their server marks them readOnlyHint, and "${name}" is not marked so.`,
    };
  }
  return undefined;
}

/**
 * What the step's lists grant of the agent's MCP servers, for the audit: `mcp__<server>` when
 * both lists grant the whole server, else the single tools both grant.
 */
export function mcpGrantedNames(agent: AgentDefinition, step: Step): string[] {
  const stepList = step.permissions.allowedTools;
  const names: string[] = [];
  for (const server of mcpServersNamed(agent, step)) {
    const whole = (list: readonly string[]): boolean =>
      list.some((entry) => {
        const parsed = parseMcpToolName(entry);
        return parsed?.server === server && parsed.tool === undefined;
      });
    if (whole(agent.allowedTools) && (stepList === undefined || whole(stepList))) {
      names.push(`mcp__${server}`);
      continue;
    }
    const candidates = [...agent.allowedTools, ...(stepList ?? [])].filter((entry) => {
      const parsed = parseMcpToolName(entry);
      return parsed?.server === server && parsed.tool !== undefined;
    });
    for (const name of new Set(candidates)) {
      const tool = parseMcpToolName(name)?.tool as string;
      if (
        grants(agent.allowedTools, server, tool) &&
        (stepList === undefined || grants(stepList, server, tool))
      ) {
        names.push(name);
      }
    }
  }
  return names;
}
