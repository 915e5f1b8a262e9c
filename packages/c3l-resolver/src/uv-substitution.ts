import {
  closestMatch,
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
  type UvPlaceholder,
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
  /**
   * The agent's parameters by name, each with its command-line flag (`issue` → `--issue`), so a
   * hint names a flag only when it exists.
   */
  readonly parameterFlags?: Readonly<Record<string, string>> | undefined;
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
  const checked = checkUvPlaceholders(text, variables, options);
  if (!checked.ok) return checked;
  return ok({ text: replaceUvPlaceholders(text, variables), used: checked.value.used });
}

/**
 * `substituteUv` without the substitution: the variables the text uses (or the step declares)
 * and every missing value, for a caller that fills the text itself (`resolveStepPrompt` also
 * fills `{input_text}` in the same pass).
 */
export function checkUvPlaceholders(
  text: string,
  variables: UvVariables,
  options: UvSubstitutionOptions = {},
  /** `findUvPlaceholders(text)`, when the caller has it already. */
  placeholders: readonly UvPlaceholder[] = findUvPlaceholders(text),
): Result<Pick<UvSubstitution, "used">> {
  const firstLine = options.firstLine ?? 1;
  const step = options.stepId === undefined ? "" : ` of step "${options.stepId}"`;
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
  const flags = options.parameterFlags ?? {};
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
            : Object.hasOwn(flags, name)
              ? `Pass ${flags[name]} <value> (or give the parameter a default in agent.json), or remove "${name}" from uvVariables.`
              : `Declare a parameter "${name}" in agent.json, or remove "${name}" from uvVariables.`,
        },
      ),
    );
  });

  // Sorted only for the hints of missing placeholders.
  const known = missingLines.size === 0 ? [] : Object.keys(variables).sort();
  for (const [name, lines] of missingLines) {
    issues.push(
      problem(
        PROMPT_CODES.placeholderMissing,
        `The prompt${step} uses {uv-${name}} but no channel supplies "${name}".`,
        {
          file: options.file,
          path: linesLabel(lines),
          hint: `${missingPlaceholderHint(name, known, flags)} Available: ${
            known.length === 0 ? "none" : known.slice(0, 30).join(", ")
          }${known.length > 30 ? ", …" : ""}.`,
        },
      ),
    );
  }
  if (issues.length > 0) return fail(issues);
  return ok({ used });
}

/**
 * How to fix a placeholder no channel supplies: the parameter's flag when it is a parameter that
 * was not given, else the closest name that is supplied; never a flag that does not exist.
 */
function missingPlaceholderHint(
  name: string,
  known: readonly string[],
  flags: Readonly<Record<string, string>>,
): string {
  if (Object.hasOwn(flags, name)) {
    return `Pass ${flags[name]} <value> (or give the parameter a default in agent.json).`;
  }
  const closest = closestMatch(name, [...new Set([...known, ...Object.keys(flags)])]);
  if (closest !== undefined) {
    const flag = Object.hasOwn(flags, closest) ? ` (parameter ${closest}, ${flags[closest]})` : "";
    return `Did you mean {uv-${closest}}${flag}? Otherwise declare a parameter "${name}" in agent.json, or hand the value forward from an earlier step (uv-<step_id>_<key>).`;
  }
  return `Declare a parameter "${name}" in agent.json, hand the value forward from an earlier step (uv-<step_id>_<key>), or remove the placeholder.`;
}

function linesLabel(lines: readonly number[]): string {
  return lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(", ")}`;
}
