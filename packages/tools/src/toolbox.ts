import type {
  AgentDefinition,
  JsonValue,
  Step,
  ToolCall,
  ToolDefinition,
  ToolExecutor,
  ToolResult,
} from "@climpt/model";
import {
  collectSecrets,
  createScrubber,
  parseMcpToolName,
  type SecretScrubber,
} from "@climpt/model";
import { type BoundaryRequest, BoundaryRequestLog } from "./boundary-request.ts";
import type { BuiltinTool, PreparedCall, ToolboxNotice, ToolContext } from "./builtin-tool.ts";
import { TOOL_CODES } from "./codes.ts";
import { workingRoot } from "./confine-path.ts";
import type { ToolEvent } from "./events.ts";
import { createGithubAccess, type GithubAccess } from "./github-access.ts";
import { runMcpCall } from "./mcp/mcp-call.ts";
import type { McpStepTools } from "./mcp/mcp-step-tools.ts";
import { PATTERN_DEADLINE_MS } from "./pattern-failure.ts";
import { resolveToolPolicy, type ToolPolicy } from "./policy.ts";
import { type ProtectedPath, resolveProtectedPaths } from "./protected-paths.ts";
import type { RunRepository } from "./run-repository.ts";
import { type GitPushSetting, NO_PUSH_TARGET } from "./sandbox/git-push-target.ts";
import { resolveSandboxSettings, type SandboxSettingsInput } from "./sandbox/settings.ts";
import { isToolName, type ToolName } from "./tool-names.ts";
import { bashTool } from "./tools/bash.ts";
import { editTool } from "./tools/edit.ts";
import { githubCloseIssueTool, githubCommentTool, githubEditLabelsTool } from "./tools/github.ts";
import { globTool } from "./tools/glob.ts";
import { grepTool } from "./tools/grep.ts";
import { readTool } from "./tools/read.ts";
import { writeTool } from "./tools/write.ts";

export const DEFAULT_BASH_TIMEOUT_MS: number = 2 * 60 * 1000;
export const DEFAULT_OUTPUT_CAP_BYTES = 50_000;

/**
 * Environment variables no tool subprocess sees, even when passed in `env`: the model's
 * credentials must not be printable by a Bash call (its output goes into the conversation and
 * the recordings).
 */
export const WITHHELD_ENV_VARS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
] as const;

export interface ToolboxOptions {
  /** The run's working directory: file tools are confined to it, Bash and gh run in it. */
  readonly cwd: string;
  readonly agent: AgentDefinition;
  readonly step: Step;
  readonly onEvent?: (event: ToolEvent) => void;
  /** The gh executable (name on PATH or a path). Default `gh`. */
  readonly ghCommand?: string;
  /** Default Bash timeout; a call may ask for another up to 10 minutes. Default 2 minutes. */
  readonly bashTimeoutMs?: number;
  /** How long Grep and Glob may match (in a worker) before they stop. Default 20 seconds. */
  readonly patternTimeoutMs?: number;
  /** Cap of each tool result, in bytes. Default 50 000. */
  readonly outputCapBytes?: number;
  /** Overrides of the subprocess environment (`undefined` removes a variable). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * How Bash commands are sandboxed (agent.json `runner.boundaries.sandbox`): `"required"` (the
   * default), `"off"`, or `{ mode, network: { allow }, readable }`.
   */
  readonly sandbox?: SandboxSettingsInput;
  /**
   * Secrets the agent declares (agent.json `runner.boundaries.secrets`): variable names whose
   * values are secret, and literal values. Added to the known names and `_TOKEN`/`_KEY`/
   * `_SECRET`/`_PASSWORD` variables; all are scrubbed from tool results.
   */
  readonly secrets?: { readonly env?: readonly string[]; readonly values?: readonly string[] };
  /**
   * Replaces the scrubber built from the environment and `secrets` (a runner shares one across
   * the run).
   */
  readonly scrubber?: SecretScrubber;
  /** Reports notices (the sandbox is off). Without it they become process warnings. */
  readonly onNotice?: (notice: ToolboxNotice) => void;
  /**
   * What `git push` inside the sandbox may push: the run's push target
   * (`resolveGitPushTarget`, made once per run before its first step), or `{ refused }` with the
   * reason given to a command that pushes. Default: no pushes.
   */
  readonly gitPush?: GitPushSetting;
  /**
   * The run's arguments: `issue` is the run's own issue and `prNumber` (or `pr`) its own pull
   * request, the only ones its GitHub writes may touch unless agent.json declares more
   * (`integrations.github.targets`). Without them, no issue or pull request is the run's.
   */
  readonly params?: Readonly<Record<string, JsonValue | undefined>>;
  /**
   * The run's repository (`resolveRunRepository`, made once per run before its first step): every
   * gh call of the step that names no repository acts there, wherever the command runs. Without
   * it the toolbox asks gh in the working directory once, when a gh call first needs it.
   */
  readonly githubRepository?: RunRepository;
  /**
   * Folders (or files) in the working directory the model may read but not change: the run's
   * journal folder and the agent definitions, which the host acts on later (resume reads the
   * journal; the next run loads the definition and runs its hooks and validators outside the
   * sandbox). Write and Edit refuse them (`TOOL-POLICY-004`, with the entry's reason) and they
   * are read-only inside the sandbox. One that does not exist when a command starts is not
   * protected inside the sandbox (a bind over an absent path would leave a placeholder on the
   * host); the runner creates the journal folder before the first step. Default: none.
   */
  readonly protectedPaths?: readonly ProtectedPath[];
  /**
   * The step's MCP tools (`stepMcpTools` with the run's servers): offered after the built-in
   * tools as `mcp__<server>__<tool>`, their results capped and scrubbed like the built-in ones.
   * Default: none.
   */
  readonly mcp?: McpStepTools;
}

/** The tools of one step: a ToolExecutor plus the boundary requests its closure tools recorded. */
export interface Toolbox extends ToolExecutor {
  readonly policy: ToolPolicy;
  /** Close / label requests for the boundary hook, one per issue; empty outside closure steps. */
  boundaryRequests(): readonly BoundaryRequest[];
}

const BUILTIN_TOOLS: Readonly<Record<ToolName, BuiltinTool>> = {
  Read: readTool,
  Write: writeTool,
  Edit: editTool,
  Bash: bashTool,
  Glob: globTool,
  Grep: grepTool,
  github_comment: githubCommentTool,
  github_edit_labels: githubEditLabelsTool,
  github_close_issue: githubCloseIssueTool,
};

const POLICY_LABELS: Readonly<Record<string, string>> = {
  [TOOL_CODES.unavailable]: "tool policy",
  [TOOL_CODES.planReadOnly]: "permission-mode policy",
  [TOOL_CODES.boundaryCommand]: "boundary policy",
  [TOOL_CODES.pathOutside]: "working-directory policy",
  [TOOL_CODES.commandTooLong]: "command-size policy",
  [TOOL_CODES.notRunsTarget]: "GitHub target policy",
};

/**
 * Builds the toolbox of one step execution. Create one per step execution: the boundary requests
 * it collects belong to that execution only.
 */
export function createToolbox(options: ToolboxOptions): Toolbox {
  const root = workingRoot(options.cwd);
  const policy = resolveToolPolicy(options.agent, options.step);
  const protectedPaths = resolveProtectedPaths(root, options.protectedPaths ?? []);
  const boundary = new BoundaryRequestLog();
  let env: Record<string, string> | undefined;
  let hostEnv: Record<string, string> | undefined;
  let scrubber: SecretScrubber | undefined = options.scrubber;
  const noticed = new Set<string>();
  let github: GithubAccess | undefined;
  const context: ToolContext = {
    root,
    outputCapBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
    bashTimeoutMs: options.bashTimeoutMs ?? DEFAULT_BASH_TIMEOUT_MS,
    patternTimeoutMs: options.patternTimeoutMs ?? PATTERN_DEADLINE_MS,
    // Built on first use, not here: copying process.env is most of what creating a toolbox
    // costs, and most step executions start no subprocess at all.
    get env() {
      env ??= subprocessEnv(options.env);
      return env;
    },
    get hostEnv() {
      hostEnv ??= callerEnv(options.env);
      return hostEnv;
    },
    get scrubber() {
      scrubber ??= createScrubber(
        collectSecrets({
          env: context.hostEnv,
          secretEnvNames: options.secrets?.env ?? [],
          secretValues: options.secrets?.values ?? [],
        }),
      );
      return scrubber;
    },
    declaredSecretNames: options.secrets?.env ?? [],
    protectedPaths,
    ghCommand: options.ghCommand ?? "gh",
    boundary,
    get github() {
      github ??= createGithubAccess({
        agent: options.agent,
        ...(options.params === undefined ? {} : { params: options.params }),
        ...(options.githubRepository === undefined ? {} : { repository: options.githubRepository }),
        ghCommand: context.ghCommand,
        env: () => context.env,
        cwd: root.real,
      });
      return github;
    },
    stepKind: options.step.kind,
    sandbox: {
      ...resolveSandboxSettings(options.sandbox),
      protectedPaths: protectedPaths.map((entry) => entry.real),
    },
    gitPush: options.gitPush ?? NO_PUSH_TARGET,
    notice(notice) {
      if (noticed.has(notice.code)) return;
      noticed.add(notice.code);
      context.report(notice);
    },
    report(notice) {
      if (options.onNotice !== undefined) options.onNotice(notice);
      else process.emitWarning(notice.message, { code: notice.code });
    },
  };
  const definitions: ToolDefinition[] = policy.tools.map((name) => {
    const tool = BUILTIN_TOOLS[name];
    return { name, description: tool.description, inputSchema: tool.inputSchema };
  });
  for (const tool of options.mcp?.tools ?? []) definitions.push(tool.definition);
  const emit = (event: ToolEvent): void => options.onEvent?.(event);

  const refuse = (call: ToolCall, code: string, reason: string): ToolResult => {
    emit({ type: "tool_refused", id: call.id, tool: call.name, code, reason, input: call.input });
    return {
      content: `${code} refused by the ${POLICY_LABELS[code] ?? "policy"}: ${reason}`,
      isError: true,
    };
  };

  return {
    definitions,
    policy,
    boundaryRequests: () => boundary.requests(),
    async execute(call, signal) {
      if (parseMcpToolName(call.name) !== undefined) {
        return runMcpCall(call, signal, {
          agent: options.agent,
          step: options.step,
          mcp: options.mcp,
          outputCapBytes: context.outputCapBytes,
          scrub: (text) => context.scrubber.scrub(text),
          emit,
          refuse,
        });
      }
      if (!isToolName(call.name)) {
        const available =
          definitions.length > 0 ? definitions.map((d) => d.name).join(", ") : "none";
        return refuse(
          call,
          TOOL_CODES.unavailable,
          `there is no tool named "${call.name}". The tools of this step are: ${available}.`,
        );
      }
      const unavailable = policy.unavailable[call.name];
      if (unavailable !== undefined) return refuse(call, unavailable.code, unavailable.reason);

      let prepared: PreparedCall;
      try {
        prepared = BUILTIN_TOOLS[call.name].prepare(call.input, context);
      } catch (error) {
        // A bug or an I/O error while checking: report it as a tool failure, never throw.
        const message = `${TOOL_CODES.ioFailure}: ${call.name} could not check the call: ${(error as Error).message}`;
        prepared = { kind: "run", run: async () => ({ content: message, isError: true }) };
      }
      if (prepared.kind === "refused") return refuse(call, prepared.code, prepared.reason);

      emit({ type: "tool_call", id: call.id, tool: call.name, input: call.input });
      const started = Date.now();
      let result: ToolResult;
      if (prepared.kind === "invalid") {
        result = {
          content: `${TOOL_CODES.invalidInput}: invalid input for ${call.name}: ${prepared.problems.join(" ")}`,
          isError: true,
        };
      } else {
        try {
          result = await prepared.run(signal);
        } catch (error) {
          result = {
            content: `${TOOL_CODES.ioFailure}: ${call.name} failed: ${(error as Error).message}`,
            isError: true,
          };
        }
      }
      // Whatever a tool read or ran may hold a secret (a .env file, an echoed token); the result
      // goes to the model and into the recordings, so every known secret value is replaced.
      result = { ...result, content: context.scrubber.scrub(result.content) };
      emit({
        type: "tool_result",
        id: call.id,
        tool: call.name,
        isError: result.isError,
        content: result.content,
        durationMs: Date.now() - started,
      });
      return result;
    },
  };
}

/**
 * The environment of tool subprocesses: the caller's, with overrides, without the model's
 * credentials, and with prompts turned off (nobody is there to answer them).
 */
export function subprocessEnv(
  overrides: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const env = callerEnv(overrides);
  for (const key of WITHHELD_ENV_VARS) delete env[key];
  env.GIT_TERMINAL_PROMPT = "0";
  env.GH_PROMPT_DISABLED = "1";
  return env;
}

/** The caller's environment with overrides applied (`undefined` removes a variable). */
function callerEnv(
  overrides: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) env[key] = value;
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}
