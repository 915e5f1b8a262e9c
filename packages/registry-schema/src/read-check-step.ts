/**
 * One check-dialect step (`s_<hash>` id, a prompt by C3L or path, `iterations`, a `check` whose
 * `onPass` / `onFail` say where to go) → `Step`. Every bad field is reported and defaulted.
 */
import {
  type CheckDefinition,
  type CheckOnFail,
  type CheckOnPass,
  type HandoffField,
  type IterationBounds,
  isPlainObject,
  jsonPath,
  type PromptRef,
  type Step,
} from "@climpt/model";
import { toAgentRelativePath } from "./agent-relative-path.ts";
import {
  describeValue,
  type Findings,
  readFields,
  readObject,
  report,
  reportNotObject,
} from "./field-reader.ts";
import {
  c3lPromptRefSchema,
  checkHandoffSchema,
  checkSchema,
  checkStepSchema,
  iterationsSchema,
  onFailFallbackSchema,
  onFailRetrySchema,
  onPassNextSchema,
  pathPromptRefSchema,
} from "./registry-file-schema.ts";
import { checkPromptSegments, checkStepKey, limitsOf, permissionsOf } from "./step-fields.ts";

/** Default `maxRetries` of `onFail: {retry: true}` when the definition gives none. */
export const DEFAULT_CHECK_MAX_RETRIES = 3;

export function readCheckStep(
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
    ...limitsOf(fields),
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
    return { min, max: min, declared: true };
  }
  return { min, max, declared: true };
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
