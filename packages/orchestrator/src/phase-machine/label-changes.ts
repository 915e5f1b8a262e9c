import { bareLabel, githubLabel, type Workflow, type WorkflowPhase } from "../workflow-model.ts";

/** One label change: what `gh issue edit` adds and removes, in one call. */
export interface LabelChange {
  readonly add: readonly string[];
  readonly remove: readonly string[];
}

/** The GitHub label a transition puts on an issue: the first label mapped to the phase. */
export function labelOfPhase(workflow: Workflow, phase: WorkflowPhase): string | null {
  const mapped = workflow.labelMapping.find(([, target]) => target === phase.id);
  return mapped === undefined ? null : githubLabel(workflow, mapped[0]);
}

/**
 * The labels that move an issue to `target`: every phase label it carries comes off, the target's
 * label goes on (unless it is there). Order labels stay while the issue is in flight (one order
 * slot per issue) and come off at a terminal phase, so a finished issue holds no slot. Both go in
 * one change, so the issue is never without a phase label between two calls.
 */
export function labelChanges(
  workflow: Workflow,
  current: readonly string[],
  target: WorkflowPhase,
): LabelChange {
  const targetLabel = labelOfPhase(workflow, target);
  const phaseLabels = new Set(workflow.labelMapping.map(([label]) => label.toLowerCase()));
  const orderLabels = new Set(
    (workflow.prioritizer?.labels ?? []).map((label) => label.toLowerCase()),
  );
  const remove = current.filter((label) => {
    if (targetLabel !== null && label.toLowerCase() === targetLabel.toLowerCase()) return false;
    const bare = bareLabel(workflow, label)?.toLowerCase();
    if (bare === undefined) return false;
    return phaseLabels.has(bare) || (target.type === "terminal" && orderLabels.has(bare));
  });
  const has = current.some((label) => label.toLowerCase() === targetLabel?.toLowerCase());
  return { add: targetLabel === null || has ? [] : [targetLabel], remove };
}

/** The labels after a change, as GitHub would hold them. */
export function applyLabelChange(current: readonly string[], change: LabelChange): string[] {
  const removing = new Set(change.remove.map((label) => label.toLowerCase()));
  const next = current.filter((label) => !removing.has(label.toLowerCase()));
  for (const label of change.add) {
    if (!next.some((have) => have.toLowerCase() === label.toLowerCase())) next.push(label);
  }
  return next;
}

export function isEmptyChange(change: LabelChange): boolean {
  return change.add.length === 0 && change.remove.length === 0;
}
