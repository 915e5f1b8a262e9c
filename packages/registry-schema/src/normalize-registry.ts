/**
 * steps_registry.json (either dialect) → `Registry`. Pure: no file access. Every problem of the
 * file is reported at once: each field is read on its own (a bad field is reported and
 * defaulted), then the whole registry is checked (registry-checks.ts).
 */

import {
  DEFAULT_PATH_TEMPLATE,
  DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
  type FailurePattern,
  fail,
  isExtractorName,
  isPlainObject,
  jsonPath,
  ok,
  ownRecord,
  type Problem,
  parseSuccessCondition,
  type Registry,
  type Result,
  recordEntries,
  type Step,
  setEntry,
  stepPath,
  type ValidationCondition,
  type ValidationStep,
  type ValidatorDefinition,
} from "@climpt/model";
import { toAgentRelativePath } from "./agent-relative-path.ts";
import { readDeclaredEnv } from "./declared-env.ts";
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
import { readCheckStep } from "./read-check-step.ts";
import { readGateStep } from "./read-gate-step.ts";
import { checkRegistry } from "./registry-checks.ts";
import { detectRegistryDialect } from "./registry-dialect.ts";
import {
  failurePatternSchema,
  registryTopLevelEntries,
  validationConditionSchema,
  validationStepSchema,
  validatorSchema,
} from "./registry-file-schema.ts";
import { checkPromptSegments } from "./step-fields.ts";

export { DEFAULT_CHECK_MAX_RETRIES } from "./read-check-step.ts";
export { handoffFromField } from "./read-gate-step.ts";

export interface NormalizeRegistryOptions {
  /** The file the registry came from; every problem names it. */
  readonly file?: string;
  /** The agent folder's name: a declared `agentId` must equal it. */
  readonly folderName?: string;
}

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

  // Each step object as written, for the checks that ask which keys it has (a set of its keys
  // per step would be thousands of small sets for one question each).
  const declared = new Map<string, Readonly<Record<string, unknown>>>();
  const steps = ownRecord<Step>();
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
    for (const [key, rawStep] of recordEntries(root.steps)) {
      const at = stepPath(key);
      if (!isPlainObject(rawStep)) {
        reportNotObject(findings, rawStep, at);
        // Kept so references to it still resolve; left out of `declared`, so not checked.
        setEntry(steps, key, placeholderStep(key, c1));
        continue;
      }
      declared.set(key, rawStep);
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
    entryStepMapping: readEntryStepMapping(root.entryStepMapping, top.entryStepMapping),
    failurePatterns: readFailurePatterns(root.failurePatterns, findings),
    validators: readValidators(root.validators, findings),
    validationSteps: readValidationSteps(root.validationSteps, findings),
    ...(top.onBudget === undefined ? {} : { onBudget: top.onBudget }),
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

/**
 * `entryStepMapping` (verdict type → step id) as a record with no prototype. Read from the file
 * as written: the schema's record drops keys such as `constructor` silently, and a step id named
 * `toString` must be looked up as a step, never found on Object.prototype.
 */
function readEntryStepMapping(
  raw: unknown,
  checked: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const mapping = ownRecord<string>();
  if (checked === undefined || !isPlainObject(raw)) return mapping;
  for (const [type, stepId] of recordEntries(raw)) {
    if (typeof stepId === "string") setEntry(mapping, type, stepId);
  }
  return mapping;
}

function readFailurePatterns(raw: unknown, findings: Findings): Record<string, FailurePattern> {
  const patterns = ownRecord<FailurePattern>();
  for (const [id, value] of entriesOf(raw, "$.failurePatterns", findings)) {
    const fields = readObject(
      failurePatternSchema.entries,
      value,
      jsonPath("$.failurePatterns", id),
      findings,
    );
    if (fields === undefined) continue;
    // The retry prompt's file name is built from them: refused here, at validate, not at the
    // first failed validation after paid model calls.
    checkPromptSegments(fields, jsonPath("$.failurePatterns", id), findings);
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

/** What a validator without `successWhen` passes on: its command's exit code 0. */
const DEFAULT_SUCCESS_WHEN = "exitCode:0";

function readValidators(raw: unknown, findings: Findings): Record<string, ValidatorDefinition> {
  const validators = ownRecord<ValidatorDefinition>();
  for (const [id, value] of entriesOf(raw, "$.validators", findings)) {
    const at = jsonPath("$.validators", id);
    const fields = readObject(validatorSchema.entries, value, at, findings, {
      skip: ["extractParams", "env"],
      codes: { baseline: "SR-VALID-012" },
    });
    if (fields === undefined || !isPlainObject(value)) continue;
    // A validator that is just a command: exit 0 passes (docs/design.md#the-completion-chain).
    const successWhen = fields.successWhen ?? DEFAULT_SUCCESS_WHEN;
    const parsed = parseSuccessCondition(successWhen, {
      ...(findings.file === undefined ? {} : { file: findings.file }),
      path: `${at}.successWhen`,
    });
    if (!parsed.ok) findings.problems.push(...parsed.issues);
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
      ...(fields.baseline === undefined ? {} : { baseline: fields.baseline }),
      ...readDeclaredEnv(value.env, `${at}.env`, `Validator "${id}"`, findings),
    });
  }
  return validators;
}

function readExtractParams(raw: unknown, at: string, findings: Findings): Record<string, string> {
  const params = ownRecord<string>();
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
  const validationSteps = ownRecord<ValidationStep>();
  for (const [id, value] of entriesOf(raw, "$.validationSteps", findings)) {
    const at = jsonPath("$.validationSteps", id);
    const fields = readObject(validationStepSchema.entries, value, at, findings, {
      skip: ["validationConditions", "postLLMConditions"],
    });
    if (fields === undefined || !isPlainObject(value)) continue;
    checkPromptSegments(fields, at, findings);
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
