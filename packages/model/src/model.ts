/**
 * The normalized model: what every other package sees. Both registry dialects (the check dialect
 * with `s_<hash>` ids and `check` blocks; the gate dialect with `structuredGate` and
 * `transitions`) and both agent.json shapes (flat, and nested under `runner.*`) load into these
 * types, so the router, the completion chain and the runner never see a dialect.
 *
 * Everything here is plain JSON-compatible data (no classes, no functions, no Maps) so a loaded
 * agent can be journaled, diffed and sent across a worker boundary unchanged.
 */

import type { AgentPush, AgentSandbox, McpServerConfig } from "./agent-boundaries.ts";
import type { GithubTargets } from "./github-target-rules.ts";
import type { GateIntent, StepKind } from "./intents.ts";
import type { JsonSchema, JsonValue } from "./json.ts";
import type { Problem } from "./problem.ts";
import type { FailurePattern, ValidationStep, ValidatorDefinition } from "./validation-model.ts";
import type { VerdictType } from "./verdict-types.ts";

/**
 * After a successful run in worktree mode: merge the run's branch into the base branch, push,
 * or open a pull request instead of merging (docs/design.md#worktrees).
 */
export interface WorktreeFinish {
  /** Merge the branch into the base branch (agent.json `autoMerge`, CLI `--no-merge`). */
  readonly merge: boolean;
  /** Push the base branch after the merge, else the run's branch. */
  readonly push: boolean;
  readonly remote: string;
  /** Push the branch and open a pull request (`gh pr create`) instead of merging. */
  readonly createPr: boolean;
  /** The pull request's base; default the base branch. */
  readonly prTarget?: string;
}

// ---------------------------------------------------------------------------------------------
// Prompts

/** A C3L prompt reference: `<c1>/<c2>/<c3>/f_<edition>[_<adaptation>].md` through pathTemplate. */
export interface C3lPromptRef {
  readonly kind: "c3l";
  readonly c1: string;
  readonly c2: string;
  readonly c3: string;
  /** Defaults to `default` when the definition omits it. */
  readonly edition: string;
  readonly adaptation?: string;
}

/** A prompt file named by path, relative to the registry's prompt base folder. */
export interface PathPromptRef {
  readonly kind: "path";
  readonly path: string;
}

export type PromptRef = C3lPromptRef | PathPromptRef;

// ---------------------------------------------------------------------------------------------
// Gate and transitions (gate dialect)

export interface StructuredGate {
  /** Intents this step may emit; a subset of the step kind's table. */
  readonly allowedIntents: readonly GateIntent[];
  /** JSON pointer (`#/...`) into the step's output schema, to the intent enum. */
  readonly intentSchemaRef: string;
  /** Dot path (array indices allowed: `a.b[0].c` or `a.b.0.c`) to the intent in the output. */
  readonly intentField: string;
  /** Dot path to the target step id of a `jump`. */
  readonly targetField?: string;
  /**
   * Dot paths of output fields carried forward as handoff: a gate step's one handoff
   * declaration. `Step.handoff` is what the loader derives from it (for flow analysis and UV
   * names); gate-interpreter's `handoffFieldsOf` reads `handoff` only when this is empty.
   */
  readonly handoffFields: readonly string[];
  readonly targetMode?: "explicit" | "dynamic" | "conditional";
  /** Default true: an uninterpretable intent stops the run. */
  readonly failFast: boolean;
  /** Used only when failFast is false. */
  readonly fallbackIntent?: GateIntent;
}

/** `{ "target": "x" }`, or `{ "target": null }` which is terminal (closing only). */
export interface TargetTransition {
  readonly kind: "target";
  readonly target: string | null;
}

/**
 * `{ "condition": "status", "targets": { "ready": "a", "default": "b" } }`: `condition` names a
 * handoff key; its value (booleans as "true"/"false") selects a target, else `default`.
 */
export interface ConditionalTransition {
  readonly kind: "conditional";
  readonly condition: string;
  readonly targets: Readonly<Record<string, string>>;
}

export type Transition = TargetTransition | ConditionalTransition;

export type Transitions = Readonly<Partial<Record<GateIntent, Transition>>>;

// ---------------------------------------------------------------------------------------------
// Check (check dialect)

export type CheckOnPass =
  | { readonly kind: "next"; readonly target: string }
  | { readonly kind: "complete" };

export type CheckOnFail =
  /** Run the same step again; `maxRetries` 0 means unlimited (still bounded by the run cap). */
  | { readonly kind: "retry"; readonly maxRetries: number }
  | { readonly kind: "fallback"; readonly target: string };

export interface CheckDefinition {
  /**
   * The check prompt, run as its own model call returning `{result, message}`. Without one, the
   * step's own output carries `result` (when responseFormat names it) or the check passes.
   */
  readonly prompt?: PromptRef;
  /** Field name → description, as written (`{"result": "ok|ng", "message": "string"}`). */
  readonly responseFormat?: Readonly<Record<string, string>>;
  readonly onPass: CheckOnPass;
  /** Absent when the definition declares none: a failed check then ends the run with a code. */
  readonly onFail?: CheckOnFail;
}

export interface IterationBounds {
  /** Minimum executions of the step prompt before its check runs (default 1). */
  readonly min: number;
  /** Maximum executions of the step prompt (default 1). */
  readonly max: number;
  /**
   * True when the definition writes `iterations` (check dialect). Only then does `max` bound
   * how often the step executes in the whole run (what bounds a fallback cycle); without it the
   * step's repeats are bounded by its check's `onFail` and the run cap
   * (docs/design.md#the-check-dialect).
   */
  readonly declared?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Handoff

/**
 * One value a step hands forward. `key` is the short name used in `uv-<step>_<key>`; `path` is
 * where it is read from in the step's output (the key itself for the check dialect's top-level
 * fields, a dot path for gate `handoffFields`).
 */
export interface HandoffField {
  readonly key: string;
  readonly path: string;
  readonly description?: string;
}

// ---------------------------------------------------------------------------------------------
// Steps

export type PermissionMode = "default" | "plan" | "acceptEdits" | "bypassPermissions";

/** Which executor runs the agent's model steps: climpt's own tool loop, or Claude Code. */
export const STEP_EXECUTOR_NAMES = ["messages", "claude-code"] as const;
export type StepExecutorName = (typeof STEP_EXECUTOR_NAMES)[number];

export interface StepPermissions {
  /** When set, narrows the agent's allowedTools for this step. */
  readonly allowedTools?: readonly string[];
  readonly permissionMode?: PermissionMode;
}

export interface OutputSchemaRef {
  /** File name relative to the registry's schemas folder. */
  readonly file: string;
  /** JSON pointer (`#/definitions/x`) or a bare name looked up in definitions, $defs, top level. */
  readonly schema: string;
}

/**
 * A closure step that runs a program instead of a model call (`"runner": { "command", "args",
 * "timeout" }` on a step in the original runtime). The step needs no prompt file. How a runner
 * executes it:
 *
 * - the arguments are `args` with every `${context.<key>}` replaced by the run's context value
 *   of `<key>` (`substituteContextRefs`): the agent's arguments, laid over the issue payload the
 *   orchestration layer passes, if any; a reference without a value stops the step before the
 *   program starts;
 * - the program is started without a shell, in the run's working directory, and stopped (its
 *   process group) after `timeoutMs`;
 * - its stdout, when it is a JSON object, is the step's output (otherwise `{ "raw": stdout }`);
 * - exit 0 is the step's `closing`: the completion chain runs as after a model's closing;
 *   any other exit is its `repeat`: the step runs again as the next iteration, so the run cap
 *   (usually the verdict's `maxIterations`) bounds the attempts.
 */
export interface StepSubprocess {
  /** The program, found on PATH or relative to the working directory. Never run through a shell. */
  readonly command: string;
  /** The arguments as written, `${context.<key>}` references included. */
  readonly args: readonly string[];
  /** `timeout` as written, else `DEFAULT_SUBPROCESS_TIMEOUT_MS`. */
  readonly timeoutMs: number;
  /** Every key `args` references, in order of first appearance, each once. */
  readonly contextKeys: readonly string[];
  /**
   * Environment variables the program gets although they are secret (names, as declared in
   * `runner.env`). In the sandbox nothing secret is passed otherwise.
   */
  readonly env?: readonly string[];
}

export interface Step {
  readonly id: string;
  readonly name?: string;
  readonly description?: string;
  readonly kind: StepKind;
  /** Whether `kind` was written in the definition or inferred from c2 / the id prefix. */
  readonly kindSource: "declared" | "inferred";
  readonly prompt: PromptRef;
  /** Built-in template key used when the prompt file is missing. */
  readonly fallbackKey?: string;
  /** UV variables the prompt declares it needs (channel 1 names or runtime names). */
  readonly uvVariables: readonly string[];
  readonly usesStdin: boolean;
  readonly outputSchemaRef?: OutputSchemaRef;
  /**
   * The step's output schema, resolved by `loadAgent` into one self-contained document (every
   * `$ref` inlined). Undefined before loading from disk, or when the step declares none.
   */
  readonly outputSchema?: JsonSchema;
  /**
   * What the step's output is checked against when it differs from `outputSchema`: the same
   * schema with the intent enum widened by the aliases of the allowed intents (`retry` where the
   * enum says `repeat`), so such a reply passes and the gate maps it. The model is sent
   * `outputSchema`. Set by `loadAgent`; absent when there is nothing to widen.
   */
  readonly acceptedOutputSchema?: JsonSchema;
  readonly gate?: StructuredGate;
  readonly transitions: Transitions;
  readonly check?: CheckDefinition;
  readonly iterations: IterationBounds;
  /**
   * The check dialect's handoff declaration (`{key, path}` per value). For a gate step the loader
   * fills it from `structuredGate.handoffFields`, which is what the gate is read by; a gate step
   * built in code with `handoffFields` empty has this read instead (`handoffFieldsOf` in
   * `@climpt/gate-interpreter`).
   */
  readonly handoff: readonly HandoffField[];
  /** `opus` | `sonnet` | `haiku` or a full model id. */
  readonly model?: string;
  readonly permissions: StepPermissions;
  /**
   * Present on a closure step that runs a program instead of the model. Such a step has no gate,
   * no transitions and no prompt file: `prompt` is kept as written but never resolved.
   */
  readonly subprocess?: StepSubprocess;
  /**
   * What this step may spend over the whole run (`limits` of the step): its executions, and the
   * tokens and cost of its model calls. Reaching one is a budget like the run's
   * (docs/design.md#limits-and-budgets): the run goes to the registry's `onBudget` step, else
   * ends with `AGENT_BUDGET_EXCEEDED`.
   */
  readonly limits?: StepLimits;
}

/** A step's own budgets (steps_registry.json `steps.<id>.limits`), counted over the whole run. */
export interface StepLimits {
  /** Executions of the step (its iterations) over the run. */
  readonly maxIterations?: number;
  /** Input + output tokens of the step's model calls over the run. */
  readonly maxTokens?: number;
  readonly maxCostUsd?: number;
}

// ---------------------------------------------------------------------------------------------
// Registry

export type RegistryDialect = "check" | "gate";

export interface Registry {
  readonly dialect: RegistryDialect;
  readonly agentId?: string;
  readonly version: string;
  /** Registry-level c1 (gate dialect); `steps` when absent. */
  readonly c1: string;
  /** Prompt base folder, relative to the agent folder (`basePath`/`userPromptsBase`, default `prompts`). */
  readonly promptsBase: string;
  /** Schema folder, relative to the agent folder (`schemasBase`, default `schemas`). */
  readonly schemasBase: string;
  readonly pathTemplate: string;
  readonly pathTemplateNoAdaptation: string;
  readonly entryStep?: string;
  /** Verdict type (any spelling, as written) → entry step id. */
  readonly entryStepMapping: Readonly<Record<string, string>>;
  readonly failurePatterns: Readonly<Record<string, FailurePattern>>;
  readonly validators: Readonly<Record<string, ValidatorDefinition>>;
  readonly validationSteps: Readonly<Record<string, ValidationStep>>;
  /**
   * The closure step a run goes to when a budget is reached (the run's tokens, cost or
   * iteration cap, or a step's own `limits`), instead of failing: it may comment what was found
   * and label the issue for a person, within a fixed allowance of one execution
   * (docs/design.md#limits-and-budgets). Absent: reaching a budget ends the run.
   */
  readonly onBudget?: string;
  /** In declaration order. */
  readonly steps: Readonly<Record<string, Step>>;
}

export const DEFAULT_PATH_TEMPLATE = "{c1}/{c2}/{c3}/f_{edition}_{adaptation}.md";
export const DEFAULT_PATH_TEMPLATE_NO_ADAPTATION = "{c1}/{c2}/{c3}/f_{edition}.md";
/** The run cap of a check-dialect registry when nothing declares one. */
export const DEFAULT_RUN_ITERATION_CAP = 100;
/** The run cap of a gate-dialect registry when nothing declares one (the original runtime's). */
export const DEFAULT_GATE_RUN_ITERATION_CAP = 20;
/** How long a subprocess step may run when its definition gives no `timeout`. */
export const DEFAULT_SUBPROCESS_TIMEOUT_MS = 30_000;
export const DEFAULT_VALIDATOR_TIMEOUT_MS: number = 5 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// Agent definition

export type ParameterType = "string" | "number" | "boolean";

export interface AgentParameter {
  readonly name: string;
  readonly type: ParameterType;
  readonly description?: string;
  readonly required: boolean;
  readonly default?: string | number | boolean;
  /** The CLI flag, `--issue`; derived from the name in kebab case when not declared. */
  readonly cli: string;
  /**
   * What the parameter is to the run beyond its value: `issue` marks the run's own issue (its
   * GitHub rights, poll:state's issue, the boundary hook's issue, the orchestrator's issue
   * number). At most one parameter has it; when none does, a parameter named `issue` is the
   * run's issue (`issueParameterName`).
   */
  readonly role?: ParameterRole;
}

/** The roles a parameter may declare (agent.json `parameters.<name>.role`). */
export type ParameterRole = "issue";

export interface VerdictSpec {
  readonly type: VerdictType;
  /** The spelling the definition used, for messages. */
  readonly declaredType: string;
  /**
   * Strategy settings, by type: `maxIterations` (count:iteration; the loader fills in 100 when
   * absent), `completionKeyword` (detect:keyword; the loader copies the original runtime's
   * `verdictKeyword` here), `signalType` + `requiredFields` (detect:structured), `maxChecks`
   * (count:check; 10 when absent), `issue`/`repo`/`targetState` (poll:state), `operator` +
   * `conditions` (meta:composite), `handlerPath` (meta:custom). `maxIterations` under any type
   * is also the run's iteration cap (`resolveRunIterationCap`). Unknown keys are kept.
   */
  readonly config: Readonly<Record<string, JsonValue>>;
  /** Children of a composite verdict, normalized the same way. */
  readonly conditions?: readonly VerdictSpec[];
}

export type ClosureAction = "close" | "label-only" | "label-and-close";

export interface GithubIntegration {
  readonly enabled: boolean;
  readonly labels: {
    readonly requirements?: string;
    readonly inProgress?: string;
    readonly blocked?: string;
    readonly completion?: { readonly add: readonly string[]; readonly remove: readonly string[] };
  };
  readonly defaultClosureAction: ClosureAction;
  /**
   * What the run's GitHub writes may touch (agent.json `targets`); absent: the run's own issue
   * and pull request in its own repository (`DEFAULT_GITHUB_TARGETS`).
   */
  readonly targets?: GithubTargets;
}

/** A generic command boundary hook: runs once after validated completion. */
export interface CommandBoundaryHook {
  /** Shell command (`sh -c`), run in the working directory; in the OS sandbox unless it is off. */
  readonly command: string;
  readonly timeoutMs?: number;
  /**
   * Environment variables the command gets although they are secret (names, as declared in
   * `env`), as for a validator: in the sandbox nothing secret is passed otherwise.
   */
  readonly env?: readonly string[];
}

export interface AgentLimits {
  /** Run-wide iteration cap; see `resolveRunIterationCap` for what applies when absent. */
  readonly maxIterations?: number;
  readonly maxTokens?: number;
  readonly maxCostUsd?: number;
  readonly maxWallClockMs?: number;
  /** Per model call timeout: both bounds below when they are not given. */
  readonly callTimeoutMs?: number;
  /** Per model call: how long its response may take to start (default 60 s). */
  readonly connectTimeoutMs?: number;
  /** Per model call: the longest silence in its streamed response (default 180 s). */
  readonly streamIdleTimeoutMs?: number;
  /** Tool-loop turns per step. */
  readonly maxTurnsPerStep?: number;
}

export interface AgentDefinition {
  /** agent.json `name` (or `agentId`); must match the agent folder's name. */
  readonly name: string;
  readonly displayName?: string;
  readonly description?: string;
  readonly version?: string;
  /** Which agent.json shape the file used. */
  readonly shape: "flat" | "nested";
  readonly parameters: Readonly<Record<string, AgentParameter>>;
  /** Relative to the agent folder. Default `prompts/system.md`. */
  readonly systemPromptPath: string;
  /** Relative to the agent folder. Default `steps_registry.json`. */
  readonly registryPath: string;
  readonly fallbackDir?: string;
  readonly verdict: VerdictSpec;
  readonly defaultModel?: string;
  /** agent.json `runner.flow.executor`; absent: the caller's choice (the default, `messages`). */
  readonly executor?: StepExecutorName;
  readonly allowedTools: readonly string[];
  readonly permissionMode: PermissionMode;
  readonly github: GithubIntegration;
  readonly boundaryHook?: CommandBoundaryHook;
  /** agent.json `runner.boundaries.sandbox`; absent means `required` with no network. */
  readonly sandbox?: AgentSandbox;
  /** agent.json `runner.boundaries.push`; absent means the run's branch only. */
  readonly push?: AgentPush;
  /**
   * agent.json `runner.boundaries.editAgents`: the model may change agent definitions (`.agent/`,
   * its own folder); absent, they are read-only to it (docs/design.md#tools-and-their-boundary).
   */
  readonly editAgents?: boolean;
  /**
   * agent.json `runner.boundaries.secrets`: names of environment variables whose values are
   * secret although their names do not say so (`DB_PASSWORD` is recognised by name already,
   * `DATABASE_URL` or `PGPASS` are not). Their values are scrubbed wherever a run writes or sends
   * text, and the variables never enter the OS sandbox. Absent: none beyond those recognised.
   */
  readonly secretEnvNames?: readonly string[];
  /**
   * agent.json `runner.boundaries.mcpServers`: MCP servers whose tools the steps may use, named
   * `mcp__<server>__<tool>` in allowedTools. Absent: none.
   */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
  readonly worktree: {
    readonly enabled: boolean;
    readonly root?: string;
    /**
     * What a successful run in worktree mode does with its branch (CLI flags override). The
     * loader always fills it; absent (a hand-built definition) means the defaults: merge, no
     * push, remote `origin`, no pull request.
     */
    readonly finish?: WorktreeFinish;
  };
  readonly logging: {
    readonly directory: string;
    readonly format: "jsonl";
    readonly maxFiles?: number;
  };
  readonly limits: AgentLimits;
}

/** What `loadAgent` returns: the agent, its registry with every output schema resolved, and where they came from. */
export interface LoadedAgent {
  /** Absolute path of the agent folder. */
  readonly dir: string;
  readonly agent: AgentDefinition;
  readonly registry: Registry;
  readonly files: { readonly agent: string; readonly registry: string };
  /**
   * What the loader noticed that does not stop a run (severity `warning`): variables only steps
   * this run cannot reach declare, optional parameters without a default used as variables, ….
   * Absent or empty when there are none.
   */
  readonly warnings?: readonly Problem[];
}
