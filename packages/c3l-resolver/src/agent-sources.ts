import { join } from "node:path";
import { fail, ok, type Problem, problem, type Registry, type Result } from "@climpt/model";
import { stripFrontmatter } from "./frontmatter.ts";
import { createFsPromptSource } from "./fs-prompt-source.ts";
import { PROMPT_CODES } from "./problems.ts";
import { type PromptSource, problemError } from "./prompt-source.ts";
import { checkRelativePath } from "./relative-path.ts";
import { promptProblem, type ResolvedPrompt } from "./resolve-prompt.ts";
import { similarPromptFile } from "./similar-file.ts";

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

export type ResolvedSystemPrompt = ResolvedPrompt;

export interface SystemPromptOptions {
  /** Read from this source instead of the agent folder on disk (tests, in-memory agents). */
  readonly source?: PromptSource | undefined;
  /** The file and JSON path that name `systemPromptPath`, for the problem when it is missing. */
  readonly declaredAt?: { readonly file?: string; readonly path?: string } | undefined;
}

/**
 * The agent's system prompt: `systemPromptPath` (relative to the agent folder, default
 * `prompts/system.md`) with frontmatter stripped. A missing file is `PR-C3L-012`, naming a file
 * of a similar name when there is one: a built-in stand-in would let a misspelt path run an
 * agent without its role and rules, unnoticed. Paths that leave the agent folder are PR-C3L
 * problems too.
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
  const similar = await similarPromptFile(source, checked.value);
  const declared = options.declaredAt;
  return fail([
    problem(PROMPT_CODES.systemPromptMissing, `The system prompt ${described} does not exist.`, {
      file: declared?.file ?? described,
      path: declared?.path,
      hint:
        similar === undefined
          ? `Create ${checked.value} in the agent folder (the role and rules every step starts from), or point systemPromptPath at the file that holds them.`
          : `Did you mean ${similar}? Point systemPromptPath at it, or create ${checked.value}.`,
    }),
  ]);
}
