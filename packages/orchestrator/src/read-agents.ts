import { jsonPath } from "@climpt/model";
import { ORCHESTRATOR_CODES as C } from "./codes.ts";
import { optionalString, stringMap, unknownFields } from "./read-fields.ts";
import type { PrioritizerConfig, WorkflowAgent } from "./workflow-model.ts";
import { describeType, didYouMean, isRecord, type ProblemList } from "./workflow-problems.ts";

const AGENT_COMMON_FIELDS = [
  "role",
  "directory",
  "fallbackPhase",
  "closeOnComplete",
  "closeCondition",
  "description",
];
const TRANSFORMER_FIELDS = [...AGENT_COMMON_FIELDS, "outputPhase", "fallbackPhases"];
const VALIDATOR_FIELDS = [...AGENT_COMMON_FIELDS, "outputPhases"];

/** `agents`: each one's role and the fields of that role. */
export function readAgents(problems: ProblemList, raw: unknown): WorkflowAgent[] {
  if (!isRecord(raw)) {
    problems.error(
      C.schemaAgents,
      "$.agents",
      raw === undefined
        ? "The workflow has no agents."
        : `$.agents must be an object, not ${describeType(raw)}.`,
      'Add "agents": { "<id>": { "role": "transformer", "outputPhase": "<phase>", "fallbackPhase": "<phase>" } }.',
    );
    return [];
  }
  const agents: WorkflowAgent[] = [];
  for (const [id, value] of Object.entries(raw)) {
    const path = jsonPath("$.agents", id);
    if (!isRecord(value)) {
      problems.error(
        C.schemaType,
        path,
        `Agent "${id}" must be an object, not ${describeType(value)}.`,
        'Write { "role": "transformer" | "validator", … }.',
      );
      continue;
    }
    const role = value.role;
    if (role !== "transformer" && role !== "validator") {
      problems.error(
        C.schemaType,
        jsonPath(path, "role"),
        `Agent "${id}" role is ${role === undefined ? "missing" : JSON.stringify(role)}; it must be "transformer" or "validator".`,
        "transformer: one next phase on success (outputPhase); validator: the run's verdict picks the phase (outputPhases).",
      );
      continue;
    }
    unknownFields(
      problems,
      value,
      role === "transformer" ? TRANSFORMER_FIELDS : VALIDATOR_FIELDS,
      path,
    );
    let closeOnComplete = false;
    if (value.closeOnComplete !== undefined) {
      if (typeof value.closeOnComplete === "boolean") closeOnComplete = value.closeOnComplete;
      else
        problems.error(
          C.schemaType,
          jsonPath(path, "closeOnComplete"),
          `Agent "${id}" closeOnComplete must be true or false.`,
          "Write true or false.",
        );
    }
    const base = {
      id,
      directory: optionalString(problems, value, "directory", path) ?? id,
      fallbackPhase: optionalString(problems, value, "fallbackPhase", path) ?? null,
      closeOnComplete,
      closeCondition: optionalString(problems, value, "closeCondition", path) ?? null,
    };
    if (role === "transformer") {
      agents.push({
        ...base,
        role,
        outputPhase: optionalString(problems, value, "outputPhase", path) ?? "",
        fallbackPhases: stringMap(problems, value, "fallbackPhases", path) ?? {},
      });
    } else {
      agents.push({
        ...base,
        role,
        outputPhases: stringMap(problems, value, "outputPhases", path) ?? {},
      });
    }
  }
  return agents;
}

/** `prioritizer`: the agent that orders a batch and its order labels. */
export function readPrioritizer(problems: ProblemList, raw: unknown): PrioritizerConfig | null {
  if (raw === undefined) return null;
  if (!isRecord(raw)) {
    problems.error(
      C.schemaType,
      "$.prioritizer",
      `$.prioritizer must be an object, not ${describeType(raw)}.`,
      'Write "prioritizer": { "agent": "<agent>", "labels": ["order:1", …] }.',
    );
    return null;
  }
  unknownFields(problems, raw, ["agent", "labels", "defaultLabel"], "$.prioritizer");
  const agent = optionalString(problems, raw, "agent", "$.prioritizer");
  if (agent === undefined) {
    problems.warning(
      C.refUnknownPrioritizerAgent,
      "$.prioritizer.agent",
      "The prioritizer names no agent.",
      "Name the agent that orders a batch.",
    );
  }
  const labels =
    Array.isArray(raw.labels) && raw.labels.every((label) => typeof label === "string")
      ? (raw.labels as string[])
      : [];
  // The prioritizer's own problems are warnings: only --prioritize uses it (prioritizerProblem).
  if (labels.length === 0) {
    problems.warning(
      C.prioritizerLabels,
      "$.prioritizer.labels",
      "prioritizer.labels must be a non-empty list of label names, first = runs first.",
      'Write "labels": ["order:1", "order:2", …].',
    );
  }
  const defaultLabel = optionalString(problems, raw, "defaultLabel", "$.prioritizer") ?? null;
  if (defaultLabel !== null && labels.length > 0 && !labels.includes(defaultLabel)) {
    problems.warning(
      C.prioritizerDefaultLabel,
      "$.prioritizer.defaultLabel",
      `prioritizer.defaultLabel "${defaultLabel}" is not one of prioritizer.labels.${didYouMean(defaultLabel, labels)}`,
      "Use one of the order labels.",
    );
  }
  return { agent: agent ?? "", labels, defaultLabel };
}
