/**
 * steps_registry.json (either dialect) → `Registry`. Pure: no file access. Every problem of the
 * file is reported at once: each field is read on its own (a bad field is reported and
 * defaulted), then the whole registry is checked (registry-checks.ts).
 */
import {
  type CheckDefinition,
  type CheckOnFail,
  type CheckOnPass,
  DEFAULT_PATH_TEMPLATE,
  DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
  type FailurePattern,
  fail,
  type GateIntent,
  type HandoffField,
  INTENT_ALIASES,
  type IterationBounds,
  inferStepKind,
  isExtractorName,
  isGateIntent,
  isPlainObject,
  jsonPath,
  ok,
  type Problem,
  type PromptRef,
  parseSuccessCondition,
  type Registry,
  type Result,
  type Step,
  type StepPermissions,
  type StructuredGate,
  setEntry,
  stepPath,
  type Transition,
  type ValidationCondition,
  type ValidationStep,
  type ValidatorDefinition,
} from "@climpt/model";
import { toAgentRelativePath } from "./agent-relative-path.ts";
import { durationToMs } from "./duration.ts";
import {
  describeValue,
  type Findings,
  newFindings,
  readFields,
  readObject,
  report,
  reportNotObject,
} from "./field-reader.ts";
import { checkRegistry } from "./registry-checks.ts";
import { detectRegistryDialect } from "./registry-dialect.ts";
import {
  c3lPromptRefSchema,
  checkHandoffSchema,
  checkSchema,
  checkStepSchema,
  conditionalTransitionSchema,
  failurePatternSchema,
  gateStepSchema,
  iterationsSchema,
  onFailFallbackSchema,
  onFailRetrySchema,
  onPassNextSchema,
  pathPromptRefSchema,
  registryTopLevelEntries,
  structuredGateSchema,
  targetTransitionSchema,
  validationConditionSchema,
  validationStepSchema,
  validatorSchema,
} from "./registry-file-schema.ts";

export interface NormalizeRegistryOptions {
  /** The file the registry came from; every problem names it. */
  readonly file?: string;
  /** The agent folder's name: a declared `agentId` must equal it. */
  readonly folderName?: string;
}

/** Default `maxRetries` of `onFail: {retry: true}` when the definition gives none. */
export const DEFAULT_CHECK_MAX_RETRIES = 3;

/** Validates and normalizes steps_registry.json. All problems at once, or the registry. */
export function normalizeRegistry(
  raw: unknown,
  options: NormalizeRegistryOptions = {},
): Result<Registry> {
  const draft = draftRegistry(raw, options);
  return draft.problems.length === 0 ? ok(draft.value) : fail(draft.problems);
}

/** The registry as far as it could be read, and every problem found. */
export function draftRegistry(
  raw: unknown,
  options: NormalizeRegistryOptions = {},
): { readonly value: Registry; readonly problems: readonly Problem[] } {
  const findings = newFindings(options.file, "SR-LOAD-005");
  let root: Record<string, unknown> = {};
  if (isPlainObject(raw)) root = raw;
  else reportNotObject(findings, raw, "$");

  const detection = detectRegistryDialect(root);
  if (detection.mixed !== undefined) {
    const { checkStep, checkKey, gateStep, gateKey } = detection.mixed;
    report(
      findings,
      "SR-LOAD-006",
      stepPath(detection.dialect === "gate" ? checkStep : gateStep),
      `The registry mixes dialects: step "${checkStep}" uses the check dialect's "${checkKey}", step "${gateStep}" the gate dialect's "${gateKey}"; it is read as the ${detection.dialect} dialect and the other keys are ignored.`,
      "Write every step in one dialect: check (id, prompt, iterations, check, handoff) or gate (stepId, c2, c3, structuredGate, transitions).",
    );
  }
  const dialect = detection.dialect;

  const top = readFields(registryTopLevelEntries, root, "$", findings, {
    skip: ["failurePatterns", "validators", "validationSteps"],
  });
  if (
    top.agentId !== undefined &&
    options.folderName !== undefined &&
    top.agentId !== options.folderName
  ) {
    report(
      findings,
      "SR-LOAD-002",
      "$.agentId",
      `The registry's agentId "${top.agentId}" does not match the agent folder "${options.folderName}".`,
      `Set "agentId": "${options.folderName}", or rename the folder to "${top.agentId}".`,
    );
  }
  if (
    top.basePath !== undefined &&
    top.userPromptsBase !== undefined &&
    top.basePath !== top.userPromptsBase
  ) {
    report(
      findings,
      "SR-LOAD-006",
      "$.userPromptsBase",
      `The registry names two prompt folders: basePath "${top.basePath}" and userPromptsBase "${top.userPromptsBase}".`,
      "Keep one of them (basePath in the check dialect, userPromptsBase in the gate dialect).",
    );
  }
  checkPromptSegments({ c1: top.c1 }, "$", findings);
  for (const key of ["pathTemplate", "pathTemplateNoAdaptation"] as const) {
    checkPathTemplate(top[key], `$.${key}`, findings);
  }
  const c1 = top.c1 ?? "steps";
  const promptsBase =
    top.basePath !== undefined
      ? folder(top.basePath, "$.basePath", "prompts", findings)
      : folder(top.userPromptsBase, "$.userPromptsBase", "prompts", findings);
  const schemasBase = folder(top.schemasBase, "$.schemasBase", "schemas", findings);

  const declared = new Map<string, ReadonlySet<string>>();
  const steps: Record<string, Step> = {};
  if (root.steps === undefined) {
    report(
      findings,
      "SR-LOAD-005",
      "$.steps",
      "Required field $.steps is missing.",
      'Add "steps": { "<step id>": { … } } with at least one step.',
    );
  } else if (!isPlainObject(root.steps)) {
    reportNotObject(findings, root.steps, "$.steps");
  } else {
    for (const [key, rawStep] of Object.entries(root.steps)) {
      const at = stepPath(key);
      if (!isPlainObject(rawStep)) {
        reportNotObject(findings, rawStep, at);
        // Kept so references to it still resolve; left out of `declared`, so not checked.
        setEntry(steps, key, placeholderStep(key, c1));
        continue;
      }
      declared.set(key, new Set(Object.keys(rawStep)));
      setEntry(
        steps,
        key,
        dialect === "check"
          ? readCheckStep(key, rawStep, at, c1, findings)
          : readGateStep(key, rawStep, at, c1, findings),
      );
    }
  }

  const registry: Registry = {
    dialect,
    ...(top.agentId === undefined ? {} : { agentId: top.agentId }),
    version: top.version ?? "0.0.0",
    c1,
    promptsBase,
    schemasBase,
    pathTemplate: top.pathTemplate ?? DEFAULT_PATH_TEMPLATE,
    pathTemplateNoAdaptation: top.pathTemplateNoAdaptation ?? DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
    ...(top.entryStep === undefined ? {} : { entryStep: top.entryStep }),
    entryStepMapping: top.entryStepMapping ?? {},
    failurePatterns: readFailurePatterns(root.failurePatterns, findings),
    validators: readValidators(root.validators, findings),
    validationSteps: readValidationSteps(root.validationSteps, findings),
    steps,
  };
  checkRegistry(registry, declared, findings);
  return { value: registry, problems: findings.problems };
}

function folder(
  written: string | undefined,
  path: string,
  fallback: string,
  findings: Findings,
): string {
  if (written === undefined) return fallback;
  const relative = toAgentRelativePath(written);
  if (relative.ok) return relative.value;
  report(
    findings,
    "SR-LOAD-007",
    path,
    `${path} "${written}" ${relative.reason === "absolute" ? "is an absolute path" : "leaves the agent folder"}; prompts and schemas must live inside the agent folder.`,
    `Write ${path} relative to the agent folder (e.g. "${fallback}"), or as ".agent/<name>/${fallback}" from the repository root.`,
  );
  return fallback;
}

/**
 * C3L segments become folder and file names; a separator or a `.`/`..` segment would let a
 * definition point the prompt loader outside the prompts folder.
 */
function checkPromptSegments(
  segments: Partial<Record<"c1" | "c2" | "c3" | "edition" | "adaptation", string>>,
  at: string,
  findings: Findings,
): void {
  for (const key of ["c1", "c2", "c3", "edition", "adaptation"] as const) {
    const value = segments[key];
    if (value === undefined || !(/[/\\]/.test(value) || value === "." || value === "..")) continue;
    report(
      findings,
      "SR-LOAD-007",
      `${at}.${key}`,
      `${key} "${value}" is not a single name: C3L segments become folder and file names and may not leave the prompts folder.`,
      `Write ${key} as one name without "/" (e.g. "initial"); nest folders with c1/c2/c3 instead.`,
    );
  }
}

function checkPathTemplate(template: string | undefined, at: string, findings: Findings): void {
  if (template === undefined) return;
  const relative = toAgentRelativePath(template);
  if (relative.ok && !template.split(/[/\\]/).includes("..")) return;
  report(
    findings,
    "SR-LOAD-007",
    at,
    `${at} "${template}" can point outside the prompts folder.`,
    'Keep the template relative and without "..", e.g. "{c1}/{c2}/{c3}/f_{edition}_{adaptation}.md".',
  );
}

function placeholderStep(id: string, c1: string): Step {
  return {
    id,
    kind: "work",
    kindSource: "inferred",
    prompt: { kind: "c3l", c1, c2: "", c3: "", edition: "default" },
    uvVariables: [],
    usesStdin: false,
    transitions: {},
    iterations: { min: 1, max: 1 },
    handoff: [],
    permissions: {},
  };
}

function checkStepKey(
  key: string,
  written: string | undefined,
  field: "stepId" | "id",
  at: string,
  findings: Findings,
): void {
  if (written === undefined || written === key) return;
  report(
    findings,
    "SR-VALID-001",
    `${at}.${field}`,
    `Step "${key}" declares ${field} "${written}"; the key in steps and the ${field} must be the same.`,
    `Set ${field} to "${key}", or rename the key to "${written}" (and every reference to it).`,
  );
}

function permissionsOf(fields: {
  allowedTools?: readonly string[];
  permissionMode?: StepPermissions["permissionMode"];
}): StepPermissions {
  return {
    ...(fields.allowedTools === undefined ? {} : { allowedTools: fields.allowedTools }),
    ...(fields.permissionMode === undefined ? {} : { permissionMode: fields.permissionMode }),
  };
}

// ---------------------------------------------------------------------------------------------
// Gate dialect steps

function readGateStep(
  key: string,
  raw: Record<string, unknown>,
  at: string,
  c1: string,
  findings: Findings,
): Step {
  const fields = readFields(gateStepSchema.entries, raw, at, findings, {
    skip: ["structuredGate", "transitions"],
  });
  checkStepKey(key, fields.stepId, "stepId", at, findings);
  checkPromptSegments(fields, at, findings);
  const gate =
    raw.structuredGate === undefined
      ? undefined
      : readGate(raw.structuredGate, `${at}.structuredGate`, findings);
  const transitions =
    raw.transitions === undefined
      ? {}
      : readTransitions(raw.transitions, `${at}.transitions`, findings);
  const kind = fields.stepKind ?? inferStepKind(key, fields.c2);
  return {
    id: key,
    ...(fields.name === undefined ? {} : { name: fields.name }),
    ...(fields.description === undefined ? {} : { description: fields.description }),
    kind,
    kindSource: fields.stepKind === undefined ? "inferred" : "declared",
    prompt: {
      kind: "c3l",
      c1,
      c2: fields.c2 ?? "",
      c3: fields.c3 ?? "",
      edition: fields.edition ?? "default",
      ...(fields.adaptation === undefined ? {} : { adaptation: fields.adaptation }),
    },
    ...(fields.fallbackKey === undefined ? {} : { fallbackKey: fields.fallbackKey }),
    uvVariables: fields.uvVariables ?? [],
    usesStdin: fields.usesStdin ?? false,
    ...(fields.outputSchemaRef === undefined
      ? {}
      : {
          outputSchemaRef: {
            file: fields.outputSchemaRef.file,
            schema: fields.outputSchemaRef.schema,
          },
        }),
    ...(gate === undefined ? {} : { gate }),
    transitions,
    iterations: { min: 1, max: 1 },
    handoff: gate === undefined ? [] : gate.handoffFields.map(handoffFromField),
    ...(fields.model === undefined ? {} : { model: fields.model }),
    permissions: permissionsOf(fields),
  };
}

/** `analysis.understanding` → `{key: "understanding", path: "analysis.understanding"}`. */
export function handoffFromField(path: string): HandoffField {
  const segments = path.split(".").filter((segment) => segment !== "");
  const last = segments[segments.length - 1] ?? path;
  return { key: last.replace(/\[\d+\]$/, ""), path };
}

function readGate(raw: unknown, at: string, findings: Findings): StructuredGate | undefined {
  const fields = readObject(structuredGateSchema.entries, raw, at, findings, {
    skip: ["allowedIntents"],
    codes: { fallbackIntent: "SR-INTENT-002" },
  });
  if (fields === undefined || !isPlainObject(raw)) return undefined;
  const allowedIntents = readIntents(raw.allowedIntents, `${at}.allowedIntents`, findings);
  return {
    allowedIntents,
    intentSchemaRef: fields.intentSchemaRef ?? "",
    intentField: fields.intentField ?? "",
    ...(fields.targetField === undefined ? {} : { targetField: fields.targetField }),
    handoffFields: fields.handoffFields ?? [],
    ...(fields.targetMode === undefined ? {} : { targetMode: fields.targetMode }),
    failFast: fields.failFast ?? true,
    ...(fields.fallbackIntent === undefined ? {} : { fallbackIntent: fields.fallbackIntent }),
  };
}

function readIntents(raw: unknown, at: string, findings: Findings): GateIntent[] {
  if (raw === undefined) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `Required field ${at} is missing.`,
      'List the intents this step may emit, e.g. "allowedIntents": ["next", "repeat"].',
    );
    return [];
  }
  if (!Array.isArray(raw)) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `${at} must be an array of intents, but is ${describeValue(raw)}.`,
      'Write e.g. "allowedIntents": ["next", "repeat"].',
    );
    return [];
  }
  const intents: GateIntent[] = [];
  raw.forEach((value, index) => {
    if (isGateIntent(value)) {
      intents.push(value);
      return;
    }
    const alias = typeof value === "string" ? INTENT_ALIASES[value.toLowerCase()] : undefined;
    report(
      findings,
      "SR-INTENT-002",
      jsonPath(at, index),
      `${describeValue(value)} is not an intent; custom intents cannot be added.`,
      alias === undefined
        ? "Use one of next, repeat, jump, handoff, closing, escalate, abort."
        : `Write "${alias}" instead: "${String(value)}" is an alias the gate maps to "${alias}" at run time, not an intent.`,
    );
  });
  return intents;
}

function readTransitions(
  raw: unknown,
  at: string,
  findings: Findings,
): Partial<Record<GateIntent, Transition>> {
  const transitions: Partial<Record<GateIntent, Transition>> = {};
  if (!isPlainObject(raw)) {
    reportNotObject(findings, raw, at);
    return transitions;
  }
  for (const [intent, value] of Object.entries(raw)) {
    const here = jsonPath(at, intent);
    if (!isGateIntent(intent)) {
      const alias = INTENT_ALIASES[intent.toLowerCase()];
      report(
        findings,
        "SR-TRANS-013",
        here,
        `transitions key "${intent}" is not an intent, so no output can ever take it.`,
        alias === undefined
          ? "Key transitions by next, repeat, jump, handoff, closing, escalate or abort."
          : `Key it by "${alias}" (the gate maps "${intent}" to "${alias}").`,
      );
      continue;
    }
    if (!isPlainObject(value)) {
      reportNotObject(findings, value, here);
      continue;
    }
    if (Object.hasOwn(value, "condition") || Object.hasOwn(value, "targets")) {
      const fields = readObject(conditionalTransitionSchema.entries, value, here, findings);
      if (fields?.condition !== undefined && fields.targets !== undefined) {
        transitions[intent] = {
          kind: "conditional",
          condition: fields.condition,
          targets: fields.targets,
        };
      }
      continue;
    }
    if (!Object.hasOwn(value, "target")) {
      report(
        findings,
        "SR-LOAD-005",
        here,
        `Transition ${here} has neither "target" nor "condition" + "targets".`,
        `Write { "target": "<step id>" }${intent === "closing" ? ' or { "target": null }' : ""}, or { "condition": "<handoff key>", "targets": { "<value>": "<step id>", "default": "<step id>" } }.`,
      );
      continue;
    }
    const fields = readFields(targetTransitionSchema.entries, value, here, findings);
    if (fields.target !== undefined)
      transitions[intent] = { kind: "target", target: fields.target };
  }
  return transitions;
}

// ---------------------------------------------------------------------------------------------
// Check dialect steps

function readCheckStep(
  key: string,
  raw: Record<string, unknown>,
  at: string,
  c1: string,
  findings: Findings,
): Step {
  const fields = readFields(checkStepSchema.entries, raw, at, findings, {
    skip: ["prompt", "iterations", "check", "handoff"],
  });
  checkStepKey(key, fields.id, "id", at, findings);
  const prompt = readPromptRef(raw.prompt, `${at}.prompt`, c1, findings) ?? {
    kind: "c3l",
    c1,
    c2: "",
    c3: "",
    edition: "default",
  };
  const iterations = readIterations(raw.iterations, `${at}.iterations`, findings);
  const check = readCheck(raw.check, `${at}.check`, c1, findings);
  const handoff = readCheckHandoff(raw.handoff, `${at}.handoff`, findings);
  // A step whose passing check completes the agent is where the flow closes; every other check
  // step produces work. A declared stepKind always wins.
  const kind = fields.stepKind ?? (check?.onPass.kind === "complete" ? "closure" : "work");
  return {
    id: key,
    ...(fields.name === undefined ? {} : { name: fields.name }),
    ...(fields.description === undefined ? {} : { description: fields.description }),
    kind,
    kindSource: fields.stepKind === undefined ? "inferred" : "declared",
    prompt,
    ...(fields.fallbackKey === undefined ? {} : { fallbackKey: fields.fallbackKey }),
    uvVariables: fields.uvVariables ?? [],
    usesStdin: fields.usesStdin ?? false,
    ...(fields.outputSchemaRef === undefined
      ? {}
      : {
          outputSchemaRef: {
            file: fields.outputSchemaRef.file,
            schema: fields.outputSchemaRef.schema,
          },
        }),
    transitions: {},
    ...(check === undefined ? {} : { check }),
    iterations,
    handoff,
    ...(fields.model === undefined ? {} : { model: fields.model }),
    permissions: permissionsOf(fields),
  };
}

function readPromptRef(
  raw: unknown,
  at: string,
  c1: string,
  findings: Findings,
): PromptRef | undefined {
  if (raw === undefined) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `Required field ${at} is missing.`,
      'Name the prompt by C3L ({ "c1": "steps", "c2": "phase", "c3": "analyze" }) or by path ({ "path": "steps/analyze.md" }).',
    );
    return undefined;
  }
  if (isPlainObject(raw) && Object.hasOwn(raw, "path")) {
    const fields = readObject(pathPromptRefSchema.entries, raw, at, findings);
    if (fields?.path === undefined) return undefined;
    const relative = toAgentRelativePath(fields.path);
    if (!relative.ok) {
      report(
        findings,
        "SR-LOAD-007",
        `${at}.path`,
        `Prompt path "${fields.path}" ${relative.reason === "absolute" ? "is absolute" : "leaves the prompts folder"}.`,
        "Write the path relative to the registry's prompts folder (basePath).",
      );
      return undefined;
    }
    return { kind: "path", path: fields.path };
  }
  const fields = readObject(c3lPromptRefSchema.entries, raw, at, findings);
  if (fields === undefined) return undefined;
  checkPromptSegments(fields, at, findings);
  return {
    kind: "c3l",
    c1: fields.c1 ?? c1,
    c2: fields.c2 ?? "",
    c3: fields.c3 ?? "",
    edition: fields.edition ?? "default",
    ...(fields.adaptation === undefined ? {} : { adaptation: fields.adaptation }),
  };
}

function readIterations(raw: unknown, at: string, findings: Findings): IterationBounds {
  if (raw === undefined) return { min: 1, max: 1 };
  const fields = readObject(iterationsSchema.entries, raw, at, findings) ?? {};
  const min = fields.min ?? 1;
  const max = fields.max ?? Math.max(1, min);
  if (min > max) {
    report(
      findings,
      "SR-VALID-007",
      at,
      `iterations.min (${min}) is greater than iterations.max (${max}).`,
      `Set "max" to at least ${min}, or lower "min".`,
    );
    return { min, max: min };
  }
  return { min, max };
}

function readCheck(
  raw: unknown,
  at: string,
  c1: string,
  findings: Findings,
): CheckDefinition | undefined {
  if (raw === undefined) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `Required field ${at} is missing: a check-dialect step moves on only through its check.`,
      'Add "check": { "onPass": { "next": "<step id>" } } (or { "complete": true } on the last step).',
    );
    return undefined;
  }
  const fields = readObject(checkSchema.entries, raw, at, findings, {
    skip: ["prompt", "onPass", "onFail"],
  });
  if (fields === undefined || !isPlainObject(raw)) return undefined;
  const prompt =
    raw.prompt === undefined ? undefined : readPromptRef(raw.prompt, `${at}.prompt`, c1, findings);
  const onPass = readOnPass(raw.onPass, `${at}.onPass`, findings);
  const onFail =
    raw.onFail === undefined ? undefined : readOnFail(raw.onFail, `${at}.onFail`, findings);
  return {
    ...(prompt === undefined ? {} : { prompt }),
    ...(fields.responseFormat === undefined ? {} : { responseFormat: fields.responseFormat }),
    onPass: onPass ?? { kind: "complete" },
    ...(onFail === undefined ? {} : { onFail }),
  };
}

function readOnPass(raw: unknown, at: string, findings: Findings): CheckOnPass | undefined {
  const hint =
    'Write "onPass": { "next": "<step id>" }, or { "complete": true } when passing ends the agent.';
  if (isPlainObject(raw) && Object.hasOwn(raw, "next")) {
    const fields = readObject(onPassNextSchema.entries, raw, at, findings);
    return fields?.next === undefined ? undefined : { kind: "next", target: fields.next };
  }
  if (isPlainObject(raw) && Object.hasOwn(raw, "complete")) {
    if (raw.complete === true) return { kind: "complete" };
    report(
      findings,
      "SR-LOAD-005",
      `${at}.complete`,
      `${at}.complete must be true, but is ${describeValue(raw.complete)}.`,
      hint,
    );
    return undefined;
  }
  report(
    findings,
    "SR-LOAD-005",
    at,
    raw === undefined
      ? `Required field ${at} is missing.`
      : `${at} has neither "next" nor "complete".`,
    hint,
  );
  return undefined;
}

function readOnFail(raw: unknown, at: string, findings: Findings): CheckOnFail | undefined {
  if (!isPlainObject(raw)) {
    reportNotObject(findings, raw, at);
    return undefined;
  }
  const hasRetry = Object.hasOwn(raw, "retry");
  const hasFallback = Object.hasOwn(raw, "fallback");
  if (hasRetry && hasFallback) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `${at} has both "retry" and "fallback"; a failed check can do only one.`,
      'Keep { "retry": true, "maxRetries": 2 } or { "fallback": "<step id>" }.',
    );
    return undefined;
  }
  if (hasFallback) {
    const fields = readObject(onFailFallbackSchema.entries, raw, at, findings);
    return fields?.fallback === undefined
      ? undefined
      : { kind: "fallback", target: fields.fallback };
  }
  if (hasRetry) {
    const fields = readObject(onFailRetrySchema.entries, raw, at, findings);
    // `retry: false` declares no recovery: a failed check then ends the run.
    if (fields?.retry !== true) return undefined;
    return { kind: "retry", maxRetries: fields.maxRetries ?? DEFAULT_CHECK_MAX_RETRIES };
  }
  report(
    findings,
    "SR-LOAD-005",
    at,
    `${at} has neither "retry" nor "fallback".`,
    'Write "onFail": { "retry": true, "maxRetries": 2 } or { "fallback": "<step id>" }, or drop onFail.',
  );
  return undefined;
}

function readCheckHandoff(raw: unknown, at: string, findings: Findings): HandoffField[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `${at} must be an array of { "key", "description" }, but is ${describeValue(raw)}.`,
      'Write "handoff": [{ "key": "plan", "description": "…" }].',
    );
    return [];
  }
  const handoff: HandoffField[] = [];
  raw.forEach((item, index) => {
    const fields = readObject(checkHandoffSchema.entries, item, jsonPath(at, index), findings);
    if (fields?.key === undefined) return;
    handoff.push({
      key: fields.key,
      path: fields.key,
      ...(fields.description === undefined ? {} : { description: fields.description }),
    });
  });
  return handoff;
}

// ---------------------------------------------------------------------------------------------
// Validation

function entriesOf(raw: unknown, at: string, findings: Findings): [string, unknown][] {
  if (raw === undefined) return [];
  if (!isPlainObject(raw)) {
    reportNotObject(findings, raw, at);
    return [];
  }
  return Object.entries(raw);
}

function readFailurePatterns(raw: unknown, findings: Findings): Record<string, FailurePattern> {
  const patterns: Record<string, FailurePattern> = {};
  for (const [id, value] of entriesOf(raw, "$.failurePatterns", findings)) {
    const fields = readObject(
      failurePatternSchema.entries,
      value,
      jsonPath("$.failurePatterns", id),
      findings,
    );
    if (fields === undefined) continue;
    setEntry(patterns, id, {
      id,
      description: fields.description ?? id,
      edition: fields.edition ?? "failed",
      ...(fields.adaptation === undefined ? {} : { adaptation: fields.adaptation }),
      params: fields.params ?? [],
      ...(fields.fallback === undefined ? {} : { fallback: fields.fallback }),
    });
  }
  return patterns;
}

function readValidators(raw: unknown, findings: Findings): Record<string, ValidatorDefinition> {
  const validators: Record<string, ValidatorDefinition> = {};
  for (const [id, value] of entriesOf(raw, "$.validators", findings)) {
    const at = jsonPath("$.validators", id);
    const fields = readObject(validatorSchema.entries, value, at, findings, {
      skip: ["extractParams"],
    });
    if (fields === undefined || !isPlainObject(value)) continue;
    const successWhen = fields.successWhen ?? "";
    const parsed = parseSuccessCondition(successWhen, {
      ...(findings.file === undefined ? {} : { file: findings.file }),
      path: `${at}.successWhen`,
    });
    if (!parsed.ok && fields.successWhen !== undefined) findings.problems.push(...parsed.issues);
    const extractParams = readExtractParams(value.extractParams, `${at}.extractParams`, findings);
    const timeoutMs =
      fields.timeoutMs ?? (fields.timeout === undefined ? undefined : durationToMs(fields.timeout));
    setEntry(validators, id, {
      id,
      type: "command",
      ...(fields.description === undefined ? {} : { description: fields.description }),
      command: fields.command ?? "",
      successWhen,
      success: parsed.ok ? parsed.value : { kind: "exitCode", code: 0 },
      failurePattern: fields.failurePattern ?? "",
      extractParams,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  }
  return validators;
}

function readExtractParams(raw: unknown, at: string, findings: Findings): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [param, extractor] of entriesOf(raw, at, findings)) {
    const here = jsonPath(at, param);
    if (typeof extractor !== "string") {
      report(
        findings,
        "SR-LOAD-005",
        here,
        `${here} must be an extractor name, but is ${describeValue(extractor)}.`,
        'Write e.g. "changedFiles": "parseChangedFiles".',
      );
      continue;
    }
    if (!isExtractorName(extractor)) {
      report(
        findings,
        "SR-VALID-005",
        here,
        `Unknown extractor "${extractor}" for parameter "${param}".`,
        "Use one of the extractors listed in EXTRACTOR_NAMES (parseChangedFiles, parseUntrackedFiles, parseTestOutput, parseTypeErrors, parseLintErrors, stdout, stderr, exitCode, …).",
      );
      continue;
    }
    setEntry(params, param, extractor);
  }
  return params;
}

function readValidationSteps(raw: unknown, findings: Findings): Record<string, ValidationStep> {
  const validationSteps: Record<string, ValidationStep> = {};
  for (const [id, value] of entriesOf(raw, "$.validationSteps", findings)) {
    const at = jsonPath("$.validationSteps", id);
    const fields = readObject(validationStepSchema.entries, value, at, findings, {
      skip: ["validationConditions", "postLLMConditions"],
    });
    if (fields === undefined || !isPlainObject(value)) continue;
    // `postLLMConditions` is the original runtime's later name for the same list.
    const conditionsKey =
      value.validationConditions === undefined && value.postLLMConditions !== undefined
        ? "postLLMConditions"
        : "validationConditions";
    const conditions = readConditions(value[conditionsKey], `${at}.${conditionsKey}`, findings);
    setEntry(validationSteps, id, {
      id,
      stepId: fields.stepId ?? id,
      ...(fields.name === undefined ? {} : { name: fields.name }),
      ...(fields.c2 === undefined ? {} : { c2: fields.c2 }),
      ...(fields.c3 === undefined ? {} : { c3: fields.c3 }),
      conditions,
      onFailure: {
        action: fields.onFailure?.action ?? "retry",
        ...(fields.onFailure?.maxAttempts === undefined
          ? {}
          : { maxAttempts: fields.onFailure.maxAttempts }),
      },
    });
  }
  return validationSteps;
}

function readConditions(raw: unknown, at: string, findings: Findings): ValidationCondition[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    report(
      findings,
      "SR-LOAD-005",
      at,
      `${at} must be an array of { "validator": "<name>" }, but is ${describeValue(raw)}.`,
      'Write e.g. [{ "validator": "git-clean" }].',
    );
    return [];
  }
  const conditions: ValidationCondition[] = [];
  raw.forEach((item, index) => {
    const fields = readObject(
      validationConditionSchema.entries,
      item,
      jsonPath(at, index),
      findings,
    );
    if (fields?.validator === undefined) return;
    conditions.push({
      validator: fields.validator,
      ...(fields.params === undefined ? {} : { params: fields.params }),
    });
  });
  return conditions;
}
