import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import {
  firstBlockingPhase,
  phaseById,
  type Workflow,
  type WorkflowAgent,
  type WorkflowPhase,
} from "../workflow-model.ts";

/** What a dispatched run came back with, as far as the phase machine cares. */
export interface RunVerdict {
  readonly success: boolean;
  /** The run's verdict (a validator's judgement), when it gave one. */
  readonly verdict?: string | null;
  readonly error?: OrchestratorError | null;
  /** The run ended because it reached a budget (through its onBudget step or not). */
  readonly budget?: boolean;
}

export interface TransitionDecision {
  /**
   * The outcome as the workflow names it: `success` / `failed` for a transformer (or the verdict,
   * when a `fallbackPhases` entry names it), the verdict for a validator. It selects the comment
   * template and is matched against `closeCondition`.
   */
  readonly outcome: string;
  /** Where the issue goes; null when there is no phase to go to (no fallback, no blocking phase). */
  readonly target: WorkflowPhase | null;
  /** The fallback was taken (a failed run, or an outcome with no phase). */
  readonly fallback: boolean;
  /** Why the fallback was taken, for the comment and the result. */
  readonly reason: OrchestratorError | null;
  /** Close the issue (a terminal target, closeOnComplete, closeCondition met). */
  readonly close: boolean;
}

/** The agent's fallback phase, else the workflow's first blocking phase. */
export function fallbackPhaseOf(workflow: Workflow, agent: WorkflowAgent): WorkflowPhase | null {
  const named = agent.fallbackPhase === null ? undefined : phaseById(workflow, agent.fallbackPhase);
  return named ?? firstBlockingPhase(workflow) ?? null;
}

function decided(
  agent: WorkflowAgent,
  outcome: string,
  target: WorkflowPhase | null,
  fallback: boolean,
  reason: OrchestratorError | null,
): TransitionDecision {
  const close =
    target !== null &&
    target.type === "terminal" &&
    agent.closeOnComplete &&
    (agent.closeCondition === null || agent.closeCondition === outcome);
  return { outcome, target, fallback, reason, close };
}

/** The outcome a transformer's failed run is known by when it declared no verdict. */
export const FAILED_OUTCOME = "failed";

/**
 * The outcome of a run that ended because it reached a budget (docs/design.md#limits-and-budgets):
 * `fallbackPhases.budget` sends such an issue to its own phase (a person's queue, say) and a
 * `budget` comment template describes it; without them it is a failure like any other.
 */
export const BUDGET_OUTCOME = "budget";

/**
 * The next phase after a run (pure). A transformer's successful run goes to `outputPhase`; a
 * validator's successful run goes to `outputPhases[verdict]`. A transformer's failed run is known
 * by its verdict (the one the agent last declared), else by `failed`, and goes to
 * `fallbackPhases` under that name, else to `fallbackPhases.failed`, else to `fallbackPhase`,
 * else to the first blocking phase: `"fallbackPhases": {"failed": "detailing"}` sends every failure
 * of the agent back to detailing, `{"needs-spec": "detailing"}` only those where it said so.
 * A validator run without a verdict, or with a verdict it has no phase for, takes the fallback
 * too, with a reason saying which; a validator's failed run takes it whatever its verdict.
 * A run that ended on a budget is known as `budget` (`BUDGET_OUTCOME`).
 */
export function decideTransition(
  workflow: Workflow,
  agent: WorkflowAgent,
  run: RunVerdict,
): TransitionDecision {
  const verdict = run.verdict ?? null;
  if (agent.role === "transformer") {
    if (run.success) {
      return decided(agent, "success", phaseById(workflow, agent.outputPhase) ?? null, false, null);
    }
    // A budget ending is known as `budget` when the workflow maps it; else by the verdict the
    // agent declared (its onBudget step may say one), else `budget` taking the failed route.
    const outcome =
      run.budget === true && agent.fallbackPhases[BUDGET_OUTCOME] !== undefined
        ? BUDGET_OUTCOME
        : verdict !== null && agent.fallbackPhases[verdict] !== undefined
          ? verdict
          : run.budget === true
            ? BUDGET_OUTCOME
            : FAILED_OUTCOME;
    const mapped =
      agent.fallbackPhases[outcome] ??
      (outcome === BUDGET_OUTCOME ? agent.fallbackPhases[FAILED_OUTCOME] : undefined);
    const target =
      mapped === undefined
        ? fallbackPhaseOf(workflow, agent)
        : (phaseById(workflow, mapped) ?? null);
    return decided(agent, outcome, target, true, run.error ?? null);
  }
  if (!run.success) {
    return decided(
      agent,
      run.budget === true ? BUDGET_OUTCOME : FAILED_OUTCOME,
      fallbackPhaseOf(workflow, agent),
      true,
      run.error ?? null,
    );
  }
  if (verdict === null) {
    return decided(agent, FAILED_OUTCOME, fallbackPhaseOf(workflow, agent), true, {
      code: C.verdictMissing,
      message: `Validator "${agent.id}" finished without a verdict, so its outputPhases cannot choose the next phase.`,
      hint: `Make the agent's closure step output a "verdict" (one of ${Object.keys(agent.outputPhases).join(", ")}).`,
    });
  }
  const mapped = agent.outputPhases[verdict];
  if (mapped === undefined) {
    return decided(agent, verdict, fallbackPhaseOf(workflow, agent), true, {
      code: C.verdictUnknown,
      message: `Validator "${agent.id}" gave the verdict "${verdict}", which its outputPhases do not name (${Object.keys(agent.outputPhases).join(", ")}).`,
      hint: "Add the verdict to outputPhases, or constrain the agent's output schema to the verdicts it has.",
    });
  }
  return decided(agent, verdict, phaseById(workflow, mapped) ?? null, false, null);
}
