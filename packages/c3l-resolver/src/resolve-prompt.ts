import {
  ClimptError,
  fail,
  ok,
  type Problem,
  type PromptRef,
  problem,
  type Result,
  stepPath,
} from "@climpt/model";
import { c3lCandidates, type PathTemplates } from "./c3l-candidates.ts";
import { fallbackTemplate } from "./fallback-templates.ts";
import { stripFrontmatter } from "./frontmatter.ts";
import { PROMPT_CODES } from "./problems.ts";
import type { PromptSource } from "./prompt-source.ts";
import { similarPromptFile } from "./similar-file.ts";

/** Where a prompt's text came from. */
export type PromptOrigin =
  | {
      readonly kind: "file";
      /** The file as the source describes it (the absolute path on disk). */
      readonly path: string;
      /** The same file relative to the prompt folder. */
      readonly relativePath: string;
    }
  | { readonly kind: "fallback"; readonly key: string };

export interface ResolvedPrompt {
  /** The prompt text, frontmatter stripped, placeholders not yet filled. */
  readonly text: string;
  readonly source: PromptOrigin;
  /** Every file looked for, in order, as described by the source (absolute paths on disk). */
  readonly tried: readonly string[];
  /** The file line on which `text` starts (after frontmatter), for line numbers in messages. */
  readonly firstLine: number;
}

export interface ResolvePromptInput {
  readonly registry: PathTemplates;
  readonly ref: PromptRef;
  readonly source: PromptSource;
  /** Built-in template to use when no candidate file exists. */
  readonly fallbackKey?: string | undefined;
  /** For messages: the step being resolved. */
  readonly stepId?: string | undefined;
  /** For messages: the registry file. */
  readonly registryFile?: string | undefined;
}

/**
 * Finds a prompt: the first existing candidate file (see `c3lCandidates`), else the step's
 * fallbackKey template, else PR-C3L-004 naming every path tried. Unsafe paths and unreadable
 * files are coded problems too; nothing outside the source's root is ever read.
 */
export async function resolvePrompt(input: ResolvePromptInput): Promise<Result<ResolvedPrompt>> {
  const origin = { stepId: input.stepId, file: input.registryFile };
  const candidates = c3lCandidates(input.registry, input.ref, origin);
  if (!candidates.ok) return candidates;

  const tried: string[] = [];
  for (const relativePath of candidates.value) {
    const described = input.source.describe(relativePath);
    tried.push(described);
    let raw: string | undefined;
    try {
      raw = await input.source.read(relativePath);
    } catch (error) {
      const issue = promptProblem(error);
      if (issue) return fail([issue]);
      throw error;
    }
    if (raw === undefined) continue;
    const body = stripFrontmatter(raw);
    return ok({
      text: body.text,
      source: { kind: "file", path: described, relativePath },
      tried,
      firstLine: body.firstLine,
    });
  }

  const step = input.stepId === undefined ? "" : ` for step "${input.stepId}"`;
  if (input.fallbackKey !== undefined) {
    const template = fallbackTemplate(input.fallbackKey, input.stepId, {
      file: input.registryFile,
      path: input.stepId === undefined ? undefined : stepPath(input.stepId, "fallbackKey"),
    });
    if (!template.ok) return template;
    return ok({
      text: template.value.text,
      source: { kind: "fallback", key: template.value.key },
      tried,
      firstLine: 1,
    });
  }
  const similar = await similarPromptFile(input.source, candidates.value[0] as string);
  const didYouMean =
    similar === undefined ? "" : `Did you mean ${input.source.describe(similar)}? `;
  return fail([
    problem(PROMPT_CODES.notFound, `No prompt file found${step}; tried ${tried.join(", ")}.`, {
      file: tried[0],
      hint: `${didYouMean}Create ${tried.length > 1 ? "one of these files" : "this file"}, or give the step a "fallbackKey" to use a built-in template.`,
    }),
  ]);
}

/** A PR-* `ClimptError` thrown by a prompt source, as a problem; undefined for anything else. */
export function promptProblem(error: unknown): Problem | undefined {
  if (!ClimptError.isInstance(error) || !error.code.startsWith("PR-")) return undefined;
  return {
    code: error.code,
    message: error.message,
    severity: "error",
    ...(error.file === undefined ? {} : { file: error.file }),
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error.hint === undefined ? {} : { hint: error.hint }),
  };
}
