/** Why a run was stopped from outside the flow. */
export type StopReason = "signal" | "wallclock";

/**
 * The run's stop switch: the caller's signal or the wall-clock budget. Stopping aborts the
 * signal every model call, tool, validator and hook of the run listens to; the first reason
 * wins. The run then ends as the stop, with a resumable journal.
 */
export class RunStop {
  private readonly controller = new AbortController();
  private stopReason: StopReason | undefined;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get reason(): StopReason | undefined {
    return this.stopReason;
  }

  stop(reason: StopReason): void {
    if (this.stopReason !== undefined) return;
    this.stopReason = reason;
    this.controller.abort(new Error(reason === "signal" ? "interrupted" : "wall-clock budget"));
  }
}
