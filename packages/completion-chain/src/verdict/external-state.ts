import {
  type AgentDefinition,
  ClimptError,
  type ClosureAction,
  type JsonValue,
} from "@climpt/model";
import {
  asRecord,
  type BoundaryRequest,
  closesIssue,
  type IssueBoundaryRequest,
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
 * Closing the issue or changing its labels is a boundary action, which only the hook may take
 * after `done`. So the decision also looks at what the hook will do (its plan, from the agent
 * definition, the closure output's `closure_action` and the boundary requests):
 *
 * - the hook will close the issue: done with `awaitsBoundary: true`; `confirmAfterBoundary`
 *   polls again and wants the target state;
 * - the closure action is `label-only`: the state the hook produces is the labels, so done
 *   (with `awaitsBoundary: true` when it has labels to apply; `confirmAfterBoundary` then wants
 *   them on the issue), whatever the issue's open/closed state (docs/design.md#verdicts).
 */
export class ExternalStateVerdict implements VerdictStrategy {
  readonly type = "poll:state";
  private readonly tracker = new IterationTracker();
  lastState: IssueState | undefined;
  /** What `confirmAfterBoundary` checks: the target state, or the labels a label-only hook applies. */
  private expected: Expectation = { kind: "state" };

  constructor(private readonly options: ExternalStateOptions) {}

  observe(record: IterationRecord): void {
    this.tracker.observe(record);
  }

  async afterIteration(): Promise<AfterIterationAnswer | undefined> {
    return undefined;
  }

  async decide(ctx: DecideContext): Promise<VerdictDecision> {
    const { issue, targetState } = this.options;
    this.expected = { kind: "state" };
    if (!ctx.validation.passed) {
      return { done: false, reason: `closure step "${ctx.closureStepId}" did not pass validation` };
    }
    const planned = this.plannedAction(ctx);
    if (planned?.action === "label-only") {
      const labels = { add: planned.addLabels, remove: planned.removeLabels };
      const applies = labels.add.length + labels.remove.length > 0;
      this.expected = { kind: "labels", ...labels };
      return {
        done: true,
        ...(applies ? { awaitsBoundary: true } : {}),
        reason: applies
          ? `the closure action for issue #${issue} is label-only (${planned.source}); done once the boundary hook applied ${describeLabels(labels)}`
          : `the closure action for issue #${issue} is label-only (${planned.source}) with no labels to change`,
      };
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
    if (targetState === "CLOSED" && planned !== undefined && closesIssue(planned.action)) {
      return {
        done: true,
        awaitsBoundary: true,
        reason: `issue #${issue} is ${state?.state ?? "not readable now"}; the boundary hook will close it (${planned.action} from ${planned.source})`,
      };
    }
    if (pollError !== undefined) throw pollError;
    return {
      done: false,
      reason: `issue #${issue} is ${state?.state ?? "unknown"}, not ${targetState}`,
      retryHint:
        targetState === "CLOSED"
          ? `Issue #${issue} is still ${state?.state ?? "open"}. The run ends when it is closed: finish the work it asks for, then say closing from the closure step with "closure_action": "close" (or "label-and-close") in your output. Do not close it yourself.`
          : `Issue #${issue} is ${state?.state ?? "unknown"}; the run ends when it is ${targetState}.`,
    };
  }

  async confirmAfterBoundary(ctx: {
    readonly signal?: AbortSignal | undefined;
  }): Promise<VerdictDecision> {
    const { issue, targetState } = this.options;
    const state = await this.poll(ctx.signal);
    const expected = this.expected;
    if (expected.kind === "labels") {
      const have = new Set(state.labels.map((label) => label.toLowerCase()));
      const missing = expected.add.filter((label) => !have.has(label.toLowerCase()));
      const left = expected.remove.filter((label) => have.has(label.toLowerCase()));
      if (missing.length === 0 && left.length === 0) {
        return { done: true, reason: `issue #${issue} carries ${describeLabels(expected)}` };
      }
      return {
        done: false,
        reason: `after the boundary hook, issue #${issue} ${[
          missing.length > 0 ? `lacks ${missing.map((l) => `"${l}"`).join(", ")}` : "",
          left.length > 0 ? `still has ${left.map((l) => `"${l}"`).join(", ")}` : "",
        ]
          .filter((part) => part !== "")
          .join(" and ")}`,
      };
    }
    return state.state === targetState
      ? { done: true, reason: `issue #${issue} is ${state.state}` }
      : {
          done: false,
          reason: `after the boundary hook, issue #${issue} is ${state.state}, not ${targetState}`,
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

  /** What the boundary hook will do to this run's issue, if anything. */
  private plannedAction(ctx: DecideContext): PlannedOutcome | undefined {
    const { issue, agent, params } = this.options;
    if (agent !== undefined) {
      const plan = planGithubActions({
        agent,
        params,
        closureOutput: ctx.closureOutput,
        boundaryRequests: ctx.boundaryRequests,
      });
      const planned = plan.actions.find(
        (action) => action.issue === issue && action.repository === undefined,
      );
      return planned === undefined
        ? undefined
        : {
            action: planned.action,
            source: planned.actionSource === "output" ? "closure_action" : planned.actionSource,
            addLabels: planned.addLabels,
            removeLabels: planned.removeLabels,
          };
    }
    // Without the agent definition: only explicit requests and the output's closure_action count.
    const request = lastRequestFor(ctx.boundaryRequests, issue);
    if (request !== undefined) {
      return {
        action: request.action,
        source: "request",
        addLabels: request.labels?.add ?? [],
        removeLabels: request.labels?.remove ?? [],
      };
    }
    const action = asRecord(ctx.closureOutput)?.closure_action;
    return isClosureAction(action)
      ? { action, source: "closure_action", addLabels: [], removeLabels: [] }
      : undefined;
  }
}

type Expectation =
  | { readonly kind: "state" }
  | {
      readonly kind: "labels";
      readonly add: readonly string[];
      readonly remove: readonly string[];
    };

interface PlannedOutcome {
  readonly action: ClosureAction;
  readonly source: string;
  readonly addLabels: readonly string[];
  readonly removeLabels: readonly string[];
}

function describeLabels(labels: {
  readonly add: readonly string[];
  readonly remove: readonly string[];
}): string {
  const parts = [
    ...labels.add.map((label) => `+"${label}"`),
    ...labels.remove.map((label) => `-"${label}"`),
  ];
  return parts.length === 0 ? "no label changes" : `labels ${parts.join(" ")}`;
}

function lastRequestFor(
  requests: readonly BoundaryRequest[],
  issue: string,
): IssueBoundaryRequest | undefined {
  let found: IssueBoundaryRequest | undefined;
  for (const request of requests) {
    // Merges are about pull requests; a request in another repository is not about this issue.
    if (request.action === "merge" || request.repository !== undefined) continue;
    if (request.issue === undefined || issueText(request.issue) === issue) found = request;
  }
  return found;
}
