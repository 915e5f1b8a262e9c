import { type AgentDefinition, ClimptError, type JsonValue } from "@climpt/model";
import {
  asRecord,
  type BoundaryRequest,
  closesIssue,
  isClosureAction,
} from "../boundary/boundary-request.ts";
import { issueText, planGithubActions } from "../boundary/plan-github-actions.ts";
import { COMPLETION_CODES } from "../codes.ts";
import type { CommandRunner } from "../command-runner.ts";
import { IterationTracker } from "./iteration-tracker.ts";
import type {
  AfterIterationAnswer,
  DecideContext,
  IterationRecord,
  VerdictDecision,
  VerdictStrategy,
} from "./types.ts";

export interface ExternalStateOptions {
  /** Digits. */
  readonly issue: string;
  readonly repo?: string | undefined;
  /** Upper case; default `CLOSED`. */
  readonly targetState: string;
  readonly commandRunner: CommandRunner;
  readonly cwd: string;
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
  readonly agent?: AgentDefinition | undefined;
}

export interface IssueState {
  readonly state: string;
  readonly labels: readonly string[];
}

/**
 * `poll:state` (`externalState`): done when the GitHub issue is in `targetState` (default
 * `CLOSED`), read with `gh issue view <issue> --json state,labels` through the CommandRunner.
 *
 * Closing the issue is itself a boundary action, which only the hook may take after `done`. So
 * when the issue is still open but the hook *will* close it (a boundary request or the closure
 * output's `action` is close / label-and-close, or, with the agent definition given, GitHub
 * integration is on and the planned action closes), the decision is done with
 * `awaitsBoundary: true`; the runner then calls `confirmAfterBoundary`, which polls again.
 */
export class ExternalStateVerdict implements VerdictStrategy {
  readonly type = "poll:state";
  private readonly tracker = new IterationTracker();
  lastState: IssueState | undefined;

  constructor(private readonly options: ExternalStateOptions) {}

  observe(record: IterationRecord): void {
    this.tracker.observe(record);
  }

  async afterIteration(): Promise<AfterIterationAnswer | undefined> {
    return undefined;
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    const { issue, targetState } = this.options;
    if (!ctx.validation.passed) {
      return { done: false, reason: `closure step "${ctx.closureStepId}" did not pass validation` };
    }
    let state: IssueState | undefined;
    let pollError: ClimptError | undefined;
    try {
      state = await this.poll(ctx.signal);
    } catch (error) {
      if (!ClimptError.isInstance(error)) throw error;
      pollError = error;
    }
    if (state !== undefined && state.state === targetState) {
      return { done: true, reason: `issue #${issue} is ${state.state}` };
    }
    const closer = this.boundaryCloser(ctx);
    if (targetState === "CLOSED" && closer !== undefined) {
      return {
        done: true,
        awaitsBoundary: true,
        reason: `issue #${issue} is ${state?.state ?? "not readable now"}; the boundary hook will close it (${closer})`,
      };
    }
    if (pollError !== undefined) throw pollError;
    return {
      done: false,
      reason: `issue #${issue} is ${state?.state ?? "unknown"}, not ${targetState}`,
      retryHint:
        targetState === "CLOSED"
          ? `Issue #${issue} is still ${state?.state ?? "open"}. The run ends when it is closed: finish the work it asks for, then in the closure step ask for the close (a boundary request with action "close" or "label-and-close", or "action": "close" in your closing output). Do not close it yourself.`
          : `Issue #${issue} is ${state?.state ?? "unknown"}; the run ends when it is ${targetState}.`,
    };
  }

  async confirmAfterBoundary(ctx: {
    readonly signal?: AbortSignal | undefined;
  }): Promise<VerdictDecision> {
    const state = await this.poll(ctx.signal);
    return state.state === this.options.targetState
      ? { done: true, reason: `issue #${this.options.issue} is ${state.state}` }
      : {
          done: false,
          reason: `after the boundary hook, issue #${this.options.issue} is ${state.state}, not ${this.options.targetState}`,
        };
  }

  uvVariables(): Record<string, JsonValue> {
    return this.tracker.uvVariables();
  }

  /** `gh issue view <issue> --json state,labels [--repo R]`, parsed. */
  async poll(signal?: AbortSignal): Promise<IssueState> {
    const { issue, repo, commandRunner, cwd } = this.options;
    const args = ["issue", "view", issue, "--json", "state,labels"];
    if (repo !== undefined) args.push("--repo", repo);
    const outcome = await commandRunner("gh", args, {
      cwd,
      ...(signal === undefined ? {} : { signal }),
    });
    const failure = (why: string): ClimptError =>
      new ClimptError({
        code: COMPLETION_CODES.verdictPollFailed,
        message: `poll:state could not read issue #${issue}: \`gh ${args.join(" ")}\` ${why}.`,
        hint: "Check that gh is installed and authenticated (gh auth status), and that the issue and repo exist.",
      });
    if (outcome.exitCode !== 0) {
      const output = `${outcome.stderr}\n${outcome.stdout}`.trim().slice(0, 500);
      throw failure(`exited ${outcome.exitCode}${output === "" ? "" : `: ${output}`}`);
    }
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(outcome.stdout) as JsonValue;
    } catch {
      throw failure(`printed no JSON (${JSON.stringify(outcome.stdout.slice(0, 200))})`);
    }
    const record = asRecord(parsed);
    if (typeof record?.state !== "string") throw failure("printed JSON without a state");
    const labels = Array.isArray(record.labels)
      ? record.labels
          .map((label) => (typeof label === "string" ? label : asRecord(label)?.name))
          .filter((name): name is string => typeof name === "string")
      : [];
    const state = { state: record.state.toUpperCase(), labels };
    this.lastState = state;
    return state;
  }

  /** Which boundary action will close the issue, if any. */
  private boundaryCloser(ctx: DecideContext): string | undefined {
    const { issue, agent, params } = this.options;
    if (agent !== undefined) {
      const plan = planGithubActions({
        agent,
        params,
        closureOutput: ctx.closureOutput,
        boundaryRequests: ctx.boundaryRequests,
      });
      const planned = plan.actions.find((action) => action.issue === issue);
      return planned !== undefined && closesIssue(planned.action)
        ? `${planned.action} from ${planned.actionSource}`
        : undefined;
    }
    // Without the agent definition: only explicit requests count.
    const request = lastRequestFor(ctx.boundaryRequests, issue);
    if (request !== undefined) {
      return closesIssue(request.action) ? `${request.action} requested` : undefined;
    }
    const action = asRecord(ctx.closureOutput)?.action;
    return isClosureAction(action) && closesIssue(action)
      ? `${action} in the closure output`
      : undefined;
  }
}

function lastRequestFor(
  requests: readonly BoundaryRequest[],
  issue: string,
): BoundaryRequest | undefined {
  let found: BoundaryRequest | undefined;
  for (const request of requests) {
    if (request.issue === undefined || issueText(request.issue) === issue) found = request;
  }
  return found;
}
