import {
  type C3lPromptRef,
  declaredUvName,
  fail,
  findUvPlaceholders,
  type JsonValue,
  jsonPath,
  lookupUv,
  ok,
  type Problem,
  type PromptRef,
  problem,
  type Registry,
  type Result,
  type Step,
  UV_NAME_PATTERN,
  type UvPlaceholder,
  uvLookupNames,
} from "@climpt/model";
import { registryHandoffPaths } from "./handoff-variables.ts";
import { PROMPT_CODES } from "./problems.ts";
import type { PromptSource } from "./prompt-source.ts";
import { renderValue } from "./render-value.ts";
import { type PromptOrigin, resolvePrompt } from "./resolve-prompt.ts";
import { renderRetryTemplate } from "./retry-template.ts";
import {
  collectUvVariables,
  type UvChannels,
  type UvOrigin,
  type UvShadowing,
  type UvVariables,
} from "./uv-channels.ts";
import { checkUvPlaceholders } from "./uv-substitution.ts";

/**
 * A different prompt variant for one execution of a step: a failure pattern's retry prompt
 * (`edition: "failed", adaptation: "git-dirty"`), optionally under the validation step's
 * `c2`/`c3` (typically `retry` / the domain).
 */
export interface PromptOverride {
  readonly edition: string;
  /** Replaces the step's adaptation; omit it for the plain edition file. */
  readonly adaptation?: string | undefined;
  readonly c2?: string | undefined;
  readonly c3?: string | undefined;
}

export interface ResolveStepPromptInput {
  readonly registry: Registry;
  /** The step, or its id. */
  readonly step: Step | string;
  /** The agent's prompt folder (see `createAgentPromptSource`). */
  readonly source: PromptSource;
  readonly channels: UvChannels;
  /**
   * Resolve this reference instead of the step's own prompt, with the step's variables and
   * rules: the check prompt of a check-dialect step (`step.check.prompt`).
   */
  readonly prompt?: PromptRef | undefined;
  readonly override?: PromptOverride | undefined;
  /**
   * A failure pattern's params: when given, the prompt is rendered as a retry template
   * (`{{name}}`, `{{#each}}`, `{{#if}}`) before it is returned.
   */
  readonly retryParams?: Readonly<Record<string, JsonValue | undefined>> | undefined;
  /** Text given on stdin; required by `usesStdin` steps, fills `{input_text}`. */
  readonly stdin?: string | undefined;
  /**
   * Use the step's fallbackKey template when no file exists. Default: true for the step's own
   * prompt, false with an `override`, because the step's ordinary template would silently drop
   * the failure; the caller gets PR-C3L-004 and can build its own retry text instead.
   */
  readonly allowFallback?: boolean | undefined;
  /** For messages. */
  readonly registryFile?: string | undefined;
  /** For messages: the agent's parameters by name, each with its flag (`issue` → `--issue`). */
  readonly parameterFlags?: Readonly<Record<string, string>> | undefined;
}

export interface UsedUvVariable {
  readonly value: JsonValue;
  readonly origin: UvOrigin;
}

export interface StepPrompt {
  readonly stepId: string;
  /** The prompt, ready to send: frontmatter stripped, every placeholder filled. */
  readonly text: string;
  readonly source: PromptOrigin;
  /** Every file looked for, in order. */
  readonly tried: readonly string[];
  /** The variables the prompt used or the step declared, with the channel each came from. */
  readonly variables: Readonly<Record<string, UsedUvVariable>>;
  /**
   * Name clashes between channels among the variables this prompt reads (see
   * `collectUvVariables` for who wins).
   */
  readonly shadowed: readonly UvShadowing[];
  /** Retry-template references that had no value and rendered as empty text. */
  readonly missingParams: readonly string[];
}

/**
 * Everything a runner needs to turn a step into prompt text, in one call: pick the file
 * (C3L candidates, or the override's variant), fall back to the fallbackKey template, strip
 * frontmatter, fill `{uv-*}` from the four channels (and retry params, and stdin), and report
 * every problem at once.
 */
export async function resolveStepPrompt(
  input: ResolveStepPromptInput,
): Promise<Result<StepPrompt>> {
  const step = typeof input.step === "string" ? input.registry.steps[input.step] : input.step;
  if (step === undefined) {
    const id = input.step as string;
    return fail([
      problem(PROMPT_CODES.unknownStep, `There is no step "${id}" in the registry.`, {
        file: input.registryFile,
        path: jsonPath("$.steps", id),
        hint: `Use one of: ${Object.keys(input.registry.steps).join(", ")}.`,
      }),
    ]);
  }

  const ref = overridePromptRef(
    input.registry,
    step,
    input.prompt ?? step.prompt,
    input.override,
    input.registryFile,
  );
  if (!ref.ok) return ref;
  const resolved = await resolvePrompt({
    registry: input.registry,
    ref: ref.value,
    source: input.source,
    fallbackKey:
      (input.allowFallback ?? input.override === undefined) ? step.fallbackKey : undefined,
    stepId: step.id,
    registryFile: input.registryFile,
  });
  if (!resolved.ok) return resolved;
  const prompt = resolved.value;
  const file =
    prompt.source.kind === "file" ? prompt.source.path : `fallback template "${prompt.source.key}"`;

  const issues: Problem[] = [];
  if (step.usesStdin && input.stdin === undefined) {
    issues.push(
      problem(
        PROMPT_CODES.stdinMissing,
        `Step "${step.id}" reads stdin (usesStdin) but none was given.`,
        {
          file: input.registryFile,
          path: jsonPath(jsonPath("$.steps", step.id), "usesStdin"),
          hint: "Pipe the input into the run, or set usesStdin to false.",
        },
      ),
    );
  }

  // The registry's paths are shared, not copied: a copy per prompt would cost every step the
  // size of the registry.
  const registryPaths = registryHandoffPaths(input.registry);
  const channels: UvChannels = {
    ...input.channels,
    handoffPaths:
      input.channels.handoffPaths === undefined
        ? registryPaths
        : { ...registryPaths, ...input.channels.handoffPaths },
  };
  const substitution = {
    declared: step.uvVariables,
    file,
    firstLine: prompt.firstLine,
    stepId: step.id,
    registryFile: input.registryFile,
    parameterFlags: input.parameterFlags,
  };
  // Only the names this prompt reads (its placeholders and the step's declared variables) are
  // looked up, so a step costs what its prompt uses, not what the run has handed off so far.
  // One scan of the text serves the lookup and the check.
  const placeholders = findUvPlaceholders(prompt.text);
  let table = collectUvVariables(channels, namesReadBy(placeholders, step.uvVariables));
  let checked = checkUvPlaceholders(prompt.text, table.variables, substitution, placeholders);
  if (!checked.ok) {
    // The message lists every available variable: only now is the whole table worth building.
    table = collectUvVariables(channels);
    checked = checkUvPlaceholders(prompt.text, table.variables, substitution, placeholders);
  }
  if (!checked.ok) issues.push(...checked.issues);

  // Placeholders are filled in the template's own text only, in one pass, so neither a
  // variable's value nor a retry param nor stdin is ever scanned for placeholders again.
  const fill = (text: string): string => fillPlaceholders(text, table.variables, input.stdin);
  let text: string;
  let missingParams: readonly string[] = [];
  if (input.retryParams === undefined) {
    text = fill(prompt.text);
  } else {
    const rendered = renderRetryTemplate(prompt.text, input.retryParams, {
      file,
      firstLine: prompt.firstLine,
      literal: fill,
    });
    if (!rendered.ok) {
      issues.push(...rendered.issues);
      text = "";
    } else {
      text = rendered.value.text;
      missingParams = rendered.value.missing;
    }
  }
  if (issues.length > 0) return fail(issues);

  const variables: Record<string, UsedUvVariable> = Object.create(null);
  for (const name of checked.ok ? checked.value.used : []) {
    const origin = table.origins[name];
    const value = table.variables[name];
    if (origin !== undefined && value !== undefined) variables[name] = { value, origin };
  }
  return ok({
    stepId: step.id,
    text,
    source: prompt.source,
    tried: prompt.tried,
    variables,
    shadowed: table.shadowed,
    missingParams,
  });
}

/**
 * The C3L reference of a prompt variant: the step's prompt with the override's edition and
 * adaptation, under the override's c2/c3 when given (retry prompts live under the validation
 * step's c2/c3). Without an override, the reference itself. A path-referenced prompt needs the
 * override's c2 and c3 (PR-C3L-011).
 */
export function overridePromptRef(
  registry: Registry,
  step: Step,
  prompt: PromptRef,
  override: PromptOverride | undefined,
  registryFile: string | undefined,
): Result<PromptRef> {
  if (override === undefined) return ok(prompt);
  let base: C3lPromptRef;
  if (prompt.kind === "c3l") {
    base = prompt;
  } else if (override.c2 !== undefined && override.c3 !== undefined) {
    base = { kind: "c3l", c1: registry.c1, c2: override.c2, c3: override.c3, edition: "default" };
  } else {
    return fail([
      problem(
        PROMPT_CODES.overrideNeedsC3l,
        `Step "${step.id}" names its prompt by path, so a retry variant (edition "${override.edition}") needs c2 and c3 to build a C3L path.`,
        {
          file: registryFile,
          path: jsonPath(jsonPath("$.steps", step.id), "prompt"),
          hint: "Give the validation step c2 and c3, or reference the step's prompt by c2/c3/edition.",
        },
      ),
    ]);
  }
  const ref: C3lPromptRef = {
    kind: "c3l",
    c1: base.c1,
    c2: override.c2 ?? base.c2,
    c3: override.c3 ?? base.c3,
    edition: override.edition,
    ...(override.adaptation === undefined ? {} : { adaptation: override.adaptation }),
  };
  return ok(ref);
}

/** Every name under which the placeholders and the declared variables may be supplied. */
function namesReadBy(
  placeholders: readonly UvPlaceholder[],
  declared: readonly string[],
): Set<string> {
  const names = new Set<string>();
  for (const placeholder of placeholders) {
    for (const name of uvLookupNames(placeholder.name)) names.add(name);
  }
  for (const entry of declared) {
    for (const name of uvLookupNames(declaredUvName(entry))) names.add(name);
  }
  return names;
}

// `{uv-*}` by the placeholder grammar of @climpt/model, and the check dialect's `{input_text}`.
const FILLABLE = new RegExp(`\\{uv-(${UV_NAME_PATTERN})\\}|\\{input_text\\}`, "g");

function fillPlaceholders(text: string, variables: UvVariables, stdin: string | undefined): string {
  return text.replace(FILLABLE, (whole, name: string | undefined) => {
    if (name === undefined) return stdin ?? whole;
    const found = lookupUv(variables, name);
    return found === undefined ? whole : renderValue(found.value);
  });
}
