import { formatCode } from "@climpt/model";
import type { OrchestratorError } from "../codes.ts";
import type { DispatchOutcome } from "../dispatch/dispatcher.ts";
import type { TransitionRecord } from "../phase-machine/cycle-rules.ts";
import type { TransitionDecision } from "../phase-machine/decide-transition.ts";
import {
  commentMarker,
  commentTemplateFor,
  renderTemplate,
  withMarker,
} from "../phase-machine/handoff-comment.ts";
import { labelChanges } from "../phase-machine/label-changes.ts";
import type { PendingTransition } from "../state/issue-record.ts";
import {
  firstBlockingPhase,
  phaseById,
  type Workflow,
  type WorkflowAgent,
  type WorkflowPhase,
} from "../workflow-model.ts";

interface Where {
  readonly issue: number;
  readonly phase: WorkflowPhase;
  readonly agent: WorkflowAgent;
  readonly labels: readonly string[];
}

function explain(error: OrchestratorError): string {
  return `${formatCode(error)}: ${error.message}${error.hint === undefined ? "" : `\n\nFix: ${error.hint}`}`;
}

/**
 * The transition a run's outcome decided, with its comment: the workflow's template for the
 * agent's outcome when it has one; otherwise, when the issue takes the fallback, a comment that
 * says why (the run's error or the verdict problem), so a person looking at a blocked issue
 * knows what happened. The comment carries a marker naming the run, so it is posted once.
 */
export function handoffTransition(
  workflow: Workflow,
  where: Where & {
    readonly outcome: DispatchOutcome;
    readonly decision: TransitionDecision;
    /** Names the comment's marker when the run has no id (it could not start). */
    readonly attempt?: string;
  },
): PendingTransition {
  const { decision, outcome } = where;
  const target = decision.target as WorkflowPhase;
  const change = labelChanges(workflow, where.labels, target);
  const runId = outcome.runId ?? "none";
  const template = commentTemplateFor(workflow, where.agent.id, decision.outcome);
  let body: string | null = null;
  if (template !== null) {
    body = renderTemplate(template.text, {
      ...outcome.values,
      issue: String(where.issue),
      agent: where.agent.id,
      phase: where.phase.id,
      next_phase: target.id,
      outcome: decision.outcome,
      verdict: outcome.verdict ?? "",
      run_id: runId,
      branch: outcome.branch ?? "",
      reason: decision.reason === null ? "" : explain(decision.reason),
      ledger: outcome.evidence ?? "",
    });
  } else if (decision.fallback) {
    const why = decision.reason === null ? "it did not complete." : explain(decision.reason);
    body = `climpt moved this issue from \`${where.phase.id}\` to \`${target.id}\`: the ${where.agent.id} run ${runId} ended with outcome \`${decision.outcome}\`.\n\n${why}`;
  }
  // The proof of done travels with the handoff, unless the template placed it already.
  const evidence = outcome.evidence ?? null;
  if (body !== null && evidence !== null && !body.includes(evidence))
    body = `${body}\n\n${evidence}`;
  const marker = commentMarker(
    where.issue,
    outcome.runId ?? (where.attempt === undefined ? runId : `none-${where.attempt}`),
    "handoff",
  );
  return {
    from: where.phase.id,
    to: target.id,
    agent: where.agent.id,
    outcome: decision.outcome,
    runId: outcome.runId,
    add: change.add,
    remove: change.remove,
    comment: body === null ? null : withMarker(body, marker),
    marker: body === null ? null : marker,
    close: decision.close,
  };
}

/**
 * The transition a cycle rule forces: to the agent's fallback phase when that is a blocking
 * phase, else the workflow's first blocking phase, with a comment saying which rule stopped the
 * issue and the transitions that led there. Null when the workflow has no blocking phase.
 */
export function stuckTransition(
  workflow: Workflow,
  where: Where & {
    readonly history: readonly TransitionRecord[];
    readonly violation: OrchestratorError;
  },
): PendingTransition | null {
  const own =
    where.agent.fallbackPhase === null ? undefined : phaseById(workflow, where.agent.fallbackPhase);
  const target = own?.type === "blocking" ? own : firstBlockingPhase(workflow);
  if (target === undefined) return null;
  const change = labelChanges(workflow, where.labels, target);
  const steps = where.history
    .map(
      (record, index) =>
        `${index + 1}. \`${record.from}\` → \`${record.to}\` (${record.agent}: ${record.outcome})`,
    )
    .join("\n");
  const marker = `climpt-orchestrator:stuck:issue-${where.issue}:after-${where.history.length}`;
  const body = `climpt stopped moving this issue and put it in \`${target.id}\` instead of running ${where.agent.id} for \`${where.phase.id}\` again.\n\n${explain(where.violation)}\n\nTransitions so far:\n${steps}`;
  return {
    from: where.phase.id,
    to: target.id,
    agent: "orchestrator",
    outcome: where.violation.code,
    runId: null,
    add: change.add,
    remove: change.remove,
    comment: withMarker(body, marker),
    marker,
    close: false,
  };
}
