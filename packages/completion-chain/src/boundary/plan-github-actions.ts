import {
  type AgentDefinition,
  type ClosureAction,
  checkGithubTarget,
  type GithubRunScope,
  type GithubTarget,
  type GithubWrite,
  githubRunScope,
  type JsonValue,
  type Problem,
  problem,
} from "@climpt/model";
import { COMPLETION_CODES } from "../codes.ts";
import {
  asRecord,
  type BoundaryRequest,
  type IssueBoundaryRequest,
  isClosureAction,
  type MergeBoundaryRequest,
  stringList,
} from "./boundary-request.ts";

export interface PlanGithubActionsInput {
  readonly agent: AgentDefinition;
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
  readonly closureOutput: JsonValue;
  readonly boundaryRequests?: readonly BoundaryRequest[] | undefined;
  /**
   * Plan the boundary requests alone, without the config's and the closure output's actions:
   * what the command hook's own `gh` calls recorded, planned after those actions already ran.
   */
  readonly requestsOnly?: boolean | undefined;
}

/** What the hook will do to one issue. */
export interface PlannedIssueAction {
  /** The issue number, as digits. */
  readonly issue: string;
  /** A repository agent.json declares (`-R`); absent: the run's own. */
  readonly repository?: string;
  readonly action: ClosureAction;
  /** Where the action came from: `config` (defaultClosureAction), `output` (`closure_action`), or `request`. */
  readonly actionSource: "config" | "output" | "request";
  readonly addLabels: readonly string[];
  readonly removeLabels: readonly string[];
  /** Posted by `gh issue close`; only when a boundary request asked for it. */
  readonly comment?: string;
  /** `gh issue close --reason`; only when a boundary request asked for it. */
  readonly reason?: "completed" | "not planned";
}

/** A pull request the hook will merge, and the labels it then changes on it. */
export interface PlannedMerge {
  /** The pull request number, as digits. */
  readonly pullRequest: string;
  readonly repository?: string;
  readonly method: MergeBoundaryRequest["method"];
  readonly deleteBranch: boolean;
  readonly addLabels: readonly string[];
  readonly removeLabels: readonly string[];
}

export interface GithubPlan {
  readonly actions: readonly PlannedIssueAction[];
  readonly merges: readonly PlannedMerge[];
  readonly problems: readonly Problem[];
}

interface Draft {
  issue: string;
  repository: string | undefined;
  action: ClosureAction;
  actionSource: PlannedIssueAction["actionSource"];
  add: string[];
  remove: string[];
  comment?: string;
  reason?: "completed" | "not planned";
}

/**
 * Merges the sources of GitHub boundary actions into one plan per issue, without running
 * anything (so `poll:state` can ask what the hook will do), as docs/design.md#the-boundary-hook
 * describes:
 *
 * 1. config: `github.defaultClosureAction` and `github.labels.completion.{add,remove}`, and
 * 2. the closure step's structured output: `closure_action` (close | label-only |
 *    label-and-close) and `issue.labels.{add,remove}`, `issue.number`:
 *    these two apply only when the agent's verdict is `poll:state`, the one verdict whose done
 *    means "the issue reached its state"; other verdicts leave the issue alone;
 * 3. the tools' boundary requests, in order (a later action replaces an earlier one, labels
 *    accumulate): a closure step has the request tools only when its allowedTools list them, so
 *    what they ask for is carried out whatever the verdict; a merge request becomes a planned
 *    merge of its pull request.
 *
 * Everything acts only on what belongs to the run (`checkGithubTarget`): its own issue (the
 * `issue` argument) and pull request (`prNumber` / `pr`) in its own repository, unless agent.json
 * declares more (`integrations.github.targets`). An output `issue.number` or a request naming
 * anything else is dropped with `AC-HOOK-004` (the tools refuse such requests already; this holds
 * if one got here anyway); config and output then apply to the run's own issue. A label both
 * added and removed is added. The hook adds no comment of its own: `gh issue close` carries a
 * comment only when a request asked for one. GitHub integration disabled → no actions.
 */
export function planGithubActions(input: PlanGithubActionsInput): GithubPlan {
  const { agent } = input;
  if (!agent.github.enabled) return { actions: [], merges: [], problems: [] };
  const scope = githubRunScope(agent, input.params);
  const problems: Problem[] = [];
  const output = asRecord(input.closureOutput);
  const outputIssue = asRecord(output?.issue);
  // The run's own issue: `--issue`, else poll:state's config.issue (githubRunScope).
  let defaultIssue = scope.issue === undefined ? undefined : String(scope.issue);
  const named = input.requestsOnly === true ? undefined : issueText(outputIssue?.number);
  if (named !== undefined) {
    // What the hook would do to it: the output's closure_action, else the configured default.
    const outputAction = isClosureAction(output?.closure_action)
      ? output.closure_action
      : agent.github.defaultClosureAction;
    const refused = notTheRuns(
      scope,
      { kind: "issue", number: Number(named), write: writeOf(outputAction) },
      "the closure output's issue.number",
    );
    if (refused === undefined) defaultIssue = named;
    else problems.push(refused);
  }
  const actsOnIssue = agent.verdict.type === "poll:state" && input.requestsOnly !== true;

  const drafts = new Map<string, Draft>();
  const draftFor = (issue: string, repository: string | undefined): Draft => {
    const key = `${repository ?? ""}#${issue}`;
    let draft = drafts.get(key);
    if (draft === undefined) {
      draft = {
        issue,
        repository,
        action: agent.github.defaultClosureAction,
        actionSource: "config",
        add: [],
        remove: [],
      };
      drafts.set(key, draft);
    }
    return draft;
  };

  if (actsOnIssue && defaultIssue !== undefined) {
    const draft = draftFor(defaultIssue, undefined);
    const completion = agent.github.labels.completion;
    draft.add.push(...(completion?.add ?? []));
    draft.remove.push(...(completion?.remove ?? []));
    const closureAction = output?.closure_action;
    if (isClosureAction(closureAction)) {
      draft.action = closureAction;
      draft.actionSource = "output";
    }
    const labels = asRecord(outputIssue?.labels);
    draft.add.push(...stringList(labels?.add));
    draft.remove.push(...stringList(labels?.remove));
  }

  const merges = new Map<string, PlannedMerge>();
  for (const [index, request] of (input.boundaryRequests ?? []).entries()) {
    if (request.action === "merge") {
      const merge = plannedMerge(scope, request, index, problems);
      if (merge !== undefined) {
        const key = `${merge.repository ?? ""}#${merge.pullRequest}`;
        const earlier = merges.get(key);
        merges.set(
          key,
          earlier === undefined
            ? merge
            : {
                ...merge,
                addLabels: unique([...earlier.addLabels, ...merge.addLabels]),
                removeLabels: unique([...earlier.removeLabels, ...merge.removeLabels]),
              },
        );
      }
      continue;
    }
    const issue = request.issue === undefined ? defaultIssue : issueText(request.issue);
    if (issue === undefined) {
      problems.push(
        request.issue === undefined
          ? noIssue(`boundary request ${index} (${request.action})`)
          : badNumber(
              `Boundary request ${index} names issue ${JSON.stringify(request.issue)}`,
              "issue",
            ),
      );
      continue;
    }
    const refused = notTheRuns(
      scope,
      target("issue", issue, writeOf(request.action), request.repository),
      `boundary request ${index} (${request.action})`,
    );
    if (refused !== undefined) {
      problems.push(refused);
      continue;
    }
    applyRequest(draftFor(issue, request.repository), request);
  }

  if (actsOnIssue && drafts.size === 0 && problems.length === 0) {
    problems.push(noIssue("the completed run"));
  }

  const actions: PlannedIssueAction[] = [];
  for (const draft of drafts.values()) {
    const bad = [...draft.add, ...draft.remove].filter((label) => label.trim() === "");
    if (bad.length > 0) {
      problems.push(
        problem(
          COMPLETION_CODES.hookBadRequest,
          `An empty label was requested for issue #${draft.issue}.`,
          {
            hint: "Remove empty strings from github.labels.completion and the closure output's issue.labels.",
          },
        ),
      );
      continue;
    }
    const add = unique(draft.add);
    const remove = unique(draft.remove).filter((label) => !add.includes(label));
    actions.push({
      issue: draft.issue,
      ...(draft.repository === undefined ? {} : { repository: draft.repository }),
      action: draft.action,
      actionSource: draft.actionSource,
      addLabels: add,
      removeLabels: remove,
      ...(draft.comment === undefined ? {} : { comment: draft.comment }),
      ...(draft.reason === undefined ? {} : { reason: draft.reason }),
    });
  }
  return { actions, merges: [...merges.values()], problems };
}

function applyRequest(draft: Draft, request: IssueBoundaryRequest): void {
  draft.action = request.action;
  draft.actionSource = "request";
  draft.add.push(...(request.labels?.add ?? []));
  draft.remove.push(...(request.labels?.remove ?? []));
  if (request.comment !== undefined && request.comment.trim() !== "") {
    draft.comment = request.comment;
  }
  if (request.reason !== undefined) draft.reason = request.reason;
}

function plannedMerge(
  scope: GithubRunScope,
  request: MergeBoundaryRequest,
  index: number,
  problems: Problem[],
): PlannedMerge | undefined {
  const number = issueText(request.pullRequest);
  if (number === undefined) {
    problems.push(
      badNumber(
        `Boundary request ${index} names pull request ${JSON.stringify(request.pullRequest)}`,
        "pull request",
      ),
    );
    return undefined;
  }
  const refused = notTheRuns(
    scope,
    target("pullRequest", number, "merge", request.repository),
    `boundary request ${index} (merge)`,
  );
  if (refused !== undefined) {
    problems.push(refused);
    return undefined;
  }
  const add = unique(request.labels?.add ?? []);
  return {
    pullRequest: number,
    ...(request.repository === undefined ? {} : { repository: request.repository }),
    method: request.method,
    deleteBranch: request.deleteBranch === true,
    addLabels: add,
    removeLabels: unique(request.labels?.remove ?? []).filter((label) => !add.includes(label)),
  };
}

function target(
  kind: GithubTarget["kind"],
  number: string,
  write: GithubWrite,
  repository: string | undefined,
): GithubTarget {
  return {
    kind,
    number: Number(number),
    write,
    ...(repository === undefined ? {} : { repository }),
  };
}

/** A label-only action changes labels; the others close the issue. */
function writeOf(action: ClosureAction): GithubWrite {
  return action === "label-only" ? "label" : "close";
}

/** AC-HOOK-004 when `target` is not the run's, else undefined. */
function notTheRuns(
  scope: GithubRunScope,
  target: GithubTarget,
  what: string,
): Problem | undefined {
  const check = checkGithubTarget(scope, target);
  if (check.ok) return undefined;
  return problem(
    COMPLETION_CODES.hookNotRunsTarget,
    `No GitHub action was taken for ${what}: ${check.reason}`,
    { hint: check.hint },
  );
}

/** A positive issue number as digits, or undefined. */
export function issueText(value: JsonValue | undefined): string | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^[1-9]\d{0,15}$/.test(value.trim())) return value.trim();
  return undefined;
}

function badNumber(what: string, noun: string): Problem {
  return problem(
    COMPLETION_CODES.hookBadRequest,
    `${what}, which is not a positive ${noun} number.`,
    { hint: `Request the action for a numeric ${noun}, e.g. 123.` },
  );
}

function noIssue(what: string): Problem {
  return problem(
    COMPLETION_CODES.hookNoIssue,
    `GitHub integration is enabled but no issue is known for ${what}, so no GitHub action was taken.`,
    {
      hint: "Pass --issue <number>, return issue.number in the closure output, or disable github integration.",
    },
  );
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
