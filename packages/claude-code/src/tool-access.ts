import type { AgentDefinition, PermissionMode, Step, StepKind } from "@climpt/model";
import {
  GITHUB_TOOL_NAMES,
  type GithubToolName,
  resolveToolPolicy,
  TOOL_CODES,
  type ToolRefusal,
} from "@climpt/tools";

/** The in-process MCP server that serves climpt's own tools to Claude Code. */
export const CLIMPT_MCP_SERVER = "climpt";

/** Claude Code's name for a climpt tool served over MCP (`mcp__climpt__github_close_issue`). */
export function climptToolName(name: GithubToolName): string {
  return `mcp__${CLIMPT_MCP_SERVER}__${name}`;
}

/** The tool Claude Code adds when the session has an output format; it carries the output. */
export const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";

/**
 * Claude Code tools that change nothing: they read files, search, fetch, or keep the session's
 * to-do list (`TodoWrite` in older Claude Code, the `Task*` tools in current ones).
 * Under `permissionMode: plan` a step keeps only these. Everything else (Write, Edit, Bash,
 * NotebookEdit, subagents, skills, MCP tools, whose effects climpt cannot know) is removed.
 */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Glob",
  "Grep",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskUpdate",
  "ToolSearch",
]);

/**
 * Former tool names Claude Code still accepts, mapped to the current ones (the SDK's
 * `LEGACY_TOOL_NAME_ALIASES`, kept here so this module stays pure and loads without the SDK).
 * An agent written for the original runtime lists `Task`; Claude Code calls that tool `Agent`.
 */
const LEGACY_NAMES: Readonly<Record<string, string>> = {
  Task: "Agent",
  KillShell: "TaskStop",
  KillBash: "TaskStop",
};

/** The current name of a tool, whatever name an allowedTools list used. */
export function canonicalToolName(name: string): string {
  return LEGACY_NAMES[name] ?? name;
}

/** Which tools one step gets under Claude Code, and why every other one is missing. */
export interface ToolAccess {
  readonly stepId: string;
  readonly stepKind: StepKind;
  /** The step's permissionMode, else the agent's (climpt's modes). */
  readonly permissionMode: PermissionMode;
  /** Built-in Claude Code tools the model sees: the SDK's `tools` option, canonical names. */
  readonly builtinTools: readonly string[];
  /**
   * Permission rules from allowedTools entries with a specifier (`Bash(git:*)`): the SDK's
   * `allowedTools` option. Claude Code runs a call these match without asking.
   */
  readonly allowRules: readonly string[];
  /** Tools granted only through such rules: a call no rule matches is refused. */
  readonly ruleOnlyTools: ReadonlySet<string>;
  /** climpt tools Claude Code does not have, served over MCP (GitHub tools in closure steps). */
  readonly climptTools: readonly GithubToolName[];
  /** MCP tools from the user's own servers that allowedTools names (`mcp__server__tool`, `mcp__server`). */
  readonly mcpPatterns: readonly string[];
  /** Why a tool is missing, or undefined when the step has it. */
  refusalFor(toolName: string): ToolRefusal | undefined;
}

interface ListedTool {
  /** Plain entries (`Bash`) grant the whole tool. */
  plain: boolean;
  /** Entries with a specifier (`Bash(git:*)`), as written. */
  rules: string[];
}

/** Groups an allowedTools list by canonical tool name. */
function listed(names: readonly string[]): Map<string, ListedTool> {
  const tools = new Map<string, ListedTool>();
  for (const raw of names) {
    const name = raw.trim();
    const open = name.indexOf("(");
    const base = canonicalToolName(open === -1 ? name : name.slice(0, open));
    if (base === "") continue;
    const entry = tools.get(base) ?? { plain: false, rules: [] };
    if (open === -1) entry.plain = true;
    else entry.rules.push(`${base}${name.slice(open)}`);
    tools.set(base, entry);
  }
  return tools;
}

function isGithubTool(name: string): name is GithubToolName {
  return (GITHUB_TOOL_NAMES as readonly string[]).includes(name);
}

function mcpMatches(pattern: string, toolName: string): boolean {
  if (pattern.endsWith("__*")) return toolName.startsWith(pattern.slice(0, -1));
  // `mcp__server` (two parts) names every tool of that server.
  if (pattern.split("__").length === 2) return toolName.startsWith(`${pattern}__`);
  return toolName === pattern;
}

/**
 * The tool policy of one step, as Claude Code options. The same rules as the default executor's
 * (`resolveToolPolicy` in `@climpt/tools`), widened to Claude Code's tools:
 *
 * - a tool is available when the agent's `allowedTools` lists it and the step's
 *   `permissions.allowedTools` (when set) lists it too; `Task` means Claude Code's `Agent`;
 * - an entry with a specifier (`Bash(git:*)`) grants only calls that rule matches;
 * - GitHub tools: only in closure steps of an agent whose GitHub integration is on, whatever the
 *   lists say (served over MCP, since Claude Code has no such tools);
 * - `permissionMode: plan` keeps only `READ_ONLY_TOOLS`.
 *
 * Pure: the Bash boundary filter and path confinement apply per call (see `tool-guard.ts`).
 */
export function resolveToolAccess(agent: AgentDefinition, step: Step): ToolAccess {
  const policy = resolveToolPolicy(agent, step);
  const permissionMode = policy.permissionMode;
  const plan = permissionMode === "plan";
  const agentTools = listed(agent.allowedTools);
  const stepTools =
    step.permissions.allowedTools === undefined ? undefined : listed(step.permissions.allowedTools);

  const refusals = new Map<string, ToolRefusal>();
  const builtinTools: string[] = [];
  const allowRules: string[] = [];
  const ruleOnlyTools = new Set<string>();
  const mcpPatterns: string[] = [];

  for (const [name, fromAgent] of agentTools) {
    if (isGithubTool(name)) continue; // decided by the policy below, never by the lists
    const fromStep = stepTools?.get(name);
    if (stepTools !== undefined && fromStep === undefined) {
      refusals.set(name, {
        code: TOOL_CODES.unavailable,
        reason: `"${name}" is not in step "${step.id}"'s permissions.allowedTools.`,
      });
      continue;
    }
    const plain = fromAgent.plain && (fromStep === undefined || fromStep.plain);
    const rules =
      fromStep !== undefined && fromStep.rules.length > 0 ? fromStep.rules : fromAgent.rules;
    if (name.startsWith("mcp__")) {
      if (plan) {
        refusals.set(name, planRefusal(step.id, name));
        continue;
      }
      mcpPatterns.push(name);
      continue;
    }
    if (plan && !READ_ONLY_TOOLS.has(name)) {
      refusals.set(name, planRefusal(step.id, name));
      continue;
    }
    builtinTools.push(name);
    if (!plain) {
      ruleOnlyTools.add(name);
      allowRules.push(...rules);
    }
  }

  const climptTools = policy.tools.filter(isGithubTool);
  for (const name of GITHUB_TOOL_NAMES) {
    const refusal = policy.unavailable[name];
    if (refusal !== undefined) refusals.set(climptToolName(name), refusal);
  }

  return {
    stepId: step.id,
    stepKind: step.kind,
    permissionMode,
    builtinTools,
    allowRules,
    ruleOnlyTools,
    climptTools,
    mcpPatterns,
    refusalFor(toolName) {
      const name = canonicalToolName(toolName);
      if (name === STRUCTURED_OUTPUT_TOOL) return undefined;
      if (name.startsWith(`mcp__${CLIMPT_MCP_SERVER}__`)) {
        const github = name.slice(`mcp__${CLIMPT_MCP_SERVER}__`.length);
        if (isGithubTool(github) && climptTools.includes(github)) return undefined;
        return refusals.get(name) ?? notListed(name);
      }
      if (name.startsWith("mcp__")) {
        if (mcpPatterns.some((pattern) => mcpMatches(pattern, name))) return undefined;
        for (const [pattern, refusal] of refusals) {
          if (pattern.startsWith("mcp__") && mcpMatches(pattern, name)) return refusal;
        }
        return notListed(name);
      }
      if (builtinTools.includes(name)) return undefined;
      return refusals.get(name) ?? notListed(name);
    },
  };
}

function planRefusal(stepId: string, name: string): ToolRefusal {
  return {
    code: TOOL_CODES.planReadOnly,
    reason: `step "${stepId}" runs in permissionMode "plan", which is read-only: "${name}" could change files or run commands, so it is not available. Read-only tools: ${[...READ_ONLY_TOOLS].join(", ")}.`,
  };
}

function notListed(name: string): ToolRefusal {
  return {
    code: TOOL_CODES.unavailable,
    reason: `"${name}" is not in the agent's allowedTools (agent.json), so this step does not have it.`,
  };
}
