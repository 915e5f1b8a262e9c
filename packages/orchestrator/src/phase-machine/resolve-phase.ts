import {
  agentById,
  bareLabel,
  phaseById,
  type Workflow,
  type WorkflowAgent,
  type WorkflowPhase,
} from "../workflow-model.ts";

/** Where an issue's labels put it. */
export type PhaseResolution =
  | { readonly kind: "terminal" | "blocking"; readonly phase: WorkflowPhase }
  | { readonly kind: "actionable"; readonly phase: WorkflowPhase; readonly agent: WorkflowAgent }
  | { readonly kind: "none" };

/** The phases the labels map to, in label order (unknown labels are not the workflow's). */
export function phasesOfLabels(workflow: Workflow, labels: readonly string[]): WorkflowPhase[] {
  const phases: WorkflowPhase[] = [];
  for (const label of labels) {
    const bare = bareLabel(workflow, label);
    if (bare === null) continue;
    const mapped = workflow.labelMapping.find(
      ([candidate]) => candidate.toLowerCase() === bare.toLowerCase(),
    );
    const phase = mapped === undefined ? undefined : phaseById(workflow, mapped[1]);
    if (phase !== undefined && !phases.includes(phase)) phases.push(phase);
  }
  return phases;
}

/**
 * The phase an issue is in, from its labels alone. A terminal or blocking label wins over
 * actionable ones (the first such label, in label order): a finished or stopped issue is not
 * worked on even if an old phase label is left on it. Among actionable phases the lowest
 * `priority` wins, then the phase id, so the choice never depends on label order.
 */
export function resolvePhase(workflow: Workflow, labels: readonly string[]): PhaseResolution {
  const phases = phasesOfLabels(workflow, labels);
  const stop = phases.find((phase) => phase.type !== "actionable");
  if (stop !== undefined) return { kind: stop.type as "terminal" | "blocking", phase: stop };
  const actionable = phases
    .filter((phase) => phase.type === "actionable")
    .sort(
      (a, b) =>
        (a.priority ?? Number.POSITIVE_INFINITY) - (b.priority ?? Number.POSITIVE_INFINITY) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  for (const phase of actionable) {
    const agent = phase.agent === null ? undefined : agentById(workflow, phase.agent);
    if (agent !== undefined) return { kind: "actionable", phase, agent };
  }
  return { kind: "none" };
}
