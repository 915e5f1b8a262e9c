import type { JsonValue } from "@climpt/model";
import type { OrchestratorError } from "../codes.ts";
import type {
  Dispatcher,
  DispatchOutcome,
  DispatchRequest,
  Landed,
  LandRequest,
  PrioritizeOutcome,
  PrioritizeRequest,
} from "../dispatch/dispatcher.ts";

type LandResult = { ok: true; value: Landed } | { ok: false; error: OrchestratorError };

/** What one scripted run ends with. */
export interface ScriptedRun {
  readonly success?: boolean;
  readonly verdict?: string;
  readonly error?: { readonly code: string; readonly message: string };
  readonly interrupted?: boolean;
  readonly values?: Record<string, string>;
  /** The run's final structured output (what handoffs read). */
  readonly output?: JsonValue;
  /** The run had no worktree branch (nothing to land). */
  readonly noBranch?: boolean;
}

/**
 * A dispatcher that plays a script per issue instead of running agents, for tests of the
 * orchestration around the runs (labels, comments, cycle rules, recovery). Every request is kept.
 */
export class ScriptedDispatcher implements Dispatcher {
  readonly requests: DispatchRequest[] = [];
  readonly prioritizeRequests: PrioritizeRequest[] = [];
  #runs = 0;
  prioritizeOutput: unknown = null;

  constructor(readonly script: Record<number, ScriptedRun[]>) {}

  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    this.requests.push(request);
    const next = this.script[request.issue.number]?.shift();
    if (next === undefined)
      throw new Error(
        `no scripted run left for issue #${request.issue.number} (${request.agent.id})`,
      );
    const runId = request.resume?.runId ?? `run-${++this.#runs}`;
    request.onRunStarted?.({ runId, journalPath: null, worktree: null });
    await new Promise((resolve) => setTimeout(resolve, 1));
    return {
      success: next.success ?? true,
      verdict: next.verdict ?? null,
      error: next.error ?? null,
      runId,
      journalPath: null,
      interrupted: next.interrupted ?? false,
      values: next.values ?? {},
      branch: next.noBranch === true ? null : `climpt/issue-${request.issue.number}`,
      output: next.output ?? null,
    };
  }

  /** What `land` answers (none: the dispatcher lands nothing, like one without `land`). */
  landing: ((request: LandRequest) => LandResult) | undefined;
  readonly landRequests: LandRequest[] = [];

  get land(): ((request: LandRequest) => Promise<LandResult>) | undefined {
    const answer = this.landing;
    if (answer === undefined) return undefined;
    return async (request) => {
      this.landRequests.push(request);
      return answer(request);
    };
  }

  async prioritize(request: PrioritizeRequest): Promise<PrioritizeOutcome> {
    this.prioritizeRequests.push(request);
    return { success: true, output: this.prioritizeOutput, error: null, runId: "prioritize-1" };
  }
}
