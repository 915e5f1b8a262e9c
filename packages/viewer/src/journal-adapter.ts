import { runStatusOf } from "@climpt/protocol";
import { buildFlowView } from "./flow-view.ts";
import { applyEvent } from "./journal-events.ts";
import { isRecord } from "./journal-fields.ts";
import { JournalFold } from "./journal-fold.ts";
import type { DeclaredFlow, RunDetail, RunStatus, RunSummary } from "./view-model.ts";

/**
 * Folds a journal into what the page shows: the runs-list row and the whole run. The event shapes
 * are read in journal-events.ts and journal-call-events.ts; this file only assembles the result.
 */

function summaryOf(fold: JournalFold, fallbackRunId: string): RunSummary {
  const status: RunStatus = runStatusOf(
    fold.end === null
      ? undefined
      : {
          success: fold.end.success,
          error:
            fold.end.code === null
              ? undefined
              : { code: fold.end.code, family: fold.end.family ?? undefined },
        },
  );
  const last = fold.steps.at(-1);
  return {
    runId: fold.runId || fallbackRunId,
    agent: fold.agent,
    args: fold.args,
    status,
    errorCode: fold.end?.code ?? null,
    errorFamily: fold.end?.family ?? null,
    errorMessage: fold.end?.message ?? null,
    iterations: fold.end?.iterations ?? fold.steps.length,
    tokens: fold.tokens,
    costUsd: fold.costUsd,
    startedAt: fold.t0 === null ? null : new Date(fold.t0).toISOString(),
    durationMs: fold.t0 === null || fold.lastTime === null ? 0 : fold.lastTime - fold.t0,
    currentStepId: fold.open?.stepId ?? last?.stepId ?? null,
    resumes: fold.resumes,
    forkedFrom: fold.forkedFrom,
  };
}

function fold(events: readonly unknown[]): JournalFold {
  const state = new JournalFold();
  for (const event of events) {
    if (isRecord(event)) applyEvent(state, event);
    else
      state.unknownTypes.set(
        "(not an object)",
        (state.unknownTypes.get("(not an object)") ?? 0) + 1,
      );
  }
  return state;
}

/** The runs-list row of a journal (`fallbackRunId`: the file name, for a journal without run_start). */
export function summarizeJournal(events: readonly unknown[], fallbackRunId: string): RunSummary {
  return summaryOf(fold(events), fallbackRunId);
}

/** Everything the page shows about one run. */
export function adaptJournal(
  events: readonly unknown[],
  declared: DeclaredFlow | null,
  fallbackRunId: string,
): RunDetail {
  const state = fold(events);
  const summary = summaryOf(state, fallbackRunId);
  const notices = [...state.notices];
  for (const [type, times] of state.unknownTypes) {
    notices.push(
      `Skipped ${times} event${times === 1 ? "" : "s"} of a type this viewer does not know: ${type}.`,
    );
  }
  const visits = new Map<string, number>();
  const kinds = new Map<string, string>();
  const validatorFailures = new Map<string, number>();
  for (const step of state.steps) {
    visits.set(step.stepId, (visits.get(step.stepId) ?? 0) + 1);
    kinds.set(step.stepId, step.stepKind);
    const failures = step.validators.filter((validator) => !validator.passed).length;
    if (step.validators.length > 0)
      validatorFailures.set(step.stepId, (validatorFailures.get(step.stepId) ?? 0) + failures);
  }
  const flow = buildFlowView(declared, {
    entryStepId: state.entryStepId,
    visits,
    kinds,
    validatorFailures,
    taken: state.taken,
    currentStepId: summary.status === "unfinished" ? (state.open?.stepId ?? null) : null,
    failedStepId:
      summary.status === "failed" || summary.status === "interrupted"
        ? (state.steps.at(-1)?.stepId ?? null)
        : null,
  });
  if (state.lastTime !== null) {
    const end = state.at(state.lastTime);
    if (state.open !== null) state.open.durationMs = Math.max(0, end - state.open.startMs);
    for (const span of state.spans) {
      if (span.status === "running") span.durationMs = Math.max(0, end - span.startMs);
    }
  }
  return {
    summary,
    flow,
    steps: state.steps,
    spans: state.spans,
    boundaryHook: state.boundaryHook,
    ledger: state.ledger,
    notices,
  };
}
