import {
  type C3lPromptRef,
  fail,
  jsonPath,
  ok,
  type Problem,
  type PromptRef,
  problem,
  type Registry,
  type Result,
  stepPath,
} from "@climpt/model";
import { PROMPT_CODES } from "./problems.ts";
import {
  checkPathSegment,
  checkRelativePath,
  isPathSegment,
  safeNormalPath,
} from "./relative-path.ts";

/** The registry fields that decide where a prompt file lives. */
export type PathTemplates = Pick<Registry, "pathTemplate" | "pathTemplateNoAdaptation">;

/** Where a reference came from, so problems point at the registry entry. */
export interface RefOrigin {
  readonly stepId?: string | undefined;
  /** The registry file, for `Problem.file`. */
  readonly file?: string | undefined;
}

const C3L_PLACEHOLDERS = ["c1", "c2", "c3", "edition", "adaptation"] as const;
type C3lPlaceholder = (typeof C3L_PLACEHOLDERS)[number];

/**
 * The relative paths (under the prompt folder) to try for a reference, in order:
 * with an adaptation, `pathTemplate` and then `pathTemplateNoAdaptation` (an adaptation whose
 * file is missing falls back to the plain edition); without one, `pathTemplateNoAdaptation`
 * only. A `{kind: "path"}` reference is its own single candidate.
 *
 * Every value is checked before it becomes a path: a C3L value must be one plain segment, and
 * the finished path must be relative without `..`, so no registry value can point outside.
 */
export function c3lCandidates(
  registry: PathTemplates,
  ref: PromptRef,
  origin: RefOrigin = {},
): Result<readonly string[]> {
  // Built only for a problem's `path`: the values are checked on every step and almost never fail.
  const stepAt = (): string | undefined =>
    origin.stepId === undefined ? undefined : stepPath(origin.stepId);
  if (ref.kind === "path") {
    const at = stepAt();
    const where = { file: origin.file, path: at && jsonPath(at, "path") };
    if (ref.path.trim() === "") {
      return fail([
        problem(PROMPT_CODES.badTemplate, "The prompt path reference is empty.", {
          ...where,
          hint: 'Name a file under the prompt folder, e.g. {"path": "system.md"}.',
        }),
      ]);
    }
    const checked = checkRelativePath(ref.path, { what: "prompt path", ...where });
    return checked.ok ? ok([checked.value]) : checked;
  }

  const issues: Problem[] = [];
  for (const name of C3L_PLACEHOLDERS) {
    const value = ref[name];
    if (value === undefined || isPathSegment(value)) continue;
    const at = stepAt();
    const issue = checkPathSegment(value, {
      what: `${name} value`,
      file: origin.file,
      path: at && jsonPath(at, name),
    });
    if (issue) issues.push(issue);
  }
  if (issues.length > 0) return fail(issues);

  const templates =
    ref.adaptation === undefined
      ? [["pathTemplateNoAdaptation", registry.pathTemplateNoAdaptation] as const]
      : ([
          ["pathTemplate", registry.pathTemplate],
          ["pathTemplateNoAdaptation", registry.pathTemplateNoAdaptation],
        ] as const);
  const candidates: string[] = [];
  for (const [field, template] of templates) {
    const filled = fillTemplate(template, ref, field, origin.file);
    if (!filled.ok) {
      issues.push(...filled.issues);
      continue;
    }
    if (!candidates.includes(filled.value)) candidates.push(filled.value);
  }
  return issues.length > 0 ? fail(issues) : ok(candidates);
}

function fillTemplate(
  template: string,
  ref: C3lPromptRef,
  field: "pathTemplate" | "pathTemplateNoAdaptation",
  file: string | undefined,
): Result<string> {
  const unknown: string[] = [];
  const filled = template.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
    const value = isPlaceholder(name) ? ref[name] : undefined;
    if (value === undefined) {
      unknown.push(whole);
      return whole;
    }
    return value;
  });
  if (unknown.length === 0) {
    const safe = safeNormalPath(filled);
    if (safe !== undefined) return ok(safe);
  }
  const where = { file, path: jsonPath("$", field) };
  if (unknown.length > 0) {
    return fail([
      problem(
        PROMPT_CODES.badTemplate,
        `The ${field} ${JSON.stringify(template)} uses ${unknown.join(", ")}, which nothing fills here.`,
        {
          ...where,
          hint: `Use only {c1} {c2} {c3} {edition}${field === "pathTemplate" ? " {adaptation}" : ""}; {adaptation} belongs in pathTemplate only.`,
        },
      ),
    ]);
  }
  return checkRelativePath(filled, { what: `${field} result`, ...where });
}

function isPlaceholder(name: string): name is C3lPlaceholder {
  return (C3L_PLACEHOLDERS as readonly string[]).includes(name);
}
