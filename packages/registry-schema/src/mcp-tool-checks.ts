/**
 * allowedTools entries that name MCP tools (`mcp__<server>__<tool>`, `mcp__<server>`) checked
 * against the agent's `mcpServers`: a server it does not declare is a typo or a missing entry,
 * and a run would silently offer the step less than its author meant. Whether a declared server
 * really offers a named tool needs the server running: `climpt validate --check-mcp` asks it.
 */
import {
  type AgentDefinition,
  jsonPath,
  type Problem,
  parseMcpToolName,
  type Registry,
  recordValues,
  stepPath,
} from "@climpt/model";

/** Where the two files are, for the problems' `file` (as `checkAgentRegistry` takes them). */
interface CheckedFiles {
  readonly agentFile?: string;
  readonly registryFile?: string;
}

function unknownServerProblem(
  name: string,
  server: string,
  declared: readonly string[],
  where: { readonly file?: string; readonly path: string },
): Problem {
  const known = declared.length === 0 ? "none" : declared.map((n) => `"${n}"`).join(", ");
  return {
    code: "AC-MCP-003",
    severity: "error",
    message: `allowedTools names "${name}", a tool of MCP server "${server}", but runner.boundaries.mcpServers declares no server "${server}" (declared: ${known}).`,
    ...(where.file === undefined ? {} : { file: where.file }),
    path: where.path,
    hint:
      declared.length === 0
        ? `Declare the server in agent.json runner.boundaries.mcpServers (the shape of Claude Code's .mcp.json), or remove "${name}".`
        : `Name a declared server (mcp__<server>__<tool> or mcp__<server>), or declare "${server}" in runner.boundaries.mcpServers.`,
  };
}

export function mcpToolNameProblems(
  agent: AgentDefinition,
  registry: Registry,
  files: CheckedFiles = {},
): Problem[] {
  const declared = Object.keys(agent.mcpServers ?? {});
  const problems: Problem[] = [];
  const agentList =
    agent.shape === "flat" ? "$.behavior.allowedTools" : "$.runner.boundaries.allowedTools";
  agent.allowedTools.forEach((name, index) => {
    const parsed = parseMcpToolName(name);
    if (parsed === undefined || declared.includes(parsed.server)) return;
    problems.push(
      unknownServerProblem(name, parsed.server, declared, {
        ...(files.agentFile === undefined ? {} : { file: files.agentFile }),
        path: jsonPath(agentList, index),
      }),
    );
  });
  for (const step of recordValues(registry.steps)) {
    (step.permissions.allowedTools ?? []).forEach((name, index) => {
      const parsed = parseMcpToolName(name);
      if (parsed === undefined || declared.includes(parsed.server)) return;
      problems.push(
        unknownServerProblem(name, parsed.server, declared, {
          ...(files.registryFile === undefined ? {} : { file: files.registryFile }),
          path: stepPath(step.id, "allowedTools", index),
        }),
      );
    });
  }
  return problems;
}
