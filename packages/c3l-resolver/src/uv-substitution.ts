import {
  declaredUvName,
  fail,
  findUvPlaceholders,
  isRuntimeUvName,
  lookupUv,
  mapUvPlaceholders,
  ok,
  type Problem,
  problem,
  type Result,
  stepPath,
} from "@climpt/model";
import { PROMPT_CODES } from "./problems.ts";
import { renderValue } from "./render-value.ts";
import type { UvVariables } from "./uv-channels.ts";

/**
 * Replaces every placeholder that has a value and leaves the others as written. One pass over
 * the original text: a substituted value that itself contains `{uv-…}` is never expanded, so
 * model output carried in a handoff cannot pull other variables into a prompt.
 */
export function replaceUvPlaceholders(text: string, variables: UvVariables): string {
  return mapUvPlaceholders(text, (name) => {
    const found = lookupUv(variables, name);
    return found === undefined ? undefined : renderValue(found.value);
  });
}

export interface UvSubstitutionOptions {
  /** The step's `uvVariables`: each must have a value (PR-RESOLVE-003). */
  readonly declared?: readonly string[] | undefined;
  /** The prompt file, for messages (the described, absolute path). */
  readonly file?: string | undefined;
  /** The file line on which `text` starts (after a stripped frontmatter); default 1. */
  readonly firstLine?: number | undefined;
  readonly stepId?: string | undefined;
  /** The registry file, for a declared variable the prompt never uses. */
  readonly registryFile?: string | undefined;
}

export interface UvSubstitution {
  readonly text: string;
  /** Variable names the text used or the step declared, in first-use order, without repeats. */
  readonly used: readonly string[];
}

/**
 * Fills `{uv-name}` placeholders from `variables`. Every missing value is reported at once:
 * a declared `uvVariables` entry without a value is PR-RESOLVE-003, any other placeholder
 * without one is PR-RESOLVE-005, each with the file and the lines that use it.
 */
export function substituteUv(
  text: string,
  variables: UvVariables,
  options: UvSubstitutionOptions = {},
): Result<UvSubstitution> {
  const firstLine = options.firstLine ?? 1;
  const step = options.stepId === undefined ? "" : ` of step "${options.stepId}"`;
  const placeholders = findUvPlaceholders(text);
  const used: string[] = [];
  const missingLines = new Map<string, number[]>();
  for (const placeholder of placeholders) {
    const found = lookupUv(variables, placeholder.name);
    if (found) {
      if (!used.includes(found.name)) used.push(found.name);
      continue;
    }
    const lines = missingLines.get(placeholder.name) ?? [];
    const fileLine = placeholder.line + firstLine - 1;
    if (!lines.includes(fileLine)) lines.push(fileLine);
    missingLines.set(placeholder.name, lines);
  }

  const issues: Problem[] = [];
  const declared = (options.declared ?? []).map(declaredUvName);
  declared.forEach((name, index) => {
    const found = lookupUv(variables, name);
    if (found) {
      if (!used.includes(found.name)) used.push(found.name);
      return;
    }
    const lines = missingLines.get(name);
    missingLines.delete(name);
    const isRuntime = isRuntimeUvName(name);
    issues.push(
      problem(
        PROMPT_CODES.declaredMissing,
        `The UV variable "${name}" is declared in uvVariables${step} but no channel supplies a value.`,
        {
          ...(lines
            ? { file: options.file, path: linesLabel(lines) }
            : {
                file: options.registryFile,
                path:
                  options.stepId === undefined
                    ? undefined
                    : stepPath(options.stepId, "uvVariables", index),
              }),
          hint: isRuntime
            ? `"${name}" is set by the runner only when it applies to the run (e.g. previous_summary after the first iteration); remove it from uvVariables of steps that run without it.`
            : `Pass --${name} <value> (declared in agent.json parameters, or give it a default), or remove "${name}" from uvVariables.`,
        },
      ),
    );
  });

  const known = Object.keys(variables).sort();
  for (const [name, lines] of missingLines) {
    issues.push(
      problem(
        PROMPT_CODES.placeholderMissing,
        `The prompt${step} uses {uv-${name}} but no channel supplies "${name}".`,
        {
          file: options.file,
          path: linesLabel(lines),
          hint: `Pass --${name} <value>, hand it forward from an earlier step (uv-<step_id>_<key>), or remove the placeholder. Available: ${
            known.length === 0 ? "none" : known.slice(0, 30).join(", ")
          }${known.length > 30 ? ", …" : ""}.`,
        },
      ),
    );
  }
  if (issues.length > 0) return fail(issues);
  return ok({ text: replaceUvPlaceholders(text, variables), used });
}

function linesLabel(lines: readonly number[]): string {
  return lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(", ")}`;
}
