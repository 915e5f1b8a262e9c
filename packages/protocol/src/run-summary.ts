import type { RunEvent } from "./run-event.ts";
import type { RunResult } from "./run-result.ts";

/**
 * How a run stands, as its journal says: the one vocabulary `climpt runs`, `climpt show`,
 * `climpt view` and the orchestrator use (docs/design.md#run-status).
 *
 * - `completed`: `run_end` with success.
 * - `failed`: `run_end` with a failure of the run (a step, validation, a budget, the model API).
 * - `interrupted`: `run_end` after the run was stopped (`AGENT_INTERRUPTED`: a signal, the
 *   wall-clock budget); resumable.
 * - `unfinished`: no `run_end` — the run is still going, or its process was killed or crashed.
 */
export type RunStatus = "completed" | "failed" | "interrupted" | "unfinished";

/** Every status, in the order a list or a filter shows them. */
export const RUN_STATUSES: readonly RunStatus[] = [
  "completed",
  "failed",
  "interrupted",
  "unfinished",
];

/** What decides a run's status: its `run_end` result's success and error codes. */
export interface RunEnd {
  readonly success: boolean;
  readonly error?: { readonly code: string; readonly family?: string | undefined } | undefined;
}

/** The status of a run that ended with `result` (`undefined`: its journal has no run_end yet). */
export function runStatusOf(result: RunEnd | undefined): RunStatus {
  if (result === undefined) return "unfinished";
  if (result.success) return "completed";
  return (result.error?.family ?? result.error?.code) === "AGENT_INTERRUPTED"
    ? "interrupted"
    : "failed";
}

/** What a run's journal says about it: one line of `climpt runs`, the head of `climpt show`. */
export interface RunSummary {
  readonly runId: string;
  readonly agent: string;
  readonly status: RunStatus;
  /** The specific code of the error a failed or interrupted run ended with. */
  readonly error: string | null;
  /** The run-level code it belongs to, when that is another one (`GATE_INTERPRETATION_ERROR`). */
  readonly errorFamily: string | null;
  /** Step executions journaled (`step_end`), across resumes. */
  readonly steps: number;
  readonly tokens: number;
  readonly costUsd: number;
  /** ISO time of run_start. */
  readonly startedAt: string;
  /** From run_start to the journal's last event. */
  readonly durationMs: number;
  readonly resumable: boolean;
  /** How many times the run was resumed (`run_resume`). */
  readonly resumes: number;
  /** A fork (`run_start.forkedFrom`): the run and the iteration (and step) it started from. */
  readonly forkedFrom: {
    readonly runId: string;
    readonly iteration: number;
    readonly stepId: string;
  } | null;
  readonly journalPath: string;
}

/**
 * Folds a journal's events (as `parseJournal` reads them) into the run's summary; undefined for a
 * journal without run_start. The last `run_end` decides the status: a resumed run's earlier
 * `run_end` (interrupted) is superseded by the one after its `run_resume`, and a `run_resume`
 * with no `run_end` after it is unfinished again.
 */
export function summarizeRun(
  events: readonly RunEvent[],
  journalPath: string,
): RunSummary | undefined {
  const start = events.find((event) => event.type === "run_start");
  if (start === undefined || start.type !== "run_start") return undefined;
  let end: RunResult | undefined;
  let steps = 0;
  let tokens = 0;
  let costUsd = 0;
  let resumes = 0;
  for (const event of events) {
    if (event.type === "step_end") steps++;
    else if (event.type === "model_response") {
      tokens = event.totals.inputTokens + event.totals.outputTokens;
      costUsd = event.totals.costUsd;
    } else if (event.type === "run_resume") {
      resumes++;
      end = undefined;
    } else if (event.type === "run_end") {
      end = event.result;
      tokens = end.usage.inputTokens + end.usage.outputTokens;
      costUsd = end.usage.costUsd;
    }
  }
  const last = events.at(-1) ?? start;
  return {
    runId: start.runId,
    agent: start.agent,
    status: runStatusOf(end),
    error: end?.error?.code ?? null,
    errorFamily: end?.error?.family ?? null,
    steps,
    tokens,
    costUsd,
    startedAt: start.time,
    durationMs: Math.max(0, Date.parse(last.time) - Date.parse(start.time)),
    resumable: end === undefined ? true : end.resumable,
    resumes,
    forkedFrom:
      start.forkedFrom === undefined
        ? null
        : {
            runId: start.forkedFrom.runId,
            iteration: start.forkedFrom.iteration,
            stepId: start.forkedFrom.stepId,
          },
    journalPath,
  };
}
