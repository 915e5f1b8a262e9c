/**
 * valibot schemas of agent.json as users write it, in both shapes: the flat one
 * (`behavior`, `prompts`, `logging`) and the nested `runner.*` one of the original Deno runtime.
 * The single source of the raw shape: `normalizeAgent` reads fields with them and the shipped
 * `agent.schema.json` is generated from them. Objects are loose: unknown keys are ignored.
 */
import { STEP_EXECUTOR_NAMES } from "@climpt/model";
import * as v from "valibot";
import { durationSchema } from "./duration.ts";
import { jsonValueSchema } from "./json-value.ts";
import { PERMISSION_MODE_VALUES } from "./registry-file-schema.ts";

const text = (description: string) => v.pipe(v.string(), v.description(description));
const positiveInteger = (description: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(1), v.description(description));

export const PARAMETER_TYPE_VALUES = ["string", "number", "boolean"] as const;
/** Roles a parameter may declare (model's `ParameterRole`). */
export const PARAMETER_ROLE_VALUES = ["issue"] as const;
export const CLOSURE_ACTION_VALUES = ["close", "label-only", "label-and-close"] as const;

export const parameterSchema = v.looseObject({
  type: v.optional(
    v.pipe(v.picklist(PARAMETER_TYPE_VALUES), v.description("string | number | boolean.")),
    "string",
  ),
  description: v.optional(text("Shown in climpt run --help.")),
  required: v.optional(v.pipe(v.boolean(), v.description("Whether the run needs it.")), false),
  default: v.optional(
    v.pipe(
      v.union([v.string(), v.number(), v.boolean()]),
      v.description("Value when not given; must match type."),
    ),
  ),
  cli: v.optional(text('CLI flag, e.g. "--issue" (default: "--" + the name in kebab case).')),
  role: v.optional(
    v.pipe(
      v.picklist(PARAMETER_ROLE_VALUES),
      v.description(
        '"issue": this parameter is the run\'s issue number (its GitHub rights, poll:state, the boundary hook, the orchestrator). At most one; without one, a parameter named "issue" is.',
      ),
    ),
  ),
});

export const limitsSchema = v.looseObject({
  maxIterations: v.optional(positiveInteger("Run-wide iteration cap (default 100).")),
  maxTokens: v.optional(positiveInteger("Token budget over the whole run (input + output).")),
  maxCostUsd: v.optional(
    v.pipe(v.number(), v.minValue(0), v.description("Cost budget over the whole run, in USD.")),
  ),
  maxWallClockMs: v.optional(positiveInteger("Wall-clock budget of the run, in milliseconds.")),
  callTimeoutMs: v.optional(
    positiveInteger(
      "Timeout of one model call, in milliseconds: both connectTimeoutMs and streamIdleTimeoutMs when they are not given.",
    ),
  ),
  connectTimeoutMs: v.optional(
    positiveInteger(
      "How long one model call may wait for its response to start, in milliseconds (default 60000).",
    ),
  ),
  streamIdleTimeoutMs: v.optional(
    positiveInteger(
      "The longest silence in one model call's streamed response, in milliseconds (default 180000).",
    ),
  ),
  maxTurnsPerStep: v.optional(positiveInteger("Tool-loop turns allowed inside one step.")),
});

/** The object form of the command boundary hook (its `env` is read by normalize-boundary-hook.ts). */
export const boundaryHookObjectSchema = v.looseObject({
  command: v.pipe(
    v.string(),
    v.minLength(1),
    v.description(
      "Shell command, run with sh -c in the run's working directory, inside the OS sandbox unless the agent turns it off.",
    ),
  ),
  timeout: v.optional(
    v.pipe(durationSchema, v.description('Milliseconds, or "30s" / "5m" (default 5 minutes).')),
  ),
  env: v.optional(
    v.pipe(
      v.array(v.string()),
      v.description(
        'Environment variables the command gets although they are secret, by name (e.g. ["DEPLOY_TOKEN"]). It runs in the OS sandbox, which passes no secret it was not given here.',
      ),
    ),
  ),
});

export const boundaryHookSchema = v.union([
  text(
    "Shell command run once after validated completion, inside the OS sandbox unless the agent turns it off.",
  ),
  boundaryHookObjectSchema,
]);

export const GITHUB_TARGET_RULE_VALUES = ["own", "any"] as const;

/** `OWNER/REPO` as GitHub spells names: an owner of letters, digits and `-`, a name of those and `._`. */
export const REPOSITORY_NAME_PATTERN =
  /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

/**
 * `integrations.github.targets` (flat shape: `github.targets`): what the run's GitHub writes
 * (close, labels, comments, merge) may touch besides its own issue and pull request.
 */
export const githubTargetsSchema = v.looseObject({
  issues: v.optional(
    v.pipe(
      v.picklist(GITHUB_TARGET_RULE_VALUES),
      v.description(
        '"own" (default): only the run\'s issue (its --issue argument); a run with no issue or pull request of its own may also label and comment on any issue of its repository, never close one. "any": every issue of the allowed repositories, closing included.',
      ),
    ),
  ),
  pullRequests: v.optional(
    v.pipe(
      v.picklist(GITHUB_TARGET_RULE_VALUES),
      v.description(
        '"own" (default): only the run\'s pull request (its --pr-number / prNumber argument); "any": every pull request of the allowed repositories.',
      ),
    ),
  ),
  repositories: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.regex(REPOSITORY_NAME_PATTERN, "an OWNER/REPO name"))),
      v.description(
        'Repositories besides the run\'s own that writes may name with -R, as "owner/repo" (default: none). In them only "any" rules act.',
      ),
    ),
  ),
});

export const githubSchema = v.looseObject({
  enabled: v.optional(v.boolean(), false),
  labels: v.optional(
    v.looseObject({
      requirements: v.optional(v.string()),
      inProgress: v.optional(v.string()),
      blocked: v.optional(v.string()),
      completion: v.optional(
        v.looseObject({
          add: v.optional(v.array(v.string()), []),
          remove: v.optional(v.array(v.string()), []),
        }),
      ),
    }),
  ),
  defaultClosureAction: v.optional(
    v.pipe(
      v.picklist(CLOSURE_ACTION_VALUES),
      v.description("What the boundary hook does to the issue (default close)."),
    ),
    "close",
  ),
  targets: v.optional(githubTargetsSchema),
});

/** What a successful worktree run does with its branch (CLI flags override each). */
export const worktreeFinishEntries = {
  autoMerge: v.optional(
    v.pipe(
      v.boolean(),
      v.description("Merge the run's branch into the base branch (default true)."),
    ),
  ),
  push: v.optional(
    v.pipe(v.boolean(), v.description("Push after the merge (the branch itself without one).")),
  ),
  remote: v.optional(text("The remote --push and --create-pr push to (default origin).")),
  createPr: v.optional(
    v.pipe(
      v.boolean(),
      v.description("Push the branch and open a pull request instead of merging (gh pr create)."),
    ),
  ),
  prTarget: v.optional(text("The pull request's base branch (default: the base branch).")),
};

/** The original runtime's `runner.execution.finalize`. */
export const worktreeFinishSchema = v.looseObject(worktreeFinishEntries);

export const worktreeSchema = v.looseObject({
  enabled: v.optional(v.boolean(), false),
  root: v.optional(text("Folder the worktrees are created in.")),
  ...worktreeFinishEntries,
});

export const loggingSchema = v.looseObject({
  directory: v.optional(text("Log folder (default tmp/logs/agents/<name>).")),
  format: v.optional(v.literal("jsonl"), "jsonl"),
  maxFiles: v.optional(positiveInteger("Log files kept.")),
});

export const promptsSchema = v.looseObject({
  registry: v.optional(
    text('Registry file, relative to the agent folder (default "steps_registry.json").'),
  ),
  fallbackDir: v.optional(text("Folder of fallback prompts.")),
});

const verdictConfigSchema = v.pipe(
  v.record(v.string(), jsonValueSchema),
  v.description(
    "Settings of the verdict type: maxIterations, completionKeyword, signalType, requiredFields, maxChecks, operator + conditions, handlerPath, …",
  ),
);

const verdictTypeText = text(
  "Completion type, either spelling: detect:graph (stepMachine, stepFlow), poll:state, count:iteration, detect:keyword, detect:structured, count:check, meta:composite, meta:custom.",
);

const permissionModeSchema = v.pipe(
  v.picklist(PERMISSION_MODE_VALUES),
  v.description("default | plan | acceptEdits | bypassPermissions (default: default)."),
);

const allowedToolsSchema = v.pipe(
  v.array(v.string()),
  v.description("Tools the model may use (default Read, Write, Edit, Bash, Glob, Grep)."),
);

/** Keys both shapes share. */
export const agentCommonEntries = {
  $schema: v.optional(v.string()),
  name: v.optional(text("Agent name; must match the agent folder's name.")),
  agentId: v.optional(text("Older spelling of name.")),
  displayName: v.optional(v.string()),
  description: v.optional(v.string()),
  version: v.optional(v.string()),
  parameters: v.optional(v.record(v.string(), parameterSchema)),
  limits: v.optional(limitsSchema),
};

export const SANDBOX_MODE_VALUES = ["required", "off"] as const;

const sandboxModeSchema = v.pipe(
  v.picklist(SANDBOX_MODE_VALUES),
  v.description(
    '"required" (default): model-issued commands run only inside the OS sandbox, and a machine that cannot start it refuses the run; "off": commands run unsandboxed (logged as a notice).',
  ),
);

/** `runner.boundaries.sandbox`: the mode alone, or an object with the network allow list. */
export const sandboxSchema = v.union([
  sandboxModeSchema,
  v.looseObject({
    mode: v.optional(sandboxModeSchema),
    network: v.optional(
      v.looseObject({
        allow: v.optional(
          v.pipe(
            v.array(v.string()),
            v.description(
              'Hosts commands may reach: "name", "name:port" or "*.domain" (default: none, no network).',
            ),
          ),
        ),
      }),
    ),
    readable: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description(
          'Paths under the home directory (hidden inside the sandbox) commands may read, e.g. "~/.sdkman".',
        ),
      ),
    ),
  }),
]);

/**
 * `runner.boundaries.push`: which branches `git push` inside the sandbox may push besides the
 * run's own, or `"off"` for none.
 */
export const pushSchema = v.union([
  v.pipe(
    v.literal("off"),
    v.description(
      '"off": every `git push` from the sandbox is refused, the run\'s branch included.',
    ),
  ),
  v.looseObject({
    branches: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description(
          'Branches the agent may push besides the run\'s own: names, or "<prefix>/*" for every branch under a prefix, e.g. ["gh-pages", "docs/*"]. The base branch, a remote\'s default branch, "main" and "master" are never pushed, declared or not.',
        ),
      ),
    ),
  }),
]);

/**
 * `runner.boundaries.editAgents`: whether the model may change agent definitions (`.agent/`, the
 * running agent's folder). Off unless written `true`.
 */
export const editAgentsSchema = v.pipe(
  v.boolean(),
  v.description(
    "true: the model may change agent definitions (the repository's .agent/ folder and the running agent's own folder), and a --worktree run whose commits change .agent/ is merged. Default false: those folders are read-only to the model (Write, Edit and the sandbox refuse them), and such a run's branch is kept unmerged for review (RUN-WORKTREE-007). A changed definition applies to the next run; `climpt resume` refuses a run whose definition changed unless --accept-changed-definition is given.",
  ),
);

/** A non-boolean `editAgents` has a code of its own, so a "yes" is not read as a shape problem. */
export const EDIT_AGENTS_CODES = {
  /**
   * `runner.boundaries.editAgents` (flat: `behavior.editAgents`) is neither `true` nor `false`.
   * Example: `$.runner.boundaries.editAgents must be a boolean, but is "yes".` Fix: Write `true` to
   * let the model change agent definitions (`.agent/`, the running agent's folder), or leave it
   * out: they are then read-only to the model.
   */
  editAgents: "AC-AGENTS-001",
} as const;

/**
 * `runner.boundaries.secrets`: names of environment variables whose values are secret. Names,
 * never values: agent.json is committed.
 */
export const secretsSchema = v.pipe(
  v.array(v.string()),
  v.description(
    'Names of environment variables whose values are secret even though the name does not say so, e.g. ["DATABASE_URL", "PGPASS"]: their values are scrubbed from tool output, journals, results and model requests, and the variables never enter the OS sandbox. Names only, never the secret values.',
  ),
);

/**
 * `runner.boundaries.mcpServers`: MCP servers as tools, in the shape of Claude Code's `.mcp.json`.
 * Checked entry by entry by normalize-mcp-servers.ts; this schema documents it for editors.
 */
export const mcpServersSchema = v.pipe(
  v.record(
    v.string(),
    v.union([
      v.looseObject({
        type: v.optional(v.literal("stdio")),
        command: v.string(),
        args: v.optional(v.array(v.string())),
        env: v.optional(v.record(v.string(), v.string())),
      }),
      v.looseObject({
        type: v.literal("http"),
        url: v.string(),
        headers: v.optional(v.record(v.string(), v.string())),
      }),
    ]),
  ),
  v.description(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} as .mcp.json writes it, not a template.
    'MCP servers whose tools the steps may use, named mcp__<server>__<tool> (or mcp__<server> for all of them) in allowedTools. stdio: { "command", "args", "env" }, started inside the OS sandbox with only the env it declares; http: { "type": "http", "url", "headers" }, reached from the host at a host sandbox.network.allow declares. ${VAR} in env and headers is taken from climpt\'s environment.',
  ),
);

export const flatBehaviorSchema = v.looseObject({
  systemPromptPath: v.optional(text('Relative to the agent folder (default "prompts/system.md").')),
  completionType: v.optional(verdictTypeText),
  completionConfig: v.optional(verdictConfigSchema),
  allowedTools: v.optional(allowedToolsSchema),
  permissionMode: v.optional(permissionModeSchema),
  defaultModel: v.optional(text('Model alias or id (default "opus").')),
  boundaryHook: v.optional(boundaryHookSchema),
  sandbox: v.optional(sandboxSchema),
  secrets: v.optional(secretsSchema),
  mcpServers: v.optional(mcpServersSchema),
  push: v.optional(pushSchema),
  editAgents: v.optional(editAgentsSchema),
});

/** The flat shape. The top-level `github` / `worktree` keys are what real flat folders use. */
export const flatAgentSchema = v.looseObject({
  ...agentCommonEntries,
  behavior: flatBehaviorSchema,
  prompts: v.optional(promptsSchema),
  logging: v.optional(loggingSchema),
  github: v.optional(githubSchema),
  worktree: v.optional(worktreeSchema),
});

export const runnerFlowSchema = v.looseObject({
  systemPromptPath: v.optional(text('Relative to the agent folder (default "prompts/system.md").')),
  prompts: v.optional(promptsSchema),
  defaultModel: v.optional(text('Model alias or id (default "opus").')),
  executor: v.optional(
    v.pipe(
      v.picklist(STEP_EXECUTOR_NAMES),
      v.description(
        'Which executor runs the model steps: "messages" (default, climpt\'s tool loop on the Messages API) or "claude-code" (each step a Claude Code session through the Claude Agent SDK). `climpt run --executor` overrides it.',
      ),
    ),
  ),
});

export const runnerVerdictSchema = v.looseObject({
  type: verdictTypeText,
  config: v.optional(verdictConfigSchema),
});

export const runnerBoundariesSchema = v.looseObject({
  allowedTools: v.optional(allowedToolsSchema),
  permissionMode: v.optional(permissionModeSchema),
  boundaryHook: v.optional(boundaryHookSchema),
  sandbox: v.optional(sandboxSchema),
  secrets: v.optional(secretsSchema),
  mcpServers: v.optional(mcpServersSchema),
  push: v.optional(pushSchema),
  editAgents: v.optional(editAgentsSchema),
});

export const runnerSchema = v.looseObject({
  flow: v.optional(runnerFlowSchema),
  verdict: v.optional(runnerVerdictSchema),
  boundaries: v.optional(runnerBoundariesSchema),
  integrations: v.optional(v.looseObject({ github: v.optional(githubSchema) })),
  execution: v.optional(
    v.looseObject({
      worktree: v.optional(worktreeSchema),
      finalize: v.optional(worktreeFinishSchema),
    }),
  ),
  logging: v.optional(loggingSchema),
  limits: v.optional(limitsSchema),
});

/** The original Deno runtime's shape. */
export const nestedAgentSchema = v.looseObject({
  ...agentCommonEntries,
  runner: runnerSchema,
});

/** agent.json: the nested shape when it has `runner`, the flat one when it has `behavior`. */
export const agentFileSchema = v.union([nestedAgentSchema, flatAgentSchema]);

export type RawAgent = v.InferInput<typeof agentFileSchema>;
export type RawFlatAgent = v.InferInput<typeof flatAgentSchema>;
export type RawNestedAgent = v.InferInput<typeof nestedAgentSchema>;
export type RawAgentParameter = v.InferInput<typeof parameterSchema>;
export type RawAgentLimits = v.InferInput<typeof limitsSchema>;
export type RawBoundaryHook = v.InferInput<typeof boundaryHookSchema>;
export type RawSandbox = v.InferOutput<typeof sandboxSchema>;
export type RawPush = v.InferOutput<typeof pushSchema>;
