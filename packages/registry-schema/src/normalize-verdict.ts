import {
  canonicalVerdictType,
  DEFAULT_VERDICT_MAX_CHECKS,
  DEFAULT_VERDICT_MAX_ITERATIONS,
  isPlainObject,
  type JsonValue,
  jsonPath,
  setEntry,
  VERDICT_TYPES,
  type VerdictSpec,
} from "@climpt/model";
import { describeValue, type Findings, report, reportNotObject } from "./field-reader.ts";

/** A verdict as agent.json wrote it (either shape), with the JSON paths its problems name. */
export interface WrittenVerdict {
  readonly type: string | undefined;
  readonly config: Readonly<Record<string, JsonValue>> | undefined;
  readonly typePath: string;
  readonly configPath: string;
}

const COMPOSITE_OPERATORS = ["and", "or", "first"] as const;
const MAX_VERDICT_DEPTH = 8;

/** Settings a verdict type cannot work without, and what each must be. */
const REQUIRED_VERDICT_SETTINGS: Readonly<
  Partial<Record<string, { key: string; kind: "positive integer" | "non-empty string" }>>
> = {
  "meta:custom": { key: "handlerPath", kind: "non-empty string" },
};

/** Budgets the original runtime's handlers assumed when the config gave none. */
const VERDICT_BUDGET_DEFAULTS: Readonly<Partial<Record<string, { key: string; value: number }>>> = {
  "count:iteration": { key: "maxIterations", value: DEFAULT_VERDICT_MAX_ITERATIONS },
  "count:check": { key: "maxChecks", value: DEFAULT_VERDICT_MAX_CHECKS },
};

function isPositiveInteger(value: JsonValue | undefined): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 1;
}

function isNonEmptyString(value: JsonValue | undefined): value is string {
  return typeof value === "string" && value !== "";
}

/** The verdict type made canonical, its config checked and given its defaults (composites recursively). */
export function normalizeVerdict(
  written: WrittenVerdict,
  findings: Findings,
  depth: number,
): VerdictSpec {
  const declaredType = written.type ?? "detect:graph";
  let type = canonicalVerdictType(declaredType);
  if (type === undefined) {
    report(
      findings,
      "AC-VERDICT-001",
      written.typePath,
      `Unknown verdict type "${declaredType}".`,
      `Use one of ${VERDICT_TYPES.join(", ")} (or the camelCase names: stepMachine, externalState, iterationBudget, keywordSignal, structuredSignal, checkBudget, composite, custom).`,
    );
    type = "detect:graph";
  }
  const config: Record<string, JsonValue> = { ...(written.config ?? {}) };
  const at = (key: string) => jsonPath(written.configPath, key);
  const budget = VERDICT_BUDGET_DEFAULTS[type];
  if (budget !== undefined && config[budget.key] === undefined) {
    setEntry(config, budget.key, budget.value);
  }
  for (const key of ["maxIterations", "maxChecks"]) {
    const value = config[key];
    if (value === undefined || isPositiveInteger(value)) continue;
    report(
      findings,
      "AC-VERDICT-003",
      at(key),
      `${key} of verdict type "${declaredType}" must be a positive integer, but is ${describeValue(value)}.`,
      key === "maxIterations"
        ? `Set ${at(key)} to a whole number of at least 1: it is the run's iteration cap (and the budget of count:iteration).`
        : `Set ${at(key)} to a whole number of at least 1.`,
    );
  }
  if (type === "detect:keyword") normalizeKeyword(config, declaredType, at, findings);
  const required = REQUIRED_VERDICT_SETTINGS[type];
  if (required !== undefined) {
    const setting = config[required.key];
    const good =
      required.kind === "positive integer" ? isPositiveInteger(setting) : isNonEmptyString(setting);
    if (!good) {
      report(
        findings,
        "AC-VERDICT-003",
        at(required.key),
        setting === undefined
          ? `Verdict type "${declaredType}" needs ${required.key} in its config.`
          : `${required.key} of verdict type "${declaredType}" must be a ${required.kind}, but is ${describeValue(setting)}.`,
        `Set ${at(required.key)} to a ${required.kind}.`,
      );
    }
  }
  const spec: VerdictSpec = { type, declaredType, config };
  if (type !== "meta:composite") return spec;
  return { ...spec, conditions: normalizeConditions(written, config, findings, depth) };
}

/**
 * detect:keyword's keyword: `completionKeyword`, or the original runtime's name for it,
 * `verdictKeyword` (copied to `completionKeyword`, which is what the verdict reads).
 */
function normalizeKeyword(
  config: Record<string, JsonValue>,
  declaredType: string,
  at: (key: string) => string,
  findings: Findings,
): void {
  const ours = config.completionKeyword;
  const theirs = config.verdictKeyword;
  if (ours !== undefined && theirs !== undefined && ours !== theirs) {
    report(
      findings,
      "AC-VERDICT-003",
      at("verdictKeyword"),
      `Verdict type "${declaredType}" names two keywords: completionKeyword ${describeValue(ours)} and verdictKeyword ${describeValue(theirs)}.`,
      "Keep one of them (verdictKeyword is the original runtime's name for completionKeyword).",
    );
    return;
  }
  const keyword = ours ?? theirs;
  const key = ours === undefined && theirs !== undefined ? "verdictKeyword" : "completionKeyword";
  if (isNonEmptyString(keyword)) {
    setEntry(config, "completionKeyword", keyword);
    return;
  }
  report(
    findings,
    "AC-VERDICT-003",
    at(key),
    keyword === undefined
      ? `Verdict type "${declaredType}" needs completionKeyword (or verdictKeyword) in its config.`
      : `${key} of verdict type "${declaredType}" must be a non-empty string, but is ${describeValue(keyword)}.`,
    `Set ${at("completionKeyword")} to the word the model writes when it is done, e.g. "TASK_COMPLETE".`,
  );
}

function normalizeConditions(
  written: WrittenVerdict,
  config: Readonly<Record<string, JsonValue>>,
  findings: Findings,
  depth: number,
): VerdictSpec[] {
  const operator = config.operator;
  if (
    operator !== undefined &&
    !(typeof operator === "string" && (COMPOSITE_OPERATORS as readonly string[]).includes(operator))
  ) {
    report(
      findings,
      "AC-VERDICT-002",
      `${written.configPath}.operator`,
      `Composite operator ${describeValue(operator)} is not one of and, or, first.`,
      'Set "operator" to "and" (all children done), "or" (any child done) or "first" (the first child decides).',
    );
  }
  const conditions = config.conditions;
  const conditionsPath = `${written.configPath}.conditions`;
  if (!Array.isArray(conditions) || conditions.length === 0) {
    report(
      findings,
      "AC-VERDICT-002",
      conditionsPath,
      "A composite verdict needs a non-empty `conditions` array of child verdicts.",
      `Add "conditions": [{ "type": "count:iteration", "config": { "maxIterations": 10 } }, …] to ${written.configPath}.`,
    );
    return [];
  }
  if (depth >= MAX_VERDICT_DEPTH) {
    report(
      findings,
      "AC-VERDICT-002",
      conditionsPath,
      `Composite verdicts are nested more than ${MAX_VERDICT_DEPTH} levels deep.`,
      "Flatten the composite: and/or of and/or can be written as one level.",
    );
    return [];
  }
  const children: VerdictSpec[] = [];
  conditions.forEach((child, index) => {
    const at = jsonPath(conditionsPath, index);
    if (!isPlainObject(child)) {
      reportNotObject(findings, child, at);
      return;
    }
    const childType = child.type;
    const childConfig = child.config;
    if (typeof childType !== "string") {
      report(
        findings,
        "AC-VERDICT-001",
        `${at}.type`,
        `Composite child ${index} has no verdict type string.`,
        `Set ${at}.type to a verdict type such as "count:iteration".`,
      );
      return;
    }
    if (childConfig !== undefined && !isPlainObject(childConfig)) {
      reportNotObject(findings, childConfig, `${at}.config`);
    }
    children.push(
      normalizeVerdict(
        {
          type: childType,
          config: isPlainObject(childConfig)
            ? (childConfig as Record<string, JsonValue>)
            : undefined,
          typePath: `${at}.type`,
          configPath: `${at}.config`,
        },
        findings,
        depth + 1,
      ),
    );
  });
  return children;
}
