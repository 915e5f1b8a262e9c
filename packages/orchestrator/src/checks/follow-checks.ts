import type { SecretScrubber } from "@climpt/model";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import { issueBranch } from "../dispatch/issue-worktree.ts";
import type { OrchestratorContext } from "../orchestrate/issue-types.ts";
import { fallbackPhaseOf } from "../phase-machine/decide-transition.ts";
import {
  commentMarker,
  commentTemplateFor,
  renderTemplate,
  withMarker,
} from "../phase-machine/handoff-comment.ts";
import { labelChanges } from "../phase-machine/label-changes.ts";
import type { ChecksWait, IssueRecord, PendingTransition } from "../state/issue-record.ts";
import {
  type PhaseChecks,
  phaseById,
  type WorkflowAgent,
  type WorkflowPhase,
} from "../workflow-model.ts";
import {
  checkLogsText,
  checkName,
  checksList,
  ciScrubber,
  failedChecksText,
  safeLink,
} from "./check-text.ts";
import {
  checksOf,
  failedLogOf,
  type IssuePullRequest,
  type PullRequestCheck,
  pullRequestOf,
} from "./gh-checks.ts";

/** Outcomes a `checks` phase reaches without a run of its agent. */
export const CHECKS_PASSED = "checks-passed";
export const CHECKS_TIMEOUT = "checks-timeout";
export const CHECKS_FAILED = "checks-failed";
export const CHECKS_NO_PULL_REQUEST = "checks-no-pull-request";
/** Logs read for at most this many failing checks (each one is a `gh run view`). */
const LOGS_READ = 5;

/** What the issue in a `checks` phase does next. */
export type ChecksStep =
  /** Run the fix agent with these arguments (also: resume the fix run a kill interrupted). */
  | { readonly kind: "fix"; readonly args: Readonly<Record<string, string>> }
  /** Checks pending: read them again after this long (the issue keeps its phase). */
  | { readonly kind: "wait"; readonly retryAfterMs: number; readonly error: OrchestratorError }
  /** All passed (to `outputPhase`), or the wait ended (to the fallback phase). */
  | {
      readonly kind: "transition";
      readonly transition: PendingTransition;
      readonly reason: OrchestratorError | null;
    }
  /** It should go to the fallback, and there is none: held in the phase. */
  | { readonly kind: "halt"; readonly error: OrchestratorError; readonly comment: string }
  /** gh failed: the issue keeps its phase, the next pass reads again. */
  | { readonly kind: "error"; readonly error: OrchestratorError };

export interface ChecksPlace {
  readonly issue: number;
  readonly phase: WorkflowPhase;
  readonly checks: PhaseChecks;
  readonly agent: WorkflowAgent;
  readonly labels: readonly string[];
}

interface Follower {
  readonly context: OrchestratorContext;
  readonly record: IssueRecord;
  save(record: IssueRecord): Promise<void>;
}

/**
 * One look at the pull request of an issue in a `checks` phase: the wait is kept in the issue's
 * record (its head commit, since when, the fix attempts made), so a later pass — after a kill,
 * on another worker — goes on from there. Green → `outputPhase`; pending → wait (bounded by
 * `timeoutMinutes` per head commit); red → the fix agent (bounded by `maxFixAttempts`), given the
 * failing checks' names and log tails; anything else → the fallback phase with a comment.
 */
export async function followChecks(
  follower: Follower,
  place: ChecksPlace,
  now: () => number = Date.now,
): Promise<ChecksStep> {
  const { context } = follower;
  const kept = follower.record.checksWait;
  const previous = kept?.phase === place.phase.id ? kept : null;
  const inFlight = follower.record.inFlight;
  if (
    previous?.fix &&
    inFlight !== null &&
    inFlight.phase === place.phase.id &&
    inFlight.agent === place.agent.id &&
    inFlight.transition === null
  )
    return { kind: "fix", args: previous.fix };
  const found = await pullRequestOf(context.gh, issueBranch(place.issue));
  if (!found.ok) return { kind: "error", error: found.error };
  const scrubber = ciScrubber(process.env);
  if (found.value === null) {
    const error: OrchestratorError = {
      code: C.checksNoPullRequest,
      message: `No open pull request has the head branch "${issueBranch(place.issue)}", so its checks cannot be followed.`,
      hint: 'Land the phase before with "land": { "mode": "pull-request" } (or open the pull request by hand), then relabel.',
    };
    return fallback(context, place, CHECKS_NO_PULL_REQUEST, error, null, [], scrubber, "none", 0);
  }
  const pr = found.value;
  let wait: ChecksWait =
    previous !== null && previous.headSha === pr.headSha
      ? previous
      : {
          phase: place.phase.id,
          pullRequest: pr.url,
          number: pr.number,
          headSha: pr.headSha,
          since: new Date(now()).toISOString(),
          attempts: previous?.attempts ?? 0,
          fix: null,
        };
  if (wait !== previous) await follower.save({ ...follower.record, checksWait: wait });
  const read = await checksOf(context.gh, pr.number);
  if (!read.ok) return { kind: "error", error: read.error };
  const all = read.value;
  const red = all.filter((check) => check.bucket === "fail" || check.bucket === "cancel");
  const pending = all.filter((check) => check.bucket === "pending");
  const shortSha = pr.headSha.slice(0, 12);
  if (all.length > 0 && red.length === 0 && pending.length === 0)
    return passed(context, place, pr, all, scrubber);
  const deadline = Date.parse(wait.since) + place.checks.timeoutMinutes * 60_000;
  // Fix only once nothing is pending: a failed job's log is there when its run completed, and
  // the fix then sees every failure of the head at once.
  if (red.length > 0 && pending.length === 0) {
    if (wait.attempts >= place.checks.maxFixAttempts) {
      const error: OrchestratorError = {
        code: C.checksStillFailing,
        message: `${describeChecks(red)} failed on ${pr.url} (head ${shortSha}) after ${wait.attempts} fix attempt(s) (checks.maxFixAttempts is ${place.checks.maxFixAttempts}).`,
        hint: "Fix the branch by hand and relabel, or relabel to give the fix agent new attempts.",
      };
      return fallback(
        context,
        place,
        CHECKS_FAILED,
        error,
        pr,
        red,
        scrubber,
        shortSha,
        wait.attempts,
      );
    }
    const logs: { check: PullRequestCheck; log: string }[] = [];
    for (const check of red.slice(0, LOGS_READ))
      logs.push({ check, log: await failedLogOf(context.gh, check) });
    const args = {
      failedChecks: failedChecksText(red),
      checkLogs: checkLogsText(logs, scrubber),
      pullRequest: pr.url,
    };
    wait = { ...wait, attempts: wait.attempts + 1, fix: args };
    await follower.save({ ...follower.record, checksWait: wait });
    return { kind: "fix", args };
  }
  if (now() >= deadline) {
    const waiting = pending.length > 0 ? pending : red;
    const error: OrchestratorError = {
      code: C.checksTimedOut,
      message:
        all.length === 0
          ? `No check was reported for ${pr.url} (head ${shortSha}) within ${place.checks.timeoutMinutes} minute(s).`
          : `${describeChecks(pending)} of ${pr.url} (head ${shortSha}) ${pending.length === 1 ? "was" : "were"} still pending after ${place.checks.timeoutMinutes} minute(s)${red.length > 0 ? `; ${describeChecks(red)} failed` : ""}.`,
      hint: "Look at the CI run; raise checks.timeoutMinutes if CI is only slow; relabel to wait again.",
    };
    return fallback(
      context,
      place,
      CHECKS_TIMEOUT,
      error,
      pr,
      waiting,
      scrubber,
      shortSha,
      wait.attempts,
    );
  }
  return {
    kind: "wait",
    retryAfterMs: Math.max(1, Math.min(place.checks.pollSeconds * 1000, deadline - now())),
    error: {
      code: C.checksPending,
      message: `Waiting for ${all.length === 0 ? "the checks to start" : describeChecks(pending).replace(/^The/, "the")} on ${pr.url} (head ${shortSha}).`,
    },
  };
}

/** Names for messages (JSON-quoted: names are CI's text), at most three. */
function describeChecks(checks: readonly PullRequestCheck[]): string {
  const names = checks.slice(0, 3).map((check) => JSON.stringify(checkName(check.name)));
  const more = checks.length > 3 ? ` and ${checks.length - 3} more` : "";
  return `${checks.length === 1 ? "The check" : "The checks"} ${names.join(", ")}${more}`;
}

function transitionTo(
  context: OrchestratorContext,
  place: ChecksPlace,
  target: WorkflowPhase,
  outcome: string,
  body: string,
  key: string,
): PendingTransition {
  const change = labelChanges(context.workflow, place.labels, target);
  const marker = commentMarker(place.issue, `${key}-${outcome}`, "checks");
  const agent = place.agent;
  return {
    from: place.phase.id,
    to: target.id,
    agent: agent.id,
    outcome,
    runId: null,
    add: change.add,
    remove: change.remove,
    comment: withMarker(body, marker),
    marker,
    close:
      target.type === "terminal" &&
      agent.closeOnComplete &&
      (agent.closeCondition === null || agent.closeCondition === outcome),
  };
}

function passed(
  context: OrchestratorContext,
  place: ChecksPlace,
  pr: IssuePullRequest,
  checks: readonly PullRequestCheck[],
  scrubber: SecretScrubber,
): ChecksStep {
  const agent = place.agent;
  const targetId = agent.role === "transformer" ? agent.outputPhase : "";
  const target = phaseById(context.workflow, targetId);
  if (target === undefined) {
    const error: OrchestratorError = {
      code: C.refUnknownOutputPhase,
      message: `Agent "${agent.id}" of phase "${place.phase.id}" has no outputPhase to go to when the checks pass.`,
    };
    return { kind: "error", error };
  }
  const link = safeLink(pr.url) ?? `#${pr.number}`;
  const template = commentTemplateFor(context.workflow, agent.id, CHECKS_PASSED);
  const list = checksList(checks, scrubber);
  const body =
    template === null
      ? `Every check of ${link} passed on ${pr.headSha.slice(0, 12)}: climpt moved this issue from \`${place.phase.id}\` to \`${target.id}\`.\n\n${list}`
      : renderTemplate(template.text, {
          issue: String(place.issue),
          agent: agent.id,
          phase: place.phase.id,
          next_phase: target.id,
          outcome: CHECKS_PASSED,
          pull_request: link,
          head: pr.headSha,
          checks: list,
        });
  return {
    kind: "transition",
    transition: transitionTo(context, place, target, CHECKS_PASSED, body, pr.headSha.slice(0, 12)),
    reason: null,
  };
}

function fallback(
  context: OrchestratorContext,
  place: ChecksPlace,
  outcome: string,
  error: OrchestratorError,
  pr: IssuePullRequest | null,
  checks: readonly PullRequestCheck[],
  scrubber: SecretScrubber,
  key: string,
  attempts: number,
): ChecksStep {
  const target = fallbackPhaseOf(context.workflow, place.agent);
  const link = pr === null ? null : (safeLink(pr.url) ?? `#${pr.number}`);
  const what: Record<string, string> = {
    [CHECKS_NO_PULL_REQUEST]: `no open pull request has the head branch \`${issueBranch(place.issue)}\`, so there are no checks to follow.`,
    [CHECKS_TIMEOUT]: `the checks of ${link} did not all finish within ${place.checks.timeoutMinutes} minute(s) (head ${key}).`,
    [CHECKS_FAILED]: `checks of ${link} still fail after ${attempts} fix attempt(s) (head ${key}).`,
  };
  const head =
    target === null
      ? `climpt holds this issue in \`${place.phase.id}\`: ${what[outcome]}`
      : `climpt moved this issue from \`${place.phase.id}\` to \`${target.id}\`: ${what[outcome]}`;
  const body = [
    head,
    checks.length === 0 ? null : checksList(checks, scrubber),
    `${error.code}. Fix: ${error.hint ?? ""}`,
  ]
    .filter((part) => part !== null)
    .join("\n\n");
  if (target === null) {
    return {
      kind: "halt",
      error,
      comment: withMarker(body, commentMarker(place.issue, `${key}-${outcome}`, "halted")),
    };
  }
  return {
    kind: "transition",
    transition: transitionTo(context, place, target, outcome, body, key),
    reason: error,
  };
}
