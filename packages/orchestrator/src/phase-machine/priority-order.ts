import { githubLabel, type PrioritizerConfig, type Workflow } from "../workflow-model.ts";

export interface OrderableIssue {
  readonly number: number;
  readonly labels: readonly string[];
}

/** The position of the issue's order label in `prioritizer.labels`; the default label's, or last. */
export function orderRank(workflow: Workflow, labels: readonly string[]): number {
  const prioritizer = workflow.prioritizer;
  if (prioritizer === null) return 0;
  const wanted = prioritizer.labels.map((label) => githubLabel(workflow, label).toLowerCase());
  const have = labels.map((label) => label.toLowerCase());
  let best = Number.POSITIVE_INFINITY;
  for (const label of have) {
    const index = wanted.indexOf(label);
    if (index !== -1 && index < best) best = index;
  }
  if (best !== Number.POSITIVE_INFINITY) return best;
  return prioritizer.defaultLabel === null
    ? prioritizer.labels.length
    : prioritizer.labels.indexOf(prioritizer.defaultLabel);
}

/**
 * A batch in the prioritizer's order (pure): by order label (`order:1` before `order:2`, as
 * `prioritizer.labels` lists them), issues without one after the rest (or at the default label's
 * place), ties by issue number, oldest first. Without a prioritizer: by issue number.
 */
export function orderIssues<T extends OrderableIssue>(
  workflow: Workflow,
  issues: readonly T[],
): T[] {
  return [...issues].sort(
    (a, b) => orderRank(workflow, a.labels) - orderRank(workflow, b.labels) || a.number - b.number,
  );
}

/** One issue's order, as the prioritizer decided it. */
export interface PriorityAssignment {
  readonly issue: number;
  /** A bare label of `prioritizer.labels`. */
  readonly label: string;
}

/**
 * The prioritizer run's order, read from its final output: `priorities` (or `assignments`), a
 * list of `{issue, priority | label}` — the shape of the original runtime's priorities file. A
 * label outside `prioritizer.labels` becomes the default label, or is dropped when there is none;
 * an issue outside the batch is dropped.
 */
export function readPriorityAssignments(
  prioritizer: PrioritizerConfig,
  output: unknown,
  batch: readonly number[],
): PriorityAssignment[] {
  const record =
    typeof output === "object" && output !== null ? (output as Record<string, unknown>) : {};
  const list = Array.isArray(record.priorities)
    ? record.priorities
    : Array.isArray(record.assignments)
      ? record.assignments
      : Array.isArray(output)
        ? output
        : [];
  const assignments: PriorityAssignment[] = [];
  for (const entry of list) {
    if (typeof entry !== "object" || entry === null) continue;
    const { issue, priority, label } = entry as Record<string, unknown>;
    const number = typeof issue === "string" ? Number(issue.replace(/^#/, "")) : issue;
    if (typeof number !== "number" || !batch.includes(number)) continue;
    if (assignments.some((assignment) => assignment.issue === number)) continue;
    const given =
      typeof priority === "string" ? priority : typeof label === "string" ? label : undefined;
    const valid =
      given !== undefined && prioritizer.labels.includes(given) ? given : prioritizer.defaultLabel;
    if (valid !== null) assignments.push({ issue: number, label: valid });
  }
  return assignments;
}
