import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { WorkflowRules } from "../workflow-model.ts";

/** One phase transition of an issue, as the orchestrator records it. */
export interface TransitionRecord {
  readonly from: string;
  readonly to: string;
  readonly agent: string;
  readonly outcome: string;
  /** The run that decided it; null for a move the orchestrator made itself (a cycle rule). */
  readonly runId: string | null;
  /** ISO time. */
  readonly at: string;
}

/** How many records at the end of the history entered the same phase as the last one. */
export function consecutiveCount(history: readonly TransitionRecord[]): number {
  const last = history.at(-1);
  if (last === undefined) return 0;
  let count = 0;
  for (let index = history.length - 1; index >= 0 && history[index]?.to === last.to; index--) {
    count++;
  }
  return count;
}

/**
 * Whether the cycle rules let the issue be dispatched again (pure). The consecutive-phase rule
 * is checked first: it names the local loop (one phase over and over) more precisely than the
 * total count. Null: go on.
 */
export function cycleRuleViolation(
  rules: WorkflowRules,
  history: readonly TransitionRecord[],
): OrchestratorError | null {
  const consecutive = consecutiveCount(history);
  if (rules.maxConsecutivePhases > 0 && consecutive >= rules.maxConsecutivePhases) {
    const phase = history.at(-1)?.to ?? "";
    return {
      code: C.consecutiveLimit,
      message: `The issue entered phase "${phase}" ${consecutive} times in a row (rules.maxConsecutivePhases is ${rules.maxConsecutivePhases}); it looks stuck there.`,
      hint: "Read the runs' comments and journals, fix what keeps it there, then relabel the issue to resume.",
    };
  }
  if (history.length >= rules.maxCycles) {
    return {
      code: C.cycleLimit,
      message: `The issue made ${history.length} phase transitions (rules.maxCycles is ${rules.maxCycles}) without reaching a terminal phase.`,
      hint: "Read the history, then relabel the issue to resume (its count starts again), or raise rules.maxCycles.",
    };
  }
  return null;
}

/**
 * The history that counts for the cycle rules. A person who relabels an issue by hand (retrying a
 * blocked issue, sending it back a phase) starts it afresh: when the phase the labels show is
 * not where the last recorded transition went, the old history no longer applies.
 */
export function effectiveHistory(
  history: readonly TransitionRecord[],
  currentPhase: string,
): readonly TransitionRecord[] {
  const last = history.at(-1);
  return last === undefined || last.to === currentPhase ? history : [];
}
