import { formatCode } from "@climpt/model";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { DispatchOutcome, Landed } from "../dispatch/dispatcher.ts";
import { emitHandoffs, type HandoffEmission } from "../handoff/emit-handoffs.ts";
import {
  decideTransition,
  FAILED_OUTCOME,
  fallbackPhaseOf,
  type TransitionDecision,
} from "../phase-machine/decide-transition.ts";
import { commentMarker, withMarker } from "../phase-machine/handoff-comment.ts";
import type { PendingTransition } from "../state/issue-record.ts";
import { lockLostError } from "../state/lock-lost.ts";
import type { LandingConfig, WorkflowAgent, WorkflowPhase } from "../workflow-model.ts";
import type { OrchestratorContext } from "./issue-types.ts";
import { handoffTransition } from "./plan-transition.ts";

export interface RunPlace {
  readonly issue: number;
  /** Tells this attempt from others of the issue when its run has no id (the dispatch start time). */
  readonly attempt?: string;
  readonly title: string;
  readonly phase: WorkflowPhase;
  readonly agent: WorkflowAgent;
  readonly labels: readonly string[];
}

export type Settlement =
  | {
      readonly kind: "transition";
      readonly transition: PendingTransition;
      /** Why the fallback was taken, when it was. */
      readonly reason: OrchestratorError | null;
    }
  /** The outcome has no phase to go to: the issue is held where it is (ORC-STATE-004). */
  | { readonly kind: "halt"; readonly error: OrchestratorError; readonly comment: string };

/** The decision for a run that failed after the fact (its work could not land, a handoff failed). */
export function failedDecision(
  context: OrchestratorContext,
  agent: WorkflowAgent,
  reason: OrchestratorError,
): TransitionDecision {
  return {
    outcome: FAILED_OUTCOME,
    target: fallbackPhaseOf(context.workflow, agent),
    fallback: true,
    reason,
    close: false,
  };
}

function landedText(landed: Landed, branch: string): string | null {
  if (landed.pullRequest !== null)
    return `The work on \`${branch}\` is proposed in ${landed.pullRequest} (into \`${landed.base}\`).`;
  if (landed.mode === "merge" && landed.commits > 0)
    return `The work on \`${branch}\` (${landed.commits} commit${landed.commits === 1 ? "" : "s"}) was merged into \`${landed.base}\`.`;
  return null;
}

function emittedText(emission: HandoffEmission): string | null {
  if (emission.artifacts.length === 0) return null;
  const lines = emission.artifacts.map(
    (artifact) =>
      `Handoff \`${artifact.handoff}\` wrote \`${artifact.path}\`:\n\n\`\`\`json\n${artifact.content.trimEnd()}\n\`\`\``,
  );
  return lines.join("\n\n");
}

/** Appends what the orchestrator did besides the transition to its comment (one comment per run). */
function withNotes(
  transition: PendingTransition,
  notes: readonly string[],
  issue: number,
): PendingTransition {
  if (notes.length === 0) return transition;
  const marker = transition.marker ?? commentMarker(issue, transition.runId ?? "none", "handoff");
  const head =
    transition.comment === null
      ? ""
      : transition.comment.slice(0, transition.comment.lastIndexOf("\n\n<sub>"));
  const body = [head, ...notes].filter((part) => part !== "").join("\n\n");
  return { ...transition, comment: withMarker(body, marker), marker };
}

/**
 * What follows a run that reached an outcome: its work lands (a successful run whose branch is
 * ahead of the base), the phase machine decides the next phase, the workflow's handoffs for the
 * outcome emit their payloads; a landing or an emission that fails turns the outcome into a
 * failure that takes the fallback phase with a comment saying why. The result is the transition
 * to apply, or a halt when the outcome has no phase at all.
 */
export async function settleRun(
  context: OrchestratorContext,
  place: RunPlace,
  outcome: DispatchOutcome,
  options: {
    readonly holds: () => Promise<boolean>;
    readonly signal?: AbortSignal;
    readonly now?: Date;
  },
): Promise<Settlement> {
  const { workflow, dispatcher } = context;
  let decision = decideTransition(workflow, place.agent, outcome);
  let landed: Landed | undefined;
  const landing: LandingConfig | null = context.landing ?? workflow.landing;
  if (
    outcome.success &&
    !decision.fallback &&
    outcome.branch !== null &&
    dispatcher.land !== undefined
  ) {
    const result = await dispatcher.land({
      issue: { repo: context.repo, number: place.issue, title: place.title },
      branch: outcome.branch,
      landing,
      holds: options.holds,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(outcome.evidence == null ? {} : { evidence: outcome.evidence }),
    });
    if (!result.ok && result.error.code === C.stateLockLost)
      throw lockLostError(place.issue, "before its work was landed");
    if (result.ok) {
      landed = result.value;
      context.onProgress?.({ kind: "landed", issue: place.issue, landed });
    } else decision = failedDecision(context, place.agent, result.error);
  }
  let emission: HandoffEmission = { fired: [], artifacts: [] };
  const emitted = emitHandoffs(workflow, {
    agentId: place.agent.id,
    outcome: decision.outcome,
    output: outcome.output ?? null,
    now: options.now ?? new Date(),
  });
  if (emitted.ok) {
    emission = emitted.value;
    for (const artifact of emission.artifacts)
      context.onProgress?.({
        kind: "handoff",
        issue: place.issue,
        handoff: artifact.handoff,
        path: artifact.path,
      });
  } else decision = failedDecision(context, place.agent, emitted.error);
  if (decision.target === null) {
    const reason = decision.reason;
    const error: OrchestratorError = {
      code: C.stateHalted,
      message: `Agent "${place.agent.id}" ended with outcome "${decision.outcome}" in phase "${place.phase.id}", and the workflow has no phase for it (no fallbackPhase, no blocking phase): the issue stays there until a person relabels it.${reason === null ? "" : ` ${formatCode(reason)}: ${reason.message}`}`,
      hint: "Give the agent a fallbackPhase, or add a blocking phase; relabel the issue to run it again.",
    };
    const key = outcome.runId ?? `none-${place.attempt ?? Date.now()}`;
    return {
      kind: "halt",
      error,
      comment: withMarker(error.message, commentMarker(place.issue, key, "halted")),
    };
  }
  const transition = handoffTransition(workflow, {
    ...place,
    outcome,
    decision,
    ...(place.attempt === undefined ? {} : { attempt: place.attempt }),
  });
  const notes = [
    landed === undefined || outcome.branch === null ? null : landedText(landed, outcome.branch),
    emittedText(emission),
  ].filter((note): note is string => note !== null);
  return {
    kind: "transition",
    reason: decision.reason,
    transition: {
      ...withNotes(transition, notes, place.issue),
      ...(emission.payload === undefined ? {} : { payload: emission.payload }),
      ...(emission.artifacts.length === 0 ? {} : { artifacts: emission.artifacts }),
      ...(landed === undefined ? {} : { landed }),
    },
  };
}
