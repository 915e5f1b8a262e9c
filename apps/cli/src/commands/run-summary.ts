import type { RunEvent, RunResult } from "@climpt/runner";

/** How a run ended, as far as its journal says. */
export type RunStatus =
  | "completed"
  | "failed"
  | "interrupted"
  /** No run_end: the process was killed, or the run is still going. */
  | "stopped";

/** One line of `climpt runs`: what a run's journal says about it. */
export interface RunSummary {
  readonly runId: string;
  readonly agent: string;
  readonly status: RunStatus;
  /** The code of the error a failed or interrupted run ended with. */
  readonly error: string | null;
  /** Step executions journaled (`step_end`), across resumes. */
  readonly steps: number;
  readonly tokens: number;
  readonly costUsd: number;
  /** ISO time of run_start. */
  readonly startedAt: string;
  /** From run_start to the journal's last event. */
  readonly durationMs: number;
  readonly resumable: boolean;
  readonly journalPath: string;
}

/** The summary of one journal's events; undefined for a journal without run_start. */
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
  for (const event of events) {
    if (event.type === "step_end") steps++;
    if (event.type === "model_response") {
      tokens = event.totals.inputTokens + event.totals.outputTokens;
      costUsd = event.totals.costUsd;
    }
    if (event.type === "run_end") end = event.result;
  }
  if (end !== undefined) {
    tokens = end.usage.inputTokens + end.usage.outputTokens;
    costUsd = end.usage.costUsd;
  }
  const last = events.at(-1) ?? start;
  const errorCode = end?.error === undefined ? null : (end.error.family ?? end.error.code);
  const status: RunStatus =
    end === undefined
      ? "stopped"
      : end.success
        ? "completed"
        : errorCode === "AGENT_INTERRUPTED"
          ? "interrupted"
          : "failed";
  return {
    runId: start.runId,
    agent: start.agent,
    status,
    error: end?.error?.code ?? null,
    steps,
    tokens,
    costUsd,
    startedAt: start.time,
    durationMs: Math.max(0, Date.parse(last.time) - Date.parse(start.time)),
    resumable: end === undefined ? true : end.resumable,
    journalPath,
  };
}
