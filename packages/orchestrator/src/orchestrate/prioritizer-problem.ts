import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import { agentById, type Workflow } from "../workflow-model.ts";

/**
 * Why `--prioritize` cannot run this workflow's prioritizer, or null when it can. The loader
 * only warns about the prioritizer (the original runtime loads a workflow whose prioritizer names
 * an agent it does not declare, and uses the section only for `--prioritize`); a batch that asks
 * for it refuses to start instead.
 */
export function prioritizerProblem(workflow: Workflow): OrchestratorError | null {
  const prioritizer = workflow.prioritizer;
  if (prioritizer === null) {
    return {
      code: C.batchNoPrioritizer,
      message: "--prioritize was given, but the workflow has no prioritizer.",
      hint: 'Add "prioritizer": { "agent": "<agent>", "labels": ["order:1", …] } to the workflow, or drop --prioritize.',
    };
  }
  if (prioritizer.agent === "" || agentById(workflow, prioritizer.agent) === undefined) {
    return {
      code: C.refUnknownPrioritizerAgent,
      message: `--prioritize was given, but the prioritizer's agent "${prioritizer.agent}" is not declared under agents.`,
      hint: `Declare "${prioritizer.agent}" under agents (any role), or drop --prioritize.`,
    };
  }
  if (prioritizer.labels.length === 0) {
    return {
      code: C.prioritizerLabels,
      message: "--prioritize was given, but prioritizer.labels names no order label.",
      hint: 'Write "labels": ["order:1", "order:2", …].',
    };
  }
  if (prioritizer.defaultLabel !== null && !prioritizer.labels.includes(prioritizer.defaultLabel)) {
    return {
      code: C.prioritizerDefaultLabel,
      message: `--prioritize was given, but prioritizer.defaultLabel "${prioritizer.defaultLabel}" is not one of prioritizer.labels.`,
      hint: "Use one of the order labels.",
    };
  }
  return null;
}
