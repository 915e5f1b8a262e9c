import {
  type AgentDefinition,
  type ClosureAction,
  type JsonValue,
  type Problem,
  problem,
} from "@climpt/model";
import { COMPLETION_CODES } from "../codes.ts";
import { asRecord, type BoundaryRequest, isClosureAction, stringList } from "./boundary-request.ts";

export interface PlanGithubActionsInput {
  readonly agent: AgentDefinition;
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
  readonly closureOutput: JsonValue;
  readonly boundaryRequests?: readonly BoundaryRequest[] | undefined;
}

/** What the hook will do to one issue. */
export interface PlannedIssueAction {
  /** The issue number, as digits. */
  readonly issue: string;
  readonly action: ClosureAction;
  /** Where the action came from: `config` (defaultClosureAction), `output` (`closure_action`), or `request`. */
  readonly actionSource: "config" | "output" | "request";
  readonly addLabels: readonly string[];
  readonly removeLabels: readonly string[];
  /** Posted by `gh issue close`; only when a boundary request asked for it. */
  readonly comment?: string;
}

export interface GithubPlan {
  readonly actions: readonly PlannedIssueAction[];
  readonly problems: readonly Problem[];
}

interface Draft {
  action: ClosureAction;
  actionSource: PlannedIssueAction["actionSource"];
  add: string[];
  remove: string[];
  comment?: string;
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
 *    what they ask for is carried out whatever the verdict.
 *
 * Config and output apply to the run's issue (`issue.number` of the output, else the `issue`
 * parameter); a request may name another issue, which then gets only that request's labels.
 * A label both added and removed is added. The hook adds no comment of its own: `gh issue close`
 * carries a comment only when a request asked for one. GitHub integration disabled → no actions.
 */
export function planGithubActions(input: PlanGithubActionsInput): GithubPlan {
  const { agent } = input;
  if (!agent.github.enabled) return { actions: [], problems: [] };
  const problems: Problem[] = [];
  const output = asRecord(input.closureOutput);
  const outputIssue = asRecord(output?.issue);
  const defaultIssue = issueText(outputIssue?.number) ?? issueText(input.params.issue);
  const actsOnIssue = agent.verdict.type === "poll:state";

  const drafts = new Map<string, Draft>();
  const draftFor = (issue: string): Draft => {
    let draft = drafts.get(issue);
    if (draft === undefined) {
      draft = {
        action: agent.github.defaultClosureAction,
        actionSource: "config",
        add: [],
        remove: [],
      };
      drafts.set(issue, draft);
    }
    return draft;
  };

  if (actsOnIssue && defaultIssue !== undefined) {
    const draft = draftFor(defaultIssue);
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

  for (const [index, request] of (input.boundaryRequests ?? []).entries()) {
    const issue = request.issue === undefined ? defaultIssue : issueText(request.issue);
    if (issue === undefined) {
      problems.push(
        request.issue === undefined
          ? noIssue(`boundary request ${index} (${request.action})`)
          : problem(
              COMPLETION_CODES.hookBadRequest,
              `Boundary request ${index} names issue ${JSON.stringify(request.issue)}, which is not a positive issue number.`,
              { hint: "Request the action for a numeric issue, e.g. 123." },
            ),
      );
      continue;
    }
    const draft = draftFor(issue);
    draft.action = request.action;
    draft.actionSource = "request";
    draft.add.push(...(request.labels?.add ?? []));
    draft.remove.push(...(request.labels?.remove ?? []));
    if (request.comment !== undefined && request.comment.trim() !== "") {
      draft.comment = request.comment;
    }
  }

  if (actsOnIssue && drafts.size === 0 && problems.length === 0) {
    problems.push(noIssue("the completed run"));
  }

  const actions: PlannedIssueAction[] = [];
  for (const [issue, draft] of drafts) {
    const bad = [...draft.add, ...draft.remove].filter((label) => label.trim() === "");
    if (bad.length > 0) {
      problems.push(
        problem(
          COMPLETION_CODES.hookBadRequest,
          `An empty label was requested for issue #${issue}.`,
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
      issue,
      action: draft.action,
      actionSource: draft.actionSource,
      addLabels: add,
      removeLabels: remove,
      ...(draft.comment === undefined ? {} : { comment: draft.comment }),
    });
  }
  return { actions, problems };
}

/** A positive issue number as digits, or undefined. */
export function issueText(value: JsonValue | undefined): string | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^[1-9]\d*$/.test(value.trim())) return value.trim();
  return undefined;
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
