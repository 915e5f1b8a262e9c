import { jsonPath } from "@climpt/model";
import { readPhaseChecks } from "./checks/read-phase-checks.ts";
import { ORCHESTRATOR_CODES as C } from "./codes.ts";
import { readAgents, readPrioritizer } from "./read-agents.ts";
import { optionalString, stringMap, unknownFields } from "./read-fields.ts";
import { readHandoffs, readLanding, readPayloadSchema } from "./read-handoffs.ts";
import {
  DEFAULT_RULES,
  type LabelSpec,
  type PhaseType,
  type Workflow,
  type WorkflowPhase,
  type WorkflowRules,
} from "./workflow-model.ts";
import { describeType, didYouMean, isRecord, type ProblemList } from "./workflow-problems.ts";

const TOP_FIELDS = [
  "$schema",
  "version",
  "labelPrefix",
  "phases",
  "labelMapping",
  "labels",
  "agents",
  "rules",
  "handoff",
  "prioritizer",
  // The original's local issue cache; this orchestrator reads GitHub directly.
  "subjectStore",
  "issueStore",
  "handoffs",
  "payloadSchema",
  // This orchestrator's own: where a successful run's work goes (the original ignores it).
  "land",
];
const PHASE_FIELDS = ["type", "priority", "agent", "description", "checks"];
// rateLimit*: the original's polling of a usage API; the shared model-request limiter replaces it.
const RULE_FIELDS = [
  "maxCycles",
  "cycleDelayMs",
  "maxConsecutivePhases",
  "rateLimitThreshold",
  "rateLimitPollIntervalMs",
];
const PHASE_TYPES: readonly PhaseType[] = ["actionable", "terminal", "blocking"];

function readPhases(problems: ProblemList, raw: unknown): WorkflowPhase[] {
  if (!isRecord(raw)) {
    problems.error(
      C.schemaPhases,
      "$.phases",
      raw === undefined
        ? "The workflow has no phases."
        : `$.phases must be an object, not ${describeType(raw)}.`,
      'Add "phases": { "<id>": { "type": "actionable", "priority": 1, "agent": "<agent>" }, … }.',
    );
    return [];
  }
  const phases: WorkflowPhase[] = [];
  for (const [id, value] of Object.entries(raw)) {
    const path = jsonPath("$.phases", id);
    if (!isRecord(value)) {
      problems.error(
        C.schemaType,
        path,
        `Phase "${id}" must be an object, not ${describeType(value)}.`,
        'Write { "type": "actionable" | "terminal" | "blocking", … }.',
      );
      continue;
    }
    unknownFields(problems, value, PHASE_FIELDS, path);
    const type = value.type;
    if (typeof type !== "string" || !PHASE_TYPES.includes(type as PhaseType)) {
      problems.error(
        C.phaseType,
        jsonPath(path, "type"),
        `Phase "${id}" has type ${type === undefined ? "missing" : JSON.stringify(type)}; it must be one of actionable, terminal, blocking.${typeof type === "string" ? didYouMean(type, PHASE_TYPES) : ""}`,
        "actionable: an agent works on it; terminal: the workflow is done; blocking: a person must act.",
      );
      continue;
    }
    let priority: number | null = null;
    if (value.priority !== undefined) {
      if (typeof value.priority === "number" && Number.isFinite(value.priority))
        priority = value.priority;
      else
        problems.error(
          C.schemaType,
          jsonPath(path, "priority"),
          `Phase "${id}" priority must be a number, not ${describeType(value.priority)}.`,
          "Lower numbers win when an issue has labels of several actionable phases.",
        );
    }
    phases.push({
      id,
      type: type as PhaseType,
      priority,
      agent: optionalString(problems, value, "agent", path) ?? null,
      checks: readPhaseChecks(problems, value.checks, path),
    });
  }
  return phases;
}

function readLabelMapping(problems: ProblemList, raw: unknown): [string, string][] {
  if (!isRecord(raw)) {
    problems.error(
      C.schemaLabelMapping,
      "$.labelMapping",
      raw === undefined
        ? "The workflow has no labelMapping."
        : `$.labelMapping must be an object, not ${describeType(raw)}.`,
      'Add "labelMapping": { "<GitHub label>": "<phase id>", … }.',
    );
    return [];
  }
  const entries: [string, string][] = [];
  for (const [label, phase] of Object.entries(raw)) {
    if (typeof phase === "string") entries.push([label, phase]);
    else
      problems.error(
        C.schemaType,
        jsonPath("$.labelMapping", label),
        `Label "${label}" must map to a phase id (a string), not ${describeType(phase)}.`,
        "Write the id of a phase.",
      );
  }
  if (entries.length === 0 && Object.keys(raw).length === 0) {
    problems.error(
      C.labelMappingEmpty,
      "$.labelMapping",
      "labelMapping is empty, so no issue can be in any phase.",
      "Map at least one GitHub label to a phase.",
    );
  }
  return entries;
}

function readLabels(problems: ProblemList, raw: unknown): Record<string, LabelSpec> | null {
  if (raw === undefined) return null;
  if (!isRecord(raw)) {
    problems.error(
      C.schemaType,
      "$.labels",
      `$.labels must be an object, not ${describeType(raw)}.`,
      'Write "labels": { "<label>": { "color": "a2eeef", "description": "…" } }.',
    );
    return null;
  }
  const labels: Record<string, LabelSpec> = {};
  for (const [name, spec] of Object.entries(raw)) {
    const path = jsonPath("$.labels", name);
    if (!isRecord(spec)) {
      problems.error(
        C.schemaType,
        path,
        `Label spec "${name}" must be an object, not ${describeType(spec)}.`,
        'Write { "color": "a2eeef", "description": "…" }.',
      );
      continue;
    }
    unknownFields(problems, spec, ["color", "description"], path);
    const color = optionalString(problems, spec, "color", path);
    const description = optionalString(problems, spec, "description", path) ?? "";
    if (color === undefined || !/^[0-9a-fA-F]{6}$/.test(color)) {
      problems.error(
        C.labelSpecColor,
        jsonPath(path, "color"),
        `Label "${name}" colour ${color === undefined ? "is missing" : `"${color}" is not six hex digits`}.`,
        'Write six hex digits without "#", e.g. "a2eeef".',
      );
      continue;
    }
    labels[name] = { color: color.toLowerCase(), description };
  }
  return labels;
}

function readRules(problems: ProblemList, raw: unknown): WorkflowRules {
  if (raw === undefined) return DEFAULT_RULES;
  if (!isRecord(raw)) {
    problems.error(
      C.schemaType,
      "$.rules",
      `$.rules must be an object, not ${describeType(raw)}.`,
      'Write "rules": { "maxCycles": 5, "cycleDelayMs": 0 }.',
    );
    return DEFAULT_RULES;
  }
  unknownFields(problems, raw, RULE_FIELDS, "$.rules");
  const rules = { ...DEFAULT_RULES };
  const { maxCycles, cycleDelayMs, maxConsecutivePhases } = raw;
  if (maxCycles !== undefined) {
    if (Number.isInteger(maxCycles) && (maxCycles as number) >= 1)
      rules.maxCycles = maxCycles as number;
    else
      problems.error(
        C.ruleMaxCycles,
        "$.rules.maxCycles",
        `rules.maxCycles must be an integer of at least 1, got ${JSON.stringify(maxCycles)}.`,
        "It bounds how many phase transitions one issue makes before it is blocked.",
      );
  }
  if (cycleDelayMs !== undefined) {
    if (typeof cycleDelayMs === "number" && Number.isFinite(cycleDelayMs) && cycleDelayMs >= 0)
      rules.cycleDelayMs = cycleDelayMs;
    else
      problems.error(
        C.ruleCycleDelay,
        "$.rules.cycleDelayMs",
        `rules.cycleDelayMs must be a number of milliseconds, at least 0, got ${JSON.stringify(cycleDelayMs)}.`,
        "Use 0 for no pause between cycles.",
      );
  }
  if (maxConsecutivePhases !== undefined) {
    if (Number.isInteger(maxConsecutivePhases) && (maxConsecutivePhases as number) >= 0)
      rules.maxConsecutivePhases = maxConsecutivePhases as number;
    else
      problems.error(
        C.ruleMaxConsecutive,
        "$.rules.maxConsecutivePhases",
        `rules.maxConsecutivePhases must be an integer of at least 0, got ${JSON.stringify(maxConsecutivePhases)}.`,
        "0 turns the rule off.",
      );
  }
  return rules;
}

/**
 * The workflow's shape, field by field: every problem at once, with the JSON path, and a
 * workflow built from whatever could be read so the reference checks can still run.
 */
export function readWorkflow(problems: ProblemList, raw: unknown): Workflow {
  const root = isRecord(raw) ? raw : {};
  if (!isRecord(raw)) {
    problems.error(
      C.schemaType,
      "$",
      `The workflow must be a JSON object, not ${describeType(raw)}.`,
      "Start from the example in the orchestrator README.",
    );
  }
  unknownFields(problems, root, TOP_FIELDS, "$");
  const version = root.version;
  if (typeof version !== "string") {
    problems.error(
      C.schemaVersion,
      "$.version",
      "The workflow needs a version string.",
      'Add "version": "1.0.0".',
    );
  }
  const prefix = optionalString(problems, root, "labelPrefix", "$");
  const handoff = isRecord(root.handoff) ? root.handoff : {};
  if (root.handoff !== undefined && !isRecord(root.handoff)) {
    problems.error(
      C.schemaType,
      "$.handoff",
      `$.handoff must be an object, not ${describeType(root.handoff)}.`,
      'Write "handoff": { "commentTemplates": { … } }.',
    );
  }
  return {
    file: problems.file,
    version: typeof version === "string" ? version : "",
    labelPrefix: prefix === undefined || prefix === "" ? null : prefix,
    phases: readPhases(problems, root.phases),
    labelMapping: readLabelMapping(problems, root.labelMapping),
    labels: readLabels(problems, root.labels),
    agents: readAgents(problems, root.agents),
    rules: readRules(problems, root.rules),
    commentTemplates: stringMap(problems, handoff, "commentTemplates", "$.handoff") ?? {},
    prioritizer: readPrioritizer(problems, root.prioritizer),
    handoffs: readHandoffs(problems, root.handoffs),
    payloadSchema: readPayloadSchema(problems, root.payloadSchema),
    handoffSchemas: {},
    landing: readLanding(problems, root.land),
    id: prefix === undefined || prefix === "" ? "default" : prefix,
  };
}
