import {
  jsonPath,
  type LoadedAgent,
  type PermissionMode,
  type Problem,
  type StepKind,
  stepPath,
} from "@climpt/model";
import { TOOL_CODES } from "./codes.ts";
import { mcpGrantedNames } from "./mcp/mcp-policy.ts";
import { canTouchGithub, canWriteFiles, resolveToolPolicy, unknownToolNames } from "./policy.ts";
import { FILE_TOOL_NAMES, GITHUB_TOOL_NAMES, isToolName, type ToolName } from "./tool-names.ts";

export interface StepPolicyAudit {
  readonly stepId: string;
  readonly kind: StepKind;
  readonly permissionMode: PermissionMode;
  readonly tools: readonly ToolName[];
  /** Write or Edit is available. */
  readonly canWrite: boolean;
  readonly canBash: boolean;
  /** Any GitHub tool is available (closure steps that list one, GitHub integration on). */
  readonly canGithub: boolean;
  /** Names in this step's permissions.allowedTools that climpt has no tool for. */
  readonly ignoredToolNames: readonly string[];
  /**
   * The MCP tools the step's lists grant, as names (`mcp__<server>` for all of a server's tools);
   * in a `plan` step only those the server marks read-only are offered (mcp-policy.ts).
   */
  readonly mcpTools: readonly string[];
}

export interface PolicyAudit {
  readonly agent: string;
  readonly permissionMode: PermissionMode;
  readonly githubEnabled: boolean;
  readonly allowedTools: readonly string[];
  /** Names in the agent's allowedTools that climpt has no tool for (`Task`, `Skill`, `TodoWrite`…). */
  readonly ignoredToolNames: readonly string[];
  /** Flow steps in declaration order (section steps have no tools and are left out). */
  readonly steps: readonly StepPolicyAudit[];
  /** Warnings: TOOL-AUDIT-001 ignored names, TOOL-AUDIT-002 a step list naming tools the agent lacks. */
  readonly problems: readonly Problem[];
}

/**
 * What every step of an agent may do: which steps can write files, run Bash, or touch GitHub.
 * Boundary Bash commands and paths outside the working directory are refused in all of them.
 */
export function auditPolicy(loaded: LoadedAgent): PolicyAudit {
  const { agent, registry, files } = loaded;
  const problems: Problem[] = [];
  const agentListPath = agent.shape === "flat" ? "$.behavior.allowedTools" : undefined;
  const ignoredToolNames = unknownToolNames(agent.allowedTools);
  for (const name of ignoredToolNames) {
    problems.push(ignoredProblem(name, files.agent, agentListPath, "the agent's allowedTools"));
  }

  const steps: StepPolicyAudit[] = [];
  for (const step of Object.values(registry.steps)) {
    if (step.kind === "section") continue;
    const policy = resolveToolPolicy(agent, step);
    const stepList = step.permissions.allowedTools ?? [];
    const listPath = jsonPath(stepPath(step.id, "permissions"), "allowedTools");
    const stepIgnored = unknownToolNames(stepList);
    for (const name of stepIgnored) {
      problems.push(
        ignoredProblem(name, files.registry, listPath, `step "${step.id}"'s allowedTools`),
      );
    }
    for (const name of stepList) {
      if (isToolName(name) && !agent.allowedTools.includes(name)) {
        problems.push({
          code: TOOL_CODES.auditStepWidens,
          severity: "warning",
          message: `Step "${step.id}" lists "${name}", which the agent's allowedTools does not grant; a step list only narrows, so the step does not get it.`,
          file: files.registry,
          path: listPath,
          hint: `Add "${name}" to the agent's allowedTools in agent.json, or remove it from the step.`,
        });
      }
    }
    steps.push({
      stepId: step.id,
      kind: step.kind,
      permissionMode: policy.permissionMode,
      tools: policy.tools,
      canWrite: canWriteFiles(policy.tools),
      canBash: policy.tools.includes("Bash"),
      canGithub: canTouchGithub(policy.tools),
      ignoredToolNames: stepIgnored,
      mcpTools: mcpGrantedNames(agent, step),
    });
  }

  return {
    agent: agent.name,
    permissionMode: agent.permissionMode,
    githubEnabled: agent.github.enabled,
    allowedTools: agent.allowedTools,
    ignoredToolNames,
    steps,
    problems,
  };
}

function ignoredProblem(
  name: string,
  file: string,
  path: string | undefined,
  where: string,
): Problem {
  return {
    code: TOOL_CODES.auditUnknownTool,
    severity: "warning",
    message: `"${name}" in ${where} is not a climpt tool and is ignored.`,
    file,
    ...(path === undefined ? {} : { path }),
    hint: `climpt's tools are ${FILE_TOOL_NAMES.join(", ")}, and in closure steps ${GITHUB_TOOL_NAMES.join(", ")} when listed. Remove "${name}" to silence this warning.`,
  };
}

/** The audit as a text table for `climpt validate` and friends. */
export function formatPolicyAudit(audit: PolicyAudit): string {
  const header = ["STEP", "KIND", "MODE", "WRITE", "BASH", "GITHUB", "TOOLS"];
  const mcpText = (step: StepPolicyAudit): string =>
    step.mcpTools.length === 0
      ? ""
      : `, ${step.mcpTools.join(", ")}${step.permissionMode === "plan" ? " (read-only tools only)" : ""}`;
  const rows = audit.steps.map((step) => [
    step.stepId,
    step.kind,
    step.permissionMode,
    yesNo(step.canWrite),
    yesNo(step.canBash),
    yesNo(step.canGithub),
    step.tools.length > 0 || step.mcpTools.length > 0
      ? `${step.tools.join(", ")}${mcpText(step)}`.replace(/^, /, "")
      : "(none)",
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();

  const out = [
    `Tool policy of agent "${audit.agent}" (permissionMode ${audit.permissionMode}, GitHub integration ${audit.githubEnabled ? "on" : "off"})`,
    "",
    line(header),
    ...rows.map(line),
    "",
    "In every step: Bash boundary commands (gh issue close, gh pr merge, gh release, gh api, git push --force/--delete, …) are refused,",
    "and file tools stay inside the working directory. Issue close and label changes run only in the boundary hook.",
  ];
  const ignored = [
    ...new Set([
      ...audit.ignoredToolNames,
      ...audit.steps.flatMap((step) => step.ignoredToolNames),
    ]),
  ];
  if (ignored.length > 0) out.push(`Ignored tool names (not climpt tools): ${ignored.join(", ")}`);
  return out.join("\n");
}

function yesNo(value: boolean): string {
  return value ? "yes" : "no";
}
