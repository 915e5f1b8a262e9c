// `StepEndRecord`: how a `StepEnd` is written to the journal as `step_end` (router state without
// the per-step totals) and folded back on resume; the types are @climpt/protocol's.

import type { StepEnd, StepEndRecord } from "@climpt/protocol";
import type { RouterState, StepCount } from "@climpt/router";

export { JOURNAL_FORMAT, type JournaledRouterState, type StepEndRecord } from "@climpt/protocol";

/**
 * The entries of `next` that are not in `previous` as the same object. The router never
 * mutates a state: it copies the list and replaces the entry of the step that ran (or appends
 * it), so unchanged entries keep their identity and the comparison is one pointer test each,
 * no serialisation. A list the router shortened or reordered (it never does) cannot be a delta:
 * `undefined` tells the caller to store the whole list.
 */
function changedCounts(
  previous: readonly StepCount[],
  next: readonly StepCount[],
): StepCount[] | undefined {
  if (previous === next) return [];
  if (next.length < previous.length) return undefined;
  const changes: StepCount[] = [];
  for (let index = 0; index < next.length; index += 1) {
    const entry = next[index] as StepCount;
    if (index < previous.length) {
      const before = previous[index] as StepCount;
      if (entry === before) continue;
      if (entry.stepId !== before.stepId) return undefined;
    }
    changes.push(entry);
  }
  return changes;
}

/**
 * The journal record of a step end: `end` with the router's `stepCounts` replaced by what
 * changed since `previous` (the router state the step started from), so a line's size does not
 * grow with the run.
 */
export function stepEndRecord(previous: RouterState, end: StepEnd): StepEndRecord {
  const { stepCounts, ...rest } = end.routerState;
  const changes = changedCounts(previous.stepCounts, stepCounts);
  if (changes === undefined) return end;
  return { ...end, routerState: rest, stepCountChanges: changes };
}

/**
 * Rebuilds full `StepEnd`s from the journal's records, in journal order: the inverse of
 * `stepEndRecord`. Keeps the folded `stepCounts` list with an index by step id, so each record
 * costs what its changes cost. The list is updated in place: each returned `StepEnd`
 * supersedes the previous one (as in `applyStepEnd`), and only the last may be kept.
 */
export class StepEndFold {
  private counts: StepCount[];
  private readonly indexOf = new Map<string, number>();

  constructor(start: RouterState) {
    this.counts = [];
    this.reset(start.stepCounts);
  }

  private reset(list: readonly StepCount[]): void {
    this.counts = list.slice();
    this.indexOf.clear();
    this.counts.forEach((count, index) => {
      this.indexOf.set(count.stepId, index);
    });
  }

  apply(record: StepEndRecord): StepEnd {
    const { stepCountChanges, ...end } = record;
    const { stepCounts: whole, ...routerState } = record.routerState;
    if (whole !== undefined) {
      // Format 1 (or a list that could not be a delta): the record holds the whole list.
      this.reset(whole);
    } else {
      for (const change of stepCountChanges ?? []) {
        const index = this.indexOf.get(change.stepId);
        if (index === undefined) {
          this.indexOf.set(change.stepId, this.counts.length);
          this.counts.push(change);
        } else {
          this.counts[index] = change;
        }
      }
    }
    return { ...end, routerState: { ...routerState, stepCounts: this.counts } };
  }
}
