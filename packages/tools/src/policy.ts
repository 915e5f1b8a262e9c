import {
  type AgentDefinition,
  type PermissionMode,
  parseMcpToolName,
  type Step,
  type StepKind,
} from "@climpt/model";
import { TOOL_CODES } from "./codes.ts";
import {
  isGithubToolName,
  isToolName,
  TOOL_NAMES,
  type ToolName,
  WRITING_TOOL_NAMES,
} from "./tool-names.ts";

/** Why a tool is missing from a step: a policy code and a sentence for the model and the audit. */
export interface ToolRefusal {
  readonly code: string;
  readonly reason: string;
}

/** Which tools one step gets, and why every other one is missing. */
export interface ToolPolicy {
  readonly stepId: string;
  readonly stepKind: StepKind;
  /**
   * The step's permissionMode, else `plan` when the agent says `plan`, else the step kind's
   * default (`STEP_KIND_PERMISSION_MODES`).
   */
  readonly permissionMode: PermissionMode;
  /** Available tools, in the canonical order of `TOOL_NAMES`. */
  readonly tools: readonly ToolName[];
  /** Every known tool that is not available, with the first rule that removed it. */
  readonly unavailable: Readonly<Partial<Record<ToolName, ToolRefusal>>>;
  /**
   * Names in the agent's or the step's allowedTools that climpt has no tool for (`Task`,
   * `Skill`…). MCP names are not among them: their servers decide (mcp-policy.ts).
   */
  readonly ignoredToolNames: readonly string[];
}

/**
 * The permission mode a step kind runs in when the step names none: work and closure steps may
 * edit, verification steps only look (they judge the work; they do not change it). Section steps
 * never run as a flow step; they get the work default.
 */
export const STEP_KIND_PERMISSION_MODES: Readonly<Record<StepKind, PermissionMode>> = {
  work: "acceptEdits",
  verification: "plan",
  closure: "acceptEdits",
  section: "acceptEdits",
};

/**
 * The permission mode of one step (docs/design.md#tools-and-their-boundary): the step's own
 * `permissionMode`; else `plan` when the agent's is `plan` (an agent declared read-only stays
 * read-only); else its kind's default, `STEP_KIND_PERMISSION_MODES`.
 */
export function stepPermissionMode(agent: AgentDefinition, step: Step): PermissionMode {
  const own = step.permissions.permissionMode;
  if (own !== undefined) return own;
  if (agent.permissionMode === "plan") return "plan";
  return STEP_KIND_PERMISSION_MODES[step.kind];
}

/**
 * The tool policy of one step (docs/design.md#tools-and-their-boundary), computed from data only:
 *
 * - file tools: agent `allowedTools` ∩ step `permissions.allowedTools` (when set);
 * - GitHub tools: only in closure steps, only when the agent's GitHub integration is enabled, and
 *   only those the same lists name: a closure step gets no GitHub tool its agent did not ask for;
 * - the step's permission mode (`stepPermissionMode`): `plan` removes every tool with side effects
 *   (Write, Edit, Bash, GitHub). `default`, `acceptEdits` and `bypassPermissions` keep what the
 *   lists allow: a headless run has nobody to ask, so "ask first" cannot be honoured and the
 *   lists are the whole answer.
 *
 * Boundary Bash patterns and path confinement are not part of this table: they apply to every step
 * and every mode, checked per call by the toolbox.
 */
export function resolveToolPolicy(agent: AgentDefinition, step: Step): ToolPolicy {
  const permissionMode = stepPermissionMode(agent, step);
  const stepList = step.permissions.allowedTools;
  const unavailable: Partial<Record<ToolName, ToolRefusal>> = {};
  const tools: ToolName[] = [];

  for (const name of TOOL_NAMES) {
    const refusal = refusalFor(name, agent, step, permissionMode, stepList);
    if (refusal === undefined) tools.push(name);
    else unavailable[name] = refusal;
  }

  return {
    stepId: step.id,
    stepKind: step.kind,
    permissionMode,
    tools,
    unavailable,
    ignoredToolNames: unknownToolNames([...agent.allowedTools, ...(stepList ?? [])]),
  };
}

/**
 * The distinct names in a list that are not climpt tools, in first-seen order. MCP tool names
 * (`mcp__<server>…`) are tools of the agent's servers, decided by mcp-policy.ts, not unknown.
 */
export function unknownToolNames(names: readonly string[]): string[] {
  return [
    ...new Set(names.filter((name) => !isToolName(name) && parseMcpToolName(name) === undefined)),
  ];
}

function refusalFor(
  name: ToolName,
  agent: AgentDefinition,
  step: Step,
  permissionMode: PermissionMode,
  stepList: readonly string[] | undefined,
): ToolRefusal | undefined {
  if (isGithubToolName(name)) {
    if (step.kind !== "closure") {
      return {
        code: TOOL_CODES.unavailable,
        reason: `GitHub tools exist only in closure steps; "${step.id}" is a ${step.kind} step, where issue and pull-request actions are not available.`,
      };
    }
    if (!agent.github.enabled) {
      return {
        code: TOOL_CODES.unavailable,
        reason: `the agent's GitHub integration is disabled, so closure step "${step.id}" has no GitHub tools.`,
      };
    }
  }
  if (!agent.allowedTools.includes(name)) {
    return {
      code: TOOL_CODES.unavailable,
      reason: `"${name}" is not in the agent's allowedTools (agent.json).`,
    };
  }
  if (stepList !== undefined && !stepList.includes(name)) {
    return {
      code: TOOL_CODES.unavailable,
      reason: `"${name}" is not in step "${step.id}"'s permissions.allowedTools.`,
    };
  }
  if (permissionMode === "plan" && WRITING_TOOL_NAMES.includes(name)) {
    return {
      code: TOOL_CODES.planReadOnly,
      reason: `step "${step.id}" runs in permissionMode "plan", which is read-only: ${WRITING_TOOL_NAMES.join(", ")} are refused.`,
    };
  }
  return undefined;
}

/** Whether a tool can change files (Write, Edit; Bash is reported separately). */
export function canWriteFiles(tools: readonly ToolName[]): boolean {
  return tools.includes("Write") || tools.includes("Edit");
}

export function canTouchGithub(tools: readonly ToolName[]): boolean {
  return tools.some((name) => isGithubToolName(name));
}
