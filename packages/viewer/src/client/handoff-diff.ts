import type { StepView, ViewJson } from "../view-model.ts";

export type HandoffState = Readonly<Record<string, Readonly<Record<string, ViewJson>>>>;

export interface HandoffChange {
  /** `<stepId>.<key>`, the way the next prompts read it (`uv-<stepId>_<key>`). */
  readonly path: string;
  readonly kind: "added" | "changed" | "removed" | "same";
  readonly before: ViewJson | undefined;
  readonly after: ViewJson | undefined;
}

/**
 * The run's handoff before step execution `index` ran: each step's latest handoff, in the order
 * the runner folds them (an execution that hands nothing over keeps the earlier one).
 */
export function handoffBefore(steps: readonly StepView[], index: number): HandoffState {
  // No prototype: step ids are names an author chose, `__proto__` and `toString` among them.
  const state: Record<string, Readonly<Record<string, ViewJson>>> = Object.create(null);
  for (let position = 0; position < index && position < steps.length; position++) {
    const step = steps[position] as StepView;
    if (step.handoff !== null && Object.keys(step.handoff).length > 0)
      state[step.stepId] = step.handoff;
  }
  return state;
}

/** The handoff after the execution, and what changed, value by value. */
export function handoffDiff(steps: readonly StepView[], index: number): HandoffChange[] {
  const before = handoffBefore(steps, index);
  const step = steps[index];
  const after: Record<string, Readonly<Record<string, ViewJson>>> = Object.assign(
    Object.create(null),
    before,
  );
  if (
    step?.handoff !== null &&
    step?.handoff !== undefined &&
    Object.keys(step.handoff).length > 0
  ) {
    after[step.stepId] = step.handoff;
  }
  const changes: HandoffChange[] = [];
  const stepIds = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  for (const stepId of stepIds) {
    // Own entries only: a step may be named `toString`.
    const old = Object.hasOwn(before, stepId) ? (before[stepId] ?? {}) : {};
    const next = Object.hasOwn(after, stepId) ? (after[stepId] ?? {}) : {};
    for (const key of [...new Set([...Object.keys(old), ...Object.keys(next)])]) {
      const had = Object.hasOwn(old, key);
      const has = Object.hasOwn(next, key);
      const oldValue = old[key];
      const newValue = next[key];
      const kind = !had
        ? "added"
        : !has
          ? "removed"
          : JSON.stringify(oldValue) === JSON.stringify(newValue)
            ? "same"
            : "changed";
      changes.push({ path: `${stepId}.${key}`, kind, before: oldValue, after: newValue });
    }
  }
  return changes;
}
