import { join } from "node:path";
import { fail, ok, type Problem, type Registry, type Result } from "@climpt/model";
import { FALLBACK_TEMPLATES } from "./fallback-templates.ts";
import { stripFrontmatter } from "./frontmatter.ts";
import { createFsPromptSource } from "./fs-prompt-source.ts";
import { type PromptSource, problemError } from "./prompt-source.ts";
import { checkRelativePath } from "./relative-path.ts";
import { promptProblem, type ResolvedPrompt } from "./resolve-prompt.ts";

/**
 * The prompt source of an agent: its registry's prompt folder (`basePath`, default `prompts`),
 * confined to the agent folder. Throws a PR-C3L `ClimptError` when `promptsBase` itself is
 * unsafe (absolute, `..`, …); the registry loader reports that earlier as data.
 */
export function createAgentPromptSource(
  agentDir: string,
  registry: Pick<Registry, "promptsBase">,
): PromptSource {
  const base = checkRelativePath(registry.promptsBase, {
    what: "prompt folder (basePath)",
    path: "$.basePath",
  });
  if (!base.ok) throw problemError(base.issues[0] as Problem);
  return createFsPromptSource(join(agentDir, base.value), { within: agentDir });
}

export interface ResolvedSystemPrompt extends ResolvedPrompt {
  /** Set when the built-in template was used: why, and how to replace it. */
  readonly notice?: string;
}

export interface SystemPromptOptions {
  /** Read from this source instead of the agent folder on disk (tests, in-memory agents). */
  readonly source?: PromptSource | undefined;
}

/**
 * The agent's system prompt: `systemPromptPath` (relative to the agent folder, default
 * `prompts/system.md`) with frontmatter stripped. A missing file is not an error: the built-in
 * `system` template is used and `notice` says so. Paths that leave the agent folder are
 * PR-C3L problems.
 */
export async function resolveSystemPrompt(
  agentDir: string,
  systemPromptPath = "prompts/system.md",
  options: SystemPromptOptions = {},
): Promise<Result<ResolvedSystemPrompt>> {
  const checked = checkRelativePath(systemPromptPath, { what: "systemPromptPath" });
  if (!checked.ok) return checked;
  const source = options.source ?? createFsPromptSource(agentDir);
  const described = source.describe(checked.value);
  let raw: string | undefined;
  try {
    raw = await source.read(checked.value);
  } catch (error) {
    const issue = promptProblem(error);
    if (issue) return fail([issue]);
    throw error;
  }
  if (raw !== undefined) {
    const body = stripFrontmatter(raw);
    return ok({
      text: body.text,
      source: { kind: "file", path: described, relativePath: checked.value },
      tried: [described],
      firstLine: body.firstLine,
    });
  }
  const template = FALLBACK_TEMPLATES.system as (typeof FALLBACK_TEMPLATES)[string];
  return ok({
    text: template.text,
    source: { kind: "fallback", key: "system" },
    tried: [described],
    firstLine: 1,
    notice: `No system prompt at ${described}; using the built-in "system" template. Create that file to give this agent its own role and rules.`,
  });
}
