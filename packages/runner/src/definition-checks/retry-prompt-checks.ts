/**
 * The retry prompts a failed validation can send, found the way the completion chain finds them
 * (docs/design.md#the-completion-chain): the failure pattern's C3L variant under the validation
 * step's c2/c3 (`f_<edition>_<adaptation>.md`, then `f_<edition>.md`), then `f_failed.md`, then
 * the built-in retry text. A misnamed file would silently send something more general; a
 * pattern with no file at all sends the built-in text. Both are reported here.
 */
import {
  c3lCandidates,
  checkRetryTemplate,
  overridePromptRef,
  type PromptOverride,
  type PromptSource,
  resolvePrompt,
  similarPromptFile,
} from "@climpt/c3l-resolver";
import {
  type FailurePattern,
  jsonPath,
  type LoadedAgent,
  type Problem,
  problem,
  type Step,
  type ValidationStep,
} from "@climpt/model";
import { findValidationStep } from "@climpt/router";
import type { PromptText } from "./placeholder-checks.ts";

export interface RetryPromptChecks {
  readonly problems: Problem[];
  /** Every retry prompt file that exists, to be checked like any other prompt. */
  readonly prompts: PromptText[];
}

/** One failure pattern as one closure step's validation uses it. */
interface PatternUse {
  readonly step: Step;
  readonly entry: ValidationStep;
  readonly pattern: FailurePattern;
  readonly validator: string;
}

/** The retry prompts of every closure step's validation, with what is wrong about them. */
export async function checkRetryPrompts(
  loaded: LoadedAgent,
  source: PromptSource,
): Promise<RetryPromptChecks> {
  const { registry, agent } = loaded;
  const uses: PatternUse[] = [];
  const seen = new Set<string>();
  for (const step of Object.values(registry.steps)) {
    if (step.kind !== "closure") continue;
    const entry = findValidationStep(registry, step.id, agent.verdict.type)?.entry;
    if (entry === undefined) continue;
    for (const condition of entry.conditions) {
      const validator = registry.validators[condition.validator];
      const pattern =
        validator === undefined ? undefined : registry.failurePatterns[validator.failurePattern];
      // A validator or pattern that does not exist is the loader's problem.
      if (validator === undefined || pattern === undefined) continue;
      const key = JSON.stringify([step.prompt, entry.c2, entry.c3, pattern.id]);
      if (seen.has(key)) continue;
      seen.add(key);
      uses.push({ step, entry, pattern, validator: validator.id });
    }
  }
  const problems: Problem[] = [];
  const prompts: PromptText[] = [];
  const claimed = await claimedFiles(loaded, source, uses);
  for (const use of uses) {
    const checked = await checkPattern(loaded, source, use, claimed);
    problems.push(...checked.problems);
    if (checked.prompt !== undefined) prompts.push(checked.prompt);
  }
  return { problems, prompts };
}

function override(use: PatternUse, edition: string, adaptation?: string): PromptOverride {
  return {
    edition,
    ...(adaptation === undefined ? {} : { adaptation }),
    ...(use.entry.c2 === undefined ? {} : { c2: use.entry.c2 }),
    ...(use.entry.c3 === undefined ? {} : { c3: use.entry.c3 }),
  };
}

/** The relative paths the chain tries for a pattern, in order, and which of them are its own. */
function chainFor(
  loaded: LoadedAgent,
  use: PatternUse,
): { readonly own: readonly string[]; readonly general: readonly string[] } | undefined {
  const { registry } = loaded;
  const paths = (edition: string, adaptation?: string): readonly string[] | undefined => {
    const ref = overridePromptRef(
      registry,
      use.step,
      use.step.prompt,
      override(use, edition, adaptation),
      loaded.files.registry,
    );
    if (!ref.ok) return undefined;
    const candidates = c3lCandidates(registry, ref.value);
    return candidates.ok ? candidates.value : undefined;
  };
  const ownPaths = paths(use.pattern.edition, use.pattern.adaptation);
  if (ownPaths === undefined) return undefined;
  // With an adaptation the first candidate is the pattern's own file; the plain edition file
  // after it is shared by every pattern of that edition.
  const own = use.pattern.adaptation === undefined ? ownPaths : ownPaths.slice(0, 1);
  const general = [
    ...(use.pattern.adaptation === undefined ? [] : ownPaths.slice(1)),
    ...(use.pattern.edition === "failed" ? [] : (paths("failed") ?? [])),
  ];
  return { own, general };
}

/** The file names that are some pattern's own prompt, or a general file of the chain. */
async function claimedFiles(
  loaded: LoadedAgent,
  source: PromptSource,
  uses: readonly PatternUse[],
): Promise<ReadonlySet<string>> {
  const names = new Set<string>();
  for (const use of uses) {
    const chain = chainFor(loaded, use);
    if (chain === undefined) continue;
    for (const path of chain.general) names.add(path.slice(path.lastIndexOf("/") + 1));
    for (const path of chain.own) {
      if ((await source.read(path).catch(() => undefined)) !== undefined) {
        names.add(path.slice(path.lastIndexOf("/") + 1));
      }
    }
  }
  return names;
}

async function checkPattern(
  loaded: LoadedAgent,
  source: PromptSource,
  use: PatternUse,
  claimed: ReadonlySet<string>,
): Promise<{ readonly problems: Problem[]; readonly prompt?: PromptText }> {
  const registryFile = loaded.files.registry;
  const where = `failure pattern "${use.pattern.id}" (validator "${use.validator}" of closure step "${use.step.id}")`;
  const patternAt = { file: registryFile, path: jsonPath("$.failurePatterns", use.pattern.id) };
  const chain = chainFor(loaded, use);
  if (chain === undefined) {
    // A closure step named by path, with no c2/c3 in its validation entry: no retry file can
    // be named, so the built-in text is what the chain sends.
    if (use.pattern.fallback === "built-in") return { problems: [] };
    return {
      problems: [
        problem(
          "PR-C3L-013",
          `The ${where} can have no retry prompt file: the closure step names its prompt by path and its validationSteps entry has no c2/c3, so the built-in retry text is sent.`,
          {
            ...patternAt,
            severity: "warning",
            hint: 'Give the validationSteps entry c2 and c3 and write the retry prompt there, or add "fallback": "built-in" to the pattern to say the built-in text is intended.',
          },
        ),
      ],
    };
  }

  let found: { text: string; file: string; firstLine: number; own: boolean } | undefined;
  for (const [paths, own] of [
    [chain.own, true],
    [chain.general, false],
  ] as const) {
    if (found !== undefined) break;
    for (const path of paths) {
      const resolved = await resolvePrompt({
        registry: loaded.registry,
        ref: { kind: "path", path },
        source,
        stepId: use.step.id,
        registryFile,
      });
      if (resolved.ok) {
        found = {
          text: resolved.value.text,
          file: source.describe(path),
          firstLine: resolved.value.firstLine,
          own,
        };
        break;
      }
      if (resolved.issues.some((issue) => issue.code !== "PR-C3L-004")) {
        return { problems: [...resolved.issues] };
      }
    }
  }

  const wanted = chain.own[0] as string;
  const similar =
    found?.own === true ? undefined : await similarPromptFile(source, wanted, claimed);
  const problems: Problem[] = [];
  if (similar !== undefined) {
    problems.push(
      problem(
        "PR-C3L-013",
        `The ${where} has no retry prompt of its own: there is no ${source.describe(wanted)}, so ${found === undefined ? "the built-in retry text" : found.file} would be sent instead.`,
        {
          ...patternAt,
          hint: `Did you mean ${source.describe(similar)}? Rename it to ${wanted.slice(wanted.lastIndexOf("/") + 1)}, or fix the pattern's edition/adaptation.`,
        },
      ),
    );
  } else if (found === undefined && use.pattern.fallback !== "built-in") {
    const tried = [...chain.own, ...chain.general].map((path) => source.describe(path));
    problems.push(
      problem(
        "PR-C3L-013",
        `The ${where} has no retry prompt file (tried ${tried.join(", ")}), so the built-in retry text is sent when it fails.`,
        {
          ...patternAt,
          severity: "warning",
          hint: `Write ${wanted} in the prompt folder (say what failed and how to fix it), or add "fallback": "built-in" to the pattern to say the built-in text is intended.`,
        },
      ),
    );
  }
  if (found === undefined) return { problems };
  const syntax = checkRetryTemplate(found.text, { file: found.file, firstLine: found.firstLine });
  if (!syntax.ok) problems.push(...syntax.issues);
  return {
    problems,
    prompt: {
      text: found.text,
      what: `retry prompt of failure pattern "${use.pattern.id}"`,
      file: found.file,
      firstLine: found.firstLine,
      stepId: use.step.id,
    },
  };
}
