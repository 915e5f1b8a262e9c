import { existsSync } from "node:fs";
import path from "node:path";
import type { CanUseTool, HookCallback, Options, WarmQuery } from "@anthropic-ai/claude-agent-sdk";
import { ClimptError, type JsonValue } from "@climpt/model";
import { modelId, type ToolExecutor } from "@climpt/sdk-adapter";
import { type GithubToolName, resolveProtectedPaths, workingRoot } from "@climpt/tools";
import { agentMcpServers } from "./agent-mcp-servers.ts";
import type {
  ClaudeCodeSettings,
  ClaudeCodeStepInput,
  SettingSource,
  ToolRefusalEvent,
} from "./claude-code-settings.ts";
import { climptToolServer } from "./climpt-tool-server.ts";
import { CLAUDE_CODE_CODES } from "./codes.ts";
import { gitDenyWrite } from "./git-protection.ts";
import { sandboxSettings, sessionEnv, sessionScrubber } from "./session-env.ts";
import { compileStepSchema } from "./step-outcome.ts";
import { CLIMPT_MCP_SERVER, climptToolName, resolveToolAccess } from "./tool-access.ts";
import { createToolGuard, type GuardVerdict } from "./tool-guard.ts";

/**
 * Everything of a step phase that decides how its Claude Code session is started (its policy,
 * model, prompt-independent options): a step input without the prompt and the callbacks. A
 * session can be started from this before the prompt is known (warm-sessions.ts).
 */
export type PhaseSpec = Omit<
  ClaudeCodeStepInput,
  "prompt" | "signal" | "onEvent" | "onTextDelta" | "onToolRefused" | "onReply"
>;

/** What a planned session reports to once a step claims it. */
export interface SessionSink {
  readonly onToolRefused?: ((event: ToolRefusalEvent) => void) | undefined;
}

/** A session's options and the state its callbacks share, ready for `query()` or `startup()`. */
export interface SessionPlan {
  readonly options: Options;
  readonly abortController: AbortController;
  readonly model: string;
  readonly schema: ReturnType<typeof compileStepSchema>;
  readonly maxTurns: number;
  /** The policy and start-up inputs this plan was built from (`phaseFingerprint`). */
  readonly fingerprint: string;
  /** Whether the plan starts the agent's own MCP servers (those are not started ahead). */
  readonly hasAgentServers: boolean;
  readonly stderrTail: () => string;
  /** Where refusals go from now on (a warm plan is built before its step is known). */
  bind(sink: SessionSink): void;
  release(): Promise<void>;
}

/** A session started ahead for this step (warm-sessions.ts): its plan and its warm process. */
export interface ClaimedSession {
  readonly plan: SessionPlan;
  readonly warm: WarmQuery;
}

const DEFAULT_MAX_TURNS = 30;
let toolboxSessions = 0;
const STDERR_TAIL_BYTES = 4096;
const SETTING_SOURCES: readonly SettingSource[] = ["user", "project", "local"];

function toJsonValue(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

/** The run's protected paths that exist now: held read-only by the sandbox. */
function existingProtectedPaths(spec: PhaseSpec): string[] {
  return resolveProtectedPaths(workingRoot(spec.cwd), spec.protectedPaths ?? [])
    .map((entry) => entry.real)
    .filter((entry) => existsSync(entry));
}

/**
 * Every input a session's options are computed from, as one string: two specs with the same
 * fingerprint give the same options (tools, rules, permission mode, sandbox with its read-only
 * paths as they are on disk now, model, system prompt, schema, limits). A pre-started session
 * serves a step only when its fingerprint equals the step's, computed when the step starts.
 */
export function phaseFingerprint(spec: PhaseSpec): string {
  return JSON.stringify({
    model: modelId(spec.model),
    system: spec.system ?? null,
    outputSchema: spec.outputSchema ?? null,
    cwd: spec.cwd,
    agent: spec.agent,
    step: spec.step,
    // A session with climpt's GitHub tools is bound to its step's own toolbox: never shared.
    toolbox:
      spec.toolbox !== undefined && resolveToolAccess(spec.agent, spec.step).climptTools.length > 0
        ? `toolbox-${++toolboxSessions}`
        : null,
    protectedPaths: spec.protectedPaths ?? [],
    maxTurns: spec.maxTurns ?? null,
    maxTokens: spec.maxTokens ?? null,
    timeoutMs: spec.timeoutMs ?? null,
    denyWrite: [...gitDenyWrite(spec.cwd), ...existingProtectedPaths(spec)],
  });
}

/**
 * Builds the options of one Claude Code session for a step phase: climpt's tool policy as the
 * hook and `canUseTool`, the sandbox, the GitHub tools of closure steps, the agent's MCP servers.
 * The hook and `canUseTool` report refusals to the sink bound last, so a session started ahead
 * reports to the step that claims it.
 */
export async function planSession(
  settings: ClaudeCodeSettings,
  spec: PhaseSpec,
): Promise<SessionPlan> {
  if (!path.isAbsolute(spec.cwd)) {
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.badSettings,
      message: `The step's working directory "${spec.cwd}" is not absolute.`,
      hint: "Pass the run's working directory as an absolute path.",
    });
  }
  const fingerprint = phaseFingerprint(spec);
  const model = modelId(spec.model);
  const schema = compileStepSchema(spec.outputSchema);
  const maxTurns = spec.maxTurns ?? DEFAULT_MAX_TURNS;
  const access = resolveToolAccess(spec.agent, spec.step);
  const guard = createToolGuard(access, spec.cwd, spec.protectedPaths);
  // Held read-only in the sandbox where they exist (an absent path would get a placeholder).
  const denyWrite = existingProtectedPaths(spec);
  const env = sessionEnv({
    ...(settings.env === undefined ? {} : { base: settings.env }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    ...(spec.maxTokens === undefined ? {} : { maxTokens: spec.maxTokens }),
  });
  const scrubber = sessionScrubber(env);
  let stderrTail = "";
  let sink: SessionSink = {};

  const refused = new Set<string>();
  const report = (id: string, tool: string, toolInput: unknown, verdict: GuardVerdict): void => {
    if (verdict.allowed || refused.has(id)) return;
    refused.add(id);
    sink.onToolRefused?.({
      id,
      tool,
      code: verdict.code,
      reason: verdict.reason,
      input: toJsonValue(toolInput),
    });
  };

  // The MCP handler of a climpt tool does not see the tool_use id; the hook does, just before.
  const climptCallIds = new Map<string, string[]>();
  const preToolUse: HookCallback = async (hookInput, toolUseId) => {
    if (hookInput.hook_event_name !== "PreToolUse") return {};
    const verdict = guard(hookInput.tool_name, hookInput.tool_input);
    const id = toolUseId ?? hookInput.tool_use_id;
    if (!verdict.allowed) {
      report(id, hookInput.tool_name, hookInput.tool_input, verdict);
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: `${verdict.code}: ${verdict.reason}`,
        },
      };
    }
    if (hookInput.tool_name.startsWith(`mcp__${CLIMPT_MCP_SERVER}__`)) {
      const queue = climptCallIds.get(hookInput.tool_name) ?? [];
      queue.push(id);
      climptCallIds.set(hookInput.tool_name, queue);
    }
    // No decision: Claude Code's own permission rules and canUseTool come next.
    return {};
  };

  const canUseTool: CanUseTool = async (toolName, toolInput, options) => {
    const verdict = guard(toolName, toolInput);
    const id = options.toolUseID ?? toolName;
    if (!verdict.allowed) {
      report(id, toolName, toolInput, verdict);
      return { behavior: "deny", message: `${verdict.code}: ${verdict.reason}` };
    }
    if (access.ruleOnlyTools.has(toolName)) {
      const rules = access.allowRules.filter((rule) => rule.startsWith(`${toolName}(`));
      const denial: GuardVerdict = {
        allowed: false,
        code: "TOOL-POLICY-001",
        reason: `the agent allows ${toolName} only as ${rules.join(", ")}, and this call matches none of them.`,
      };
      report(id, toolName, toolInput, denial);
      return { behavior: "deny", message: `${denial.code}: ${denial.reason}` };
    }
    if (toolName === "AskUserQuestion") {
      return {
        behavior: "deny",
        message: "Nobody can answer questions during a climpt step: decide yourself and go on.",
      };
    }
    return { behavior: "allow", updatedInput: toolInput };
  };

  const mcpServers: NonNullable<Options["mcpServers"]> = {};
  if (access.climptTools.length > 0 && spec.toolbox !== undefined) {
    const toolbox: ToolExecutor = spec.toolbox;
    mcpServers[CLIMPT_MCP_SERVER] = climptToolServer(
      toolbox,
      access.climptTools,
      (name: GithubToolName) => climptCallIds.get(climptToolName(name))?.shift() ?? `${name}-call`,
    );
  }

  // The agent's own MCP servers, confined as under the default executor (agent-mcp-servers.ts).
  const agentServers = await agentMcpServers({
    agent: spec.agent,
    step: spec.step,
    cwd: spec.cwd,
    ...(spec.protectedPaths === undefined ? {} : { protectedPaths: spec.protectedPaths }),
    ...(settings.env === undefined ? {} : { env: settings.env }),
  });
  Object.assign(mcpServers, agentServers.servers);

  const abortController = new AbortController();
  const systemPrompt: Options["systemPrompt"] =
    settings.systemPrompt === "claude-code"
      ? {
          type: "preset",
          preset: "claude_code",
          ...(spec.system === undefined ? {} : { append: spec.system }),
        }
      : (spec.system ?? "");

  const options: Options = {
    cwd: spec.cwd,
    env,
    model,
    systemPrompt,
    tools: [...access.builtinTools],
    allowedTools: [...access.allowRules],
    // climpt decides every permission through canUseTool; plan steps also run in Claude Code's
    // plan mode. bypassPermissions is never passed on: it would skip canUseTool.
    permissionMode: access.permissionMode === "plan" ? "plan" : "default",
    canUseTool,
    hooks: { PreToolUse: [{ hooks: [preToolUse] }] },
    settingSources: [...(settings.settingSources ?? SETTING_SOURCES)],
    persistSession: false,
    includePartialMessages: true,
    maxTurns,
    abortController,
    mcpServers,
    // An agent that declares its servers gets those, not also the user's .mcp.json.
    strictMcpConfig: access.mcpPatterns.length === 0 || spec.agent.mcpServers !== undefined,
    ...(settings.sandbox === "off"
      ? { sandbox: { enabled: false } }
      : {
          sandbox: sandboxSettings({
            ...(settings.allowedDomains === undefined
              ? {}
              : { allowedDomains: settings.allowedDomains }),
            // The repository's git paths (git-protection.ts) and the run's protected paths
            // (the journal, the agent definitions).
            denyWrite: [...gitDenyWrite(spec.cwd), ...denyWrite],
          }),
        }),
    ...(spec.outputSchema === undefined
      ? {}
      : { outputFormat: { type: "json_schema", schema: { ...spec.outputSchema } } }),
    ...(settings.executable === undefined
      ? {}
      : { pathToClaudeCodeExecutable: settings.executable }),
    stderr: (data: string) => {
      const text = scrubber.scrub(data);
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL_BYTES);
      settings.onStderr?.(text);
    },
  };

  return {
    options,
    abortController,
    model,
    schema,
    maxTurns,
    fingerprint,
    hasAgentServers: Object.keys(agentServers.servers).length > 0,
    stderrTail: () => stderrTail,
    bind: (next) => {
      sink = next;
    },
    release: () => agentServers.release(),
  };
}
