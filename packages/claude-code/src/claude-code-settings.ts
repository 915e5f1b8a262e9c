import type { AgentDefinition, JsonSchema, JsonValue, Step } from "@climpt/model";
import type { StepEvent, ToolExecutor } from "@climpt/sdk-adapter";
import type { ProtectedPath } from "@climpt/tools";
import type { Env, SandboxOptions } from "./session-env.ts";
import type { ModelReply } from "./step-transcript.ts";

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
