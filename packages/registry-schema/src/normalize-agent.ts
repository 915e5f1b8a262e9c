/**
 * agent.json (either shape) → `AgentDefinition`. Pure: no file access. Every problem of the file
 * is reported at once; the draft value behind a failed result is still complete (defaults fill
 * what was wrong), which lets `loadAgent` check the registry against it.
 */

import {
  type AgentDefinition,
  type AgentLimits,
  DEFAULT_GITHUB_TARGETS,
  fail,
  type GithubIntegration,
  type GithubTargets,
  isPlainObject,
  ok,
  type Problem,
  type Result,
  type StepExecutorName,
} from "@climpt/model";
import type * as v from "valibot";
import {
  agentCommonEntries,
  EDIT_AGENTS_CODES,
  flatBehaviorSchema,
  githubSchema,
  limitsSchema,
  loggingSchema,
  promptsSchema,
  runnerBoundariesSchema,
  runnerFlowSchema,
  runnerVerdictSchema,
  worktreeFinishSchema,
  worktreeSchema,
} from "./agent-file-schema.ts";
import { readParameters } from "./agent-parameters.ts";
import { toAgentRelativePath } from "./agent-relative-path.ts";
import { readExecutor } from "./executor-field.ts";
import {
  type FieldValues,
  type Findings,
  newFindings,
  type ReadOptions,
  readFields,
  readObject,
  report,
  reportNotObject,
} from "./field-reader.ts";
import {
  normalizeBoundaryHook,
  type WrittenBoundaryHook,
  writtenBoundaryHook,
} from "./normalize-boundary-hook.ts";
import * as mcp from "./normalize-mcp-servers.ts";
import { normalizePush, type WrittenPush, writtenPush } from "./normalize-push.ts";
import { normalizeSandbox, type WrittenSandbox, writtenSandbox } from "./normalize-sandbox.ts";
import { normalizeSecrets, type WrittenSecrets, writtenSecrets } from "./normalize-secrets.ts";
import { normalizeVerdict, type WrittenVerdict } from "./normalize-verdict.ts";

export interface NormalizeAgentOptions {
  /** The file the definition came from; every problem names it. */
  readonly file?: string;
  /** The agent folder's name: the agent's `name` must equal it. */
  readonly folderName?: string;
}

/** Tools an agent may use when agent.json does not list any (the built-in tool set). */
export const DEFAULT_ALLOWED_TOOLS: readonly string[] = [
  "Read",
  "Write",
  "Edit",
  "Bash",
  "Glob",
  "Grep",
];

export const DEFAULT_SYSTEM_PROMPT_PATH = "prompts/system.md";
export const DEFAULT_REGISTRY_PATH = "steps_registry.json";

/** Validates and normalizes agent.json. All problems at once, or the definition. */
export function normalizeAgent(
  raw: unknown,
  options: NormalizeAgentOptions = {},
): Result<AgentDefinition> {
  const draft = draftAgent(raw, options);
  return draft.problems.length === 0 ? ok(draft.value) : fail(draft.problems);
}

/** The definition as far as it could be read, and every problem found. */
export function draftAgent(
  raw: unknown,
  options: NormalizeAgentOptions = {},
): { readonly value: AgentDefinition; readonly problems: readonly Problem[] } {
  const findings = newFindings(options.file, "AC-VALID-001");
  let root: Record<string, unknown> = {};
  if (isPlainObject(raw)) root = raw;
  else reportNotObject(findings, raw, "$");

  const hasRunner = Object.hasOwn(root, "runner");
  const hasBehavior = Object.hasOwn(root, "behavior");
  if (isPlainObject(raw) && hasRunner === hasBehavior) {
    report(
      findings,
      "AC-VALID-003",
      "$",
      hasRunner
        ? "agent.json has both `runner` (nested shape) and `behavior` (flat shape)."
        : "agent.json has neither `runner` (nested shape) nor `behavior` (flat shape).",
      hasRunner
        ? "Keep one shape: move the `behavior` settings into `runner.flow` / `runner.verdict` / `runner.boundaries`, or drop `runner`."
        : 'Add "runner": { "verdict": { "type": "detect:graph" } } (or the flat shape\'s "behavior" object).',
    );
  }
  const shape: AgentDefinition["shape"] = hasBehavior && !hasRunner ? "flat" : "nested";

  const common = readFields(agentCommonEntries, root, "$", findings, {
    skip: ["parameters", "limits"],
  });
  const name = resolveName(common, options, findings);
  const parameters = readParameters(root.parameters, findings);
  const topLimits = optionalObject(limitsSchema.entries, root.limits, "$.limits", findings);

  const sections = shape === "flat" ? readFlat(root, findings) : readNested(root, findings);

  const systemPromptPath = agentPath(
    sections.systemPromptPath,
    DEFAULT_SYSTEM_PROMPT_PATH,
    findings,
  );
  const registryPath = agentPath(sections.registry, DEFAULT_REGISTRY_PATH, findings);
  const fallbackDir =
    sections.fallbackDir === undefined
      ? undefined
      : agentPath(sections.fallbackDir, undefined, findings);

  const verdict = normalizeVerdict(sections.verdict, findings, 0);

  const sandbox = normalizeSandbox(sections.sandbox, findings);
  const value: AgentDefinition = {
    name,
    ...(common.displayName === undefined ? {} : { displayName: common.displayName }),
    ...(common.description === undefined ? {} : { description: common.description }),
    ...(common.version === undefined ? {} : { version: common.version }),
    shape,
    parameters,
    systemPromptPath,
    registryPath,
    ...(fallbackDir === undefined ? {} : { fallbackDir }),
    verdict,
    ...(sections.defaultModel === undefined ? {} : { defaultModel: sections.defaultModel }),
    ...(sections.executor === undefined ? {} : { executor: sections.executor }),
    allowedTools: sections.allowedTools ?? DEFAULT_ALLOWED_TOOLS,
    permissionMode: sections.permissionMode ?? "default",
    github: normalizeGithub(sections.github),
    ...normalizeBoundaryHook(sections.boundaryHook, findings),
    ...sandbox,
    ...normalizePush(sections.push, findings),
    ...(sections.editAgents === true ? { editAgents: true } : {}),
    ...normalizeSecrets(sections.secrets, findings),
    ...mcp.normalizeMcpServers(sections.mcpServers, findings, sandbox.sandbox), // after sandbox
    worktree: normalizeWorktree(sections),
    logging: {
      directory: sections.logging?.directory ?? `tmp/logs/agents/${name}`,
      format: "jsonl",
      ...(sections.logging?.maxFiles === undefined ? {} : { maxFiles: sections.logging.maxFiles }),
    },
    limits: normalizeLimits(topLimits, sections.limits),
  };
  return { value, problems: findings.problems };
}

// ---------------------------------------------------------------------------------------------
// The two shapes, read into one set of sections

interface WrittenPath {
  readonly value: string;
  readonly path: string;
}

interface AgentSections {
  readonly systemPromptPath?: WrittenPath;
  readonly registry?: WrittenPath;
  readonly fallbackDir?: WrittenPath;
  readonly verdict: WrittenVerdict;
  readonly defaultModel?: string;
  readonly executor?: StepExecutorName;
  readonly allowedTools?: readonly string[];
  readonly permissionMode?: AgentDefinition["permissionMode"];
  readonly boundaryHook?: WrittenBoundaryHook;
  readonly sandbox?: WrittenSandbox;
  readonly push?: WrittenPush;
  readonly editAgents?: boolean;
  readonly secrets?: WrittenSecrets;
  readonly mcpServers?: mcp.WrittenMcpServers;
  readonly github?: FieldValues<typeof githubSchema.entries>;
  readonly worktree?: FieldValues<typeof worktreeSchema.entries>;
  /** Nested shape: `runner.execution.finalize`, the original runtime's place for these keys. */
  readonly finalize?: FieldValues<typeof worktreeFinishSchema.entries>;
  readonly logging?: FieldValues<typeof loggingSchema.entries>;
  readonly limits?: FieldValues<typeof limitsSchema.entries>;
}

function readFlat(root: Record<string, unknown>, findings: Findings): AgentSections {
  const behavior =
    readObject(flatBehaviorSchema.entries, root.behavior, "$.behavior", findings, {
      skip: ["secrets", "boundaryHook", "mcpServers"],
      codes: EDIT_AGENTS_CODES,
    }) ?? {};
  const behaviorRaw: Record<string, unknown> = isPlainObject(root.behavior) ? root.behavior : {};
  const prompts = optionalObject(promptsSchema.entries, root.prompts, "$.prompts", findings) ?? {};
  return {
    ...written("systemPromptPath", behavior.systemPromptPath, "$.behavior.systemPromptPath"),
    ...written("registry", prompts.registry, "$.prompts.registry"),
    ...written("fallbackDir", prompts.fallbackDir, "$.prompts.fallbackDir"),
    verdict: {
      type: behavior.completionType,
      config: behavior.completionConfig,
      typePath: "$.behavior.completionType",
      configPath: "$.behavior.completionConfig",
    },
    ...defined("defaultModel", behavior.defaultModel),
    ...defined("allowedTools", behavior.allowedTools),
    ...defined("permissionMode", behavior.permissionMode),
    ...writtenBoundaryHook(behaviorRaw.boundaryHook, "$.behavior"),
    ...writtenSandbox(behavior.sandbox, "$.behavior.sandbox"),
    ...writtenPush(behavior.push, "$.behavior.push"),
    ...defined("editAgents", behavior.editAgents),
    ...writtenSecrets(behaviorRaw.secrets, "$.behavior.secrets"),
    ...mcp.writtenMcpServers(behaviorRaw.mcpServers, "$.behavior.mcpServers"),
    ...defined(
      "github",
      optionalObject(githubSchema.entries, root.github, "$.github", findings, GITHUB_CODES),
    ),
    ...defined(
      "worktree",
      optionalObject(worktreeSchema.entries, root.worktree, "$.worktree", findings),
    ),
    ...defined(
      "logging",
      optionalObject(loggingSchema.entries, root.logging, "$.logging", findings),
    ),
  };
}

function readNested(root: Record<string, unknown>, findings: Findings): AgentSections {
  const runner: Record<string, unknown> = isPlainObject(root.runner) ? root.runner : {};
  if (root.runner !== undefined && !isPlainObject(root.runner)) {
    reportNotObject(findings, root.runner, "$.runner");
  }
  const flow =
    optionalObject(runnerFlowSchema.entries, runner.flow, "$.runner.flow", findings, {
      skip: ["prompts", "executor"],
    }) ?? {};
  const flowRaw: Record<string, unknown> = isPlainObject(runner.flow) ? runner.flow : {};
  const prompts =
    optionalObject(promptsSchema.entries, flowRaw.prompts, "$.runner.flow.prompts", findings) ?? {};
  const verdict = optionalObject(
    runnerVerdictSchema.entries,
    runner.verdict,
    "$.runner.verdict",
    findings,
  );
  const boundaries =
    optionalObject(
      runnerBoundariesSchema.entries,
      runner.boundaries,
      "$.runner.boundaries",
      findings,
      { skip: ["secrets", "boundaryHook", "mcpServers"], codes: EDIT_AGENTS_CODES },
    ) ?? {};
  const boundariesRaw: Record<string, unknown> = isPlainObject(runner.boundaries)
    ? runner.boundaries
    : {};
  const integrations = optionalContainer(runner.integrations, "$.runner.integrations", findings);
  const execution = optionalContainer(runner.execution, "$.runner.execution", findings);
  return {
    ...written("systemPromptPath", flow.systemPromptPath, "$.runner.flow.systemPromptPath"),
    ...written("registry", prompts.registry, "$.runner.flow.prompts.registry"),
    ...written("fallbackDir", prompts.fallbackDir, "$.runner.flow.prompts.fallbackDir"),
    verdict: {
      type: verdict?.type,
      config: verdict?.config,
      typePath: "$.runner.verdict.type",
      configPath: "$.runner.verdict.config",
    },
    ...defined("defaultModel", flow.defaultModel),
    ...defined("executor", readExecutor(flowRaw.executor, "$.runner.flow.executor", findings)),
    ...defined("allowedTools", boundaries.allowedTools),
    ...defined("permissionMode", boundaries.permissionMode),
    ...writtenBoundaryHook(boundariesRaw.boundaryHook, "$.runner.boundaries"),
    ...writtenSandbox(boundaries.sandbox, "$.runner.boundaries.sandbox"),
    ...writtenPush(boundaries.push, "$.runner.boundaries.push"),
    ...defined("editAgents", boundaries.editAgents),
    ...writtenSecrets(boundariesRaw.secrets, "$.runner.boundaries.secrets"),
    ...mcp.writtenMcpServers(boundariesRaw.mcpServers, "$.runner.boundaries.mcpServers"),
    ...defined(
      "github",
      optionalObject(
        githubSchema.entries,
        integrations.github,
        "$.runner.integrations.github",
        findings,
        GITHUB_CODES,
      ),
    ),
    ...defined(
      "worktree",
      optionalObject(
        worktreeSchema.entries,
        execution.worktree,
        "$.runner.execution.worktree",
        findings,
      ),
    ),
    ...defined(
      "finalize",
      optionalObject(
        worktreeFinishSchema.entries,
        execution.finalize,
        "$.runner.execution.finalize",
        findings,
      ),
    ),
    ...defined(
      "logging",
      optionalObject(loggingSchema.entries, runner.logging, "$.runner.logging", findings),
    ),
    ...defined(
      "limits",
      optionalObject(limitsSchema.entries, runner.limits, "$.runner.limits", findings),
    ),
  };
}

function written<K extends string>(
  key: K,
  value: string | undefined,
  path: string,
): { [P in K]?: WrittenPath } {
  return (value === undefined ? {} : { [key]: { value, path } }) as { [P in K]?: WrittenPath };
}

function defined<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

/** A wrong `targets` has its own code: it widens what the run may change on GitHub. */
const GITHUB_CODES: ReadOptions = { codes: { targets: "AC-GITHUB-001" } };

function optionalObject<E extends v.ObjectEntries>(
  entries: E,
  raw: unknown,
  at: string,
  findings: Findings,
  options: ReadOptions = {},
): FieldValues<E> | undefined {
  if (raw === undefined) return undefined;
  return readObject(entries, raw, at, findings, options);
}

/** An object that only groups other objects (`runner.integrations`): just its own type. */
function optionalContainer(raw: unknown, at: string, findings: Findings): Record<string, unknown> {
  if (raw === undefined) return {};
  if (isPlainObject(raw)) return raw;
  reportNotObject(findings, raw, at);
  return {};
}

// ---------------------------------------------------------------------------------------------
// Fields

function resolveName(
  common: FieldValues<typeof agentCommonEntries>,
  options: NormalizeAgentOptions,
  findings: Findings,
): string {
  const name = common.name ?? common.agentId;
  const namePath =
    common.name === undefined && common.agentId !== undefined ? "$.agentId" : "$.name";
  if (name === undefined || name === "") {
    report(
      findings,
      "AC-VALID-001",
      "$.name",
      "agent.json has no `name`.",
      options.folderName === undefined
        ? 'Add "name": "<agent folder name>".'
        : `Add "name": "${options.folderName}" (the agent folder's name).`,
    );
    return options.folderName ?? "";
  }
  if (options.folderName !== undefined && name !== options.folderName) {
    report(
      findings,
      "AC-VALID-002",
      namePath,
      `The agent is named "${name}" but its folder is "${options.folderName}".`,
      `Set ${namePath} to "${options.folderName}", or rename the folder to "${name}".`,
    );
  }
  return name;
}

function agentPath<F extends string | undefined>(
  writtenPath: WrittenPath | undefined,
  fallback: F,
  findings: Findings,
): string | F {
  if (writtenPath === undefined) return fallback;
  const relative = toAgentRelativePath(writtenPath.value);
  if (relative.ok) return relative.value;
  report(
    findings,
    "AC-VALID-004",
    writtenPath.path,
    `${writtenPath.path} "${writtenPath.value}" ${relative.reason === "absolute" ? "is an absolute path" : "leaves the agent folder"}; agent files must stay inside the agent folder.`,
    `Write ${writtenPath.path} relative to the agent folder, e.g. "${fallback ?? "prompts"}".`,
  );
  return fallback;
}

function normalizeGithub(
  github: FieldValues<typeof githubSchema.entries> | undefined,
): GithubIntegration {
  const labels = github?.labels;
  return {
    // On unless switched off, as the original runtime reads it: what it enables is bounded
    // (closure prompt variants, poll:state's hook, GitHub tools a closure step lists).
    enabled: github?.enabled ?? true,
    labels: {
      ...(labels?.requirements === undefined ? {} : { requirements: labels.requirements }),
      ...(labels?.inProgress === undefined ? {} : { inProgress: labels.inProgress }),
      ...(labels?.blocked === undefined ? {} : { blocked: labels.blocked }),
      ...(labels?.completion === undefined
        ? {}
        : {
            completion: {
              add: labels.completion.add ?? [],
              remove: labels.completion.remove ?? [],
            },
          }),
    },
    defaultClosureAction: github?.defaultClosureAction ?? "close",
    ...(github?.targets === undefined ? {} : { targets: normalizeTargets(github.targets) }),
  };
}

/** `targets` as written → the definition's: defaults filled, repositories in lower case, once. */
function normalizeTargets(
  targets: NonNullable<FieldValues<typeof githubSchema.entries>["targets"]>,
): GithubTargets {
  return {
    issues: targets.issues ?? DEFAULT_GITHUB_TARGETS.issues,
    pullRequests: targets.pullRequests ?? DEFAULT_GITHUB_TARGETS.pullRequests,
    // GitHub compares names without case; the gh broker and the hook compare lower case.
    repositories: [...new Set((targets.repositories ?? []).map((name) => name.toLowerCase()))],
  };
}

function normalizeLimits(
  top: FieldValues<typeof limitsSchema.entries> | undefined,
  runner: FieldValues<typeof limitsSchema.entries> | undefined,
): AgentLimits {
  // runner.limits wins over a top-level limits object, key by key.
  const merged = { ...top, ...runner };
  const limits: { -readonly [K in keyof AgentLimits]: AgentLimits[K] } = {};
  for (const key of [
    "maxIterations",
    "maxTokens",
    "maxCostUsd",
    "maxWallClockMs",
    "callTimeoutMs",
    "connectTimeoutMs",
    "streamIdleTimeoutMs",
    "maxTurnsPerStep",
  ] as const) {
    const value = merged[key];
    if (typeof value === "number") limits[key] = value;
  }
  return limits;
}

/**
 * Worktree mode and what a successful run does with its branch: the `worktree` section's keys,
 * then the nested shape's `runner.execution.finalize` (the original runtime's place), which wins.
 */
function normalizeWorktree(sections: AgentSections): AgentDefinition["worktree"] {
  const written = { ...sections.worktree, ...sections.finalize };
  const prTarget = written.prTarget;
  return {
    enabled: sections.worktree?.enabled ?? false,
    ...(sections.worktree?.root === undefined ? {} : { root: sections.worktree.root }),
    finish: {
      merge: written.autoMerge ?? true,
      push: written.push ?? false,
      remote: written.remote ?? "origin",
      createPr: written.createPr ?? false,
      ...(prTarget === undefined ? {} : { prTarget }),
    },
  };
}
