import type { JsonValue } from "@climpt/model";
import { ledgerMarkdown, type RunEvent, type RunResult } from "@climpt/runner";
import type { OrchestratorError } from "../codes.ts";
import type { DispatchOutcome } from "./dispatcher.ts";

function text(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The last structured output the run produced (the closure step's, for a run that completed):
 * the result's `output`; for a result journaled before it carried one, the last `step_end`'s.
 */
export function outputOf(
  result: RunResult,
  events: readonly RunEvent[] = [],
): JsonValue | undefined {
  return result.output ?? finalOutput(events);
}

/** The output of a journal's last `step_end`. */
export function finalOutput(events: readonly RunEvent[]): JsonValue | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === "step_end") return event.output;
  }
  return undefined;
}

/** The `verdict` string of a structured output, when it carries one. */
function declaredVerdict(output: JsonValue | undefined): string | null {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return null;
  const verdict = output.verdict;
  return typeof verdict === "string" && verdict.trim() !== "" ? verdict : null;
}

/**
 * The run's verdict: what a validator's `outputPhases` and a transformer's `fallbackPhases` are
 * keyed by. For a run that completed it is the runner's `RunResult.verdict`, the `verdict` of the
 * closure output it completed with. A run that failed has none from the runner; its verdict is
 * the one the agent last declared (the `verdict` of the last step output it recorded: a close-out
 * its validation refused, a step that aborted), as the original's runner reports a failed run's
 * last verdict. Only a transformer routes on it (`fallbackPhases`); a validator's failed run takes
 * its fallback whatever it said.
 */
export function verdictOf(result: RunResult, events: readonly RunEvent[] = []): string | null {
  if (result.verdict !== undefined) return result.verdict;
  return result.success ? null : declaredVerdict(outputOf(result, events));
}

/**
 * The values a comment template can name: every step's handoff (the final step's last, so it
 * wins), the final output's top-level fields, as text. `{summary}`, `{final_summary}`,
 * `{verdict}` are the common ones.
 */
export function templateValues(
  result: RunResult,
  events: readonly RunEvent[] = [],
): Record<string, string> {
  const values: Record<string, string> = {};
  const steps = Object.keys(result.state.handoff).filter((step) => step !== result.finalStepId);
  if (result.finalStepId !== null) steps.push(result.finalStepId);
  for (const step of steps) {
    for (const [key, value] of Object.entries(result.state.handoff[step] ?? {})) {
      const rendered = text(value);
      if (rendered !== undefined) values[key] = rendered;
    }
  }
  const output = outputOf(result, events);
  if (typeof output === "object" && output !== null && !Array.isArray(output)) {
    for (const [key, value] of Object.entries(output)) {
      const rendered = text(value);
      if (rendered !== undefined && !(key in values)) values[key] = rendered;
    }
  }
  return values;
}

/**
 * Model API failures that asking again later will not mend: the request itself was refused
 * (HTTP 400, `AC-MODEL-006`) or failed in a way the adapter does not know (`AC-MODEL-010`). A
 * run that ends with one has failed, as the original maps it: the issue takes its fallback.
 */
const PERMANENT_MODEL_CODES = new Set(["AC-MODEL-006", "AC-MODEL-010"]);

/**
 * Run errors that are not the agent's outcome: the run was stopped, or the model API was out of
 * reach (auth, rate limits after every retry, overload, timeouts, the connection, a server
 * error). The issue must not be sent to its fallback phase for those; the run is resumed on the
 * next pass (a bounded number of times: `maxInterruptions`). A permanent model error (a
 * request the API refuses) is a failure like any other.
 */
export function isInterruption(error: OrchestratorError | null | undefined): boolean {
  if (error === null || error === undefined) return false;
  // The run-level family decides (a stop is `AGENT_INTERRUPTED` whatever its specific code);
  // model API failures are recognised by their specific code's prefix.
  // A fleet's step-end push that failed, or a journal another worker took over, is not the
  // agent's outcome either: the run is taken up again, from its journal, on the next pass.
  return (
    (error.family ?? error.code) === "AGENT_INTERRUPTED" ||
    (error.code.startsWith("AC-MODEL-") && !PERMANENT_MODEL_CODES.has(error.code)) ||
    error.code === "RUN-STEP-HOOK-001" ||
    error.code === "ORC-JOURNAL-001"
  );
}

/**
 * A run that ended because it reached a budget: the result names the budget (a run with an
 * `onBudget` step, or one without that reached tokens, cost or iterations), or its error is of
 * the budget family (the wall clock).
 */
export function isBudgetEnding(result: RunResult): boolean {
  const error = result.error;
  return (
    result.budget !== undefined ||
    (error !== undefined && (error.family ?? error.code) === "AGENT_BUDGET_EXCEEDED")
  );
}

/**
 * The dispatch outcome of a run that ended with `result`. `events`: the run's journal, read only
 * for the output of a result journaled before `RunResult.output` existed.
 */
export function outcomeOfRun(
  result: RunResult,
  events: readonly RunEvent[],
  branch: string | null,
): DispatchOutcome {
  const error: OrchestratorError | null =
    result.error === undefined
      ? null
      : {
          code: result.error.code,
          ...(result.error.family === undefined ? {} : { family: result.error.family }),
          message: result.error.message,
          ...(result.error.hint === undefined ? {} : { hint: result.error.hint }),
        };
  return {
    success: result.success,
    verdict: verdictOf(result, events),
    error,
    runId: result.runId,
    journalPath: result.journalPath,
    interrupted: !result.success && isInterruption(error),
    budget: !result.success && isBudgetEnding(result),
    values: templateValues(result, events),
    branch,
    output: outputOf(result, events) ?? null,
    evidence: ledgerMarkdown(result.ledger ?? [], result.runId) ?? null,
  };
}

/**
 * An outcome for a run that could not start or be read back. `interrupted` (the default): the
 * cause may pass (a worktree git could not make, a journal out of reach), so the issue keeps its
 * phase and the run is tried again. False: the run can never start as it is (the agent does not
 * load, the runner refuses its arguments), so it is a failed run and takes the fallback.
 */
export function setupFailure(
  error: OrchestratorError,
  runId: string | null = null,
  options: { readonly interrupted?: boolean } = {},
): DispatchOutcome {
  return {
    success: false,
    verdict: null,
    error,
    runId,
    journalPath: null,
    interrupted: options.interrupted ?? true,
    values: {},
    branch: null,
    output: null,
  };
}
