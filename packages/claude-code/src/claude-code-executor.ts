import { existsSync } from "node:fs";
import path from "node:path";
import {
  type CanUseTool,
  type HookCallback,
  type Options,
  query,
  type SDKResultMessage,
} from "@anthropic-ai/claude-agent-sdk";
import {
  type AgentDefinition,
  ClimptError,
  type JsonSchema,
  type JsonValue,
  type Step,
} from "@climpt/model";
import { modelId, type StepEvent, type StepResult, type ToolExecutor } from "@climpt/sdk-adapter";
import {
  type GithubToolName,
  type ProtectedPath,
  resolveProtectedPaths,
  workingRoot,
} from "@climpt/tools";
import { agentMcpServers } from "./agent-mcp-servers.ts";
import { climptToolServer } from "./climpt-tool-server.ts";
import { CLAUDE_CODE_CODES } from "./codes.ts";
import { gitDenyWrite } from "./git-protection.ts";
import {
  type Env,
  type SandboxOptions,
  sandboxSettings,
  sessionEnv,
  sessionScrubber,
} from "./session-env.ts";
import { compileStepSchema, stepOutcome, thrownOutcome } from "./step-outcome.ts";
import { type ModelReply, StepTranscript } from "./step-transcript.ts";
import { CLIMPT_MCP_SERVER, climptToolName, resolveToolAccess } from "./tool-access.ts";
import { createToolGuard, type GuardVerdict } from "./tool-guard.ts";

/** Which settings files Claude Code reads (`~/.claude`, the project's `.claude/`, the local one). */
export type SettingSource = "user" | "project" | "local";

/** How the executor runs Claude Code: the same for every step of a run. */
export interface ClaudeCodeSettings {
  /** The environment Claude Code starts from (credentials, HOME, PATH). Default: this process's. */
  readonly env?: Env;
  /** A `claude` binary to run instead of the one the SDK's platform package carries. */
  readonly executable?: string;
  /** Default: all three, as `claude` reads them; `[]` reads none (no CLAUDE.md either). */
  readonly settingSources?: readonly SettingSource[];
  /**
   * `"required"` (default): commands run in Claude Code's OS sandbox (writes only in the working
   * directory, no network but `allowedDomains`, no API credentials), and a step fails with
   * `AC-CC-002` when it cannot start. `"off"`: commands run unsandboxed with the session's
   * environment, credentials included; only the policy checks guard them.
   */
  readonly sandbox?: "required" | "off";
  /** Domains sandboxed commands may reach. Default: none. */
  readonly allowedDomains?: SandboxOptions["allowedDomains"];
  /**
   * `"agent"` (default): the agent's system prompt is the whole system prompt, as with the default
   * executor. `"claude-code"`: Claude Code's own system prompt with the agent's appended (about
   * 10k more input tokens per call, and Claude Code's guidance on its tools).
   */
  readonly systemPrompt?: "agent" | "claude-code";
  /** API retries inside Claude Code per call. Default: Claude Code's own (10). */
  readonly maxRetries?: number;
  /** Each line Claude Code writes to stderr, secrets removed. */
  readonly onStderr?: (text: string) => void;
}

/** A refused tool call, as the default executor's toolbox reports one (`tool_refused`). */
export interface ToolRefusalEvent {
  readonly id: string;
  readonly tool: string;
  readonly code: string;
  readonly reason: string;
  readonly input: JsonValue;
}

/** One step phase, as the runner hands it to an executor. */
export interface ClaudeCodeStepInput {
  /** An alias (`opus`, `sonnet`, `haiku`) or a full model id. */
  readonly model: string;
  readonly system?: string;
  /** The resolved step prompt: the first (and only) user message of a fresh session. */
  readonly prompt: string;
  /** The step's output schema, sent as Claude Code's structured output. */
  readonly outputSchema?: JsonSchema;
  /** The run's working directory (absolute). */
  readonly cwd: string;
  readonly agent: AgentDefinition;
  readonly step: Step;
  /**
   * The climpt toolbox of this step execution (`createToolbox`). Its GitHub tools are offered to
   * the model in closure steps, so close and label requests collect there for the boundary hook.
   */
  readonly toolbox?: ToolExecutor;
  /**
   * What no tool of the run may change (the journal folder, the agent definitions): the guard
   * refuses Write, Edit and NotebookEdit there, and Claude Code's sandbox holds them read-only.
   */
  readonly protectedPaths?: readonly ProtectedPath[];
  /** Model calls allowed in the step (Claude Code's `maxTurns`). Default 30. */
  readonly maxTurns?: number;
  /** Output tokens per call. Default: Claude Code's. */
  readonly maxTokens?: number;
  /** Per API request, in ms. Default: Claude Code's. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: StepEvent) => void;
  readonly onTextDelta?: (delta: string) => void;
  readonly onToolRefused?: (event: ToolRefusalEvent) => void;
  /** Each finished model call with its content (what a journal records of a reply). */
  readonly onReply?: (reply: ModelReply) => void;
}

export interface ClaudeCodeExecutor {
  readonly name: "claude-code";
  readonly settings: ClaudeCodeSettings;
  /** Runs one step phase as one fresh Claude Code session. */
  runStep(input: ClaudeCodeStepInput): Promise<StepResult>;
}

const DEFAULT_MAX_TURNS = 30;
const STDERR_TAIL_BYTES = 4096;
const SETTING_SOURCES: readonly SettingSource[] = ["user", "project", "local"];

function checkSettings(settings: ClaudeCodeSettings): void {
  const bad = (settings.settingSources ?? []).filter((source) => !SETTING_SOURCES.includes(source));
  if (bad.length > 0) {
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.badSettings,
      message: `Unknown Claude Code settings source(s): ${bad.join(", ")}.`,
      hint: `Use any of ${SETTING_SOURCES.join(", ")}, or [] to read no settings files.`,
    });
  }
  if (
    settings.sandbox !== undefined &&
    settings.sandbox !== "required" &&
    settings.sandbox !== "off"
  ) {
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.badSettings,
      message: `The executor's sandbox setting is "${String(settings.sandbox)}".`,
      hint: 'Use "required" (the default) or "off".',
    });
  }
}

function toJsonValue(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

/**
 * The Claude Code executor: each step phase runs as one fresh Claude Code session through the
 * Claude Agent SDK's `query()`, under climpt's tool policy, and returns the same `StepResult`
 * (and `StepEvent`s) as the default executor's `runStep`.
 */
export function createClaudeCodeExecutor(settings: ClaudeCodeSettings = {}): ClaudeCodeExecutor {
  checkSettings(settings);
  return {
    name: "claude-code",
    settings,
    runStep: (input) => runClaudeCodeStep(settings, input),
  };
}

async function runClaudeCodeStep(
  settings: ClaudeCodeSettings,
  input: ClaudeCodeStepInput,
): Promise<StepResult> {
  if (!path.isAbsolute(input.cwd)) {
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.badSettings,
      message: `The step's working directory "${input.cwd}" is not absolute.`,
      hint: "Pass the run's working directory as an absolute path.",
    });
  }
  const model = modelId(input.model);
  const schema = compileStepSchema(input.outputSchema);
  const maxTurns = input.maxTurns ?? DEFAULT_MAX_TURNS;
  const access = resolveToolAccess(input.agent, input.step);
  const guard = createToolGuard(access, input.cwd, input.protectedPaths);
  // Held read-only in the sandbox where they exist (an absent path would get a placeholder).
  const denyWrite = resolveProtectedPaths(workingRoot(input.cwd), input.protectedPaths ?? [])
    .map((entry) => entry.real)
    .filter((entry) => existsSync(entry));
  const env = sessionEnv({
    ...(settings.env === undefined ? {} : { base: settings.env }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
    ...(input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens }),
  });
  const scrubber = sessionScrubber(env);
  let stderrTail = "";
  const transcript = new StepTranscript({
    prompt: input.prompt,
    model,
    ...(input.onEvent === undefined ? {} : { onEvent: input.onEvent }),
    ...(input.onTextDelta === undefined ? {} : { onTextDelta: input.onTextDelta }),
    ...(input.onReply === undefined ? {} : { onReply: input.onReply }),
  });

  const refused = new Set<string>();
  const report = (id: string, tool: string, toolInput: unknown, verdict: GuardVerdict): void => {
    if (verdict.allowed || refused.has(id)) return;
    refused.add(id);
    input.onToolRefused?.({
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
  if (access.climptTools.length > 0 && input.toolbox !== undefined) {
    mcpServers[CLIMPT_MCP_SERVER] = climptToolServer(
      input.toolbox,
      access.climptTools,
      (name: GithubToolName) => climptCallIds.get(climptToolName(name))?.shift() ?? `${name}-call`,
    );
  }

  // The agent's own MCP servers, confined as under the default executor (agent-mcp-servers.ts).
  const agentServers = await agentMcpServers({
    agent: input.agent,
    step: input.step,
    cwd: input.cwd,
    ...(input.protectedPaths === undefined ? {} : { protectedPaths: input.protectedPaths }),
    ...(settings.env === undefined ? {} : { env: settings.env }),
  });
  Object.assign(mcpServers, agentServers.servers);

  const abortController = new AbortController();
  const onAbort = (): void => abortController.abort();
  if (input.signal?.aborted === true) abortController.abort();
  input.signal?.addEventListener("abort", onAbort, { once: true });

  const systemPrompt: Options["systemPrompt"] =
    settings.systemPrompt === "claude-code"
      ? {
          type: "preset",
          preset: "claude_code",
          ...(input.system === undefined ? {} : { append: input.system }),
        }
      : (input.system ?? "");

  const options: Options = {
    cwd: input.cwd,
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
    strictMcpConfig: access.mcpPatterns.length === 0 || input.agent.mcpServers !== undefined,
    ...(settings.sandbox === "off"
      ? { sandbox: { enabled: false } }
      : {
          sandbox: sandboxSettings({
            ...(settings.allowedDomains === undefined
              ? {}
              : { allowedDomains: settings.allowedDomains }),
            // The repository's git paths (git-protection.ts) and the run's protected paths
            // (the journal, the agent definitions).
            denyWrite: [...gitDenyWrite(input.cwd), ...denyWrite],
          }),
        }),
    ...(input.outputSchema === undefined
      ? {}
      : { outputFormat: { type: "json_schema", schema: { ...input.outputSchema } } }),
    ...(settings.executable === undefined
      ? {}
      : { pathToClaudeCodeExecutable: settings.executable }),
    stderr: (data: string) => {
      const text = scrubber.scrub(data);
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL_BYTES);
      settings.onStderr?.(text);
    },
  };

  const context = {
    model,
    schema,
    maxTurns,
    transcript,
    stderrTail: () => stderrTail,
  };
  let result: SDKResultMessage | undefined;
  try {
    for await (const message of query({ prompt: input.prompt, options })) {
      if (message.type === "result") {
        result ??= message;
        continue;
      }
      transcript.accept(message);
    }
  } catch (error) {
    // query() throws after an error result too ("Claude Code returned an error result"): the
    // result message says more than the exception, so it decides when there is one.
    if (result === undefined || abortController.signal.aborted) {
      transcript.finish();
      throw thrownOutcome(error, { ...context, aborted: abortController.signal.aborted });
    }
  } finally {
    input.signal?.removeEventListener("abort", onAbort);
    await agentServers.release();
  }
  transcript.finish();
  if (result === undefined) {
    throw thrownOutcome(new Error("the session ended without a result message"), {
      ...context,
      aborted: abortController.signal.aborted,
    });
  }
  return stepOutcome(result, context);
}
