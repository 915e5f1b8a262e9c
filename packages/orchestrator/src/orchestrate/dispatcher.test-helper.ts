import type {
  Dispatcher,
  DispatchOutcome,
  DispatchRequest,
  PrioritizeOutcome,
  PrioritizeRequest,
} from "../dispatch/dispatcher.ts";

/** What one scripted run ends with. */
export interface ScriptedRun {
  readonly success?: boolean;
  readonly verdict?: string;
  readonly error?: { readonly code: string; readonly message: string };
  readonly interrupted?: boolean;
  readonly values?: Record<string, string>;
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
      branch: `climpt/issue-${request.issue.number}`,
    };
  }

  async prioritize(request: PrioritizeRequest): Promise<PrioritizeOutcome> {
    this.prioritizeRequests.push(request);
    return { success: true, output: this.prioritizeOutput, error: null, runId: "prioritize-1" };
  }
}
