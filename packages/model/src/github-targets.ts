/**
 * Which issues, pull requests and repositories a run's GitHub writes may touch
 * (docs/design.md#the-boundary-hook). A run works on one issue (its issue parameter's argument:
 * `issueParameterName`) or one pull
 * request (its `prNumber` / `pr` argument) in one repository (the run's, fixed by the host before
 * the model acts); closing, labelling, commenting and merging anything else needs the agent's
 * declaration in agent.json (`runner.integrations.github.targets`, flat shape `github.targets`).
 * A run with neither an issue nor a pull request of its own (a triager, which labels the issues
 * it finds) may label and comment on any issue of its own repository; closing and merging still
 * need one of its own or a declaration. The gh broker, the GitHub tools and the boundary hook all
 * decide with `checkGithubTarget`, so a request refused at request time is also dropped by the
 * hook if it got there anyway. Pure.
 */

import { DEFAULT_GITHUB_TARGETS, type GithubTargets } from "./github-target-rules.ts";
import { type IssueParameterSource, runIssueArgument } from "./issue-parameter.ts";
import type { JsonValue } from "./json.ts";
import type { GithubIntegration, VerdictSpec } from "./model.ts";

/** What one run's GitHub writes may touch. */
export interface GithubRunScope {
  /**
   * The run's issue: the argument of its issue parameter (`role: "issue"`, else the one named
   * `issue`), else the verdict's `config.issue` (poll:state).
   */
  readonly issue?: number;
  /** The run's pull request: its `prNumber` argument, else its `pr` argument. */
  readonly pullRequest?: number;
  readonly targets: GithubTargets;
}

/**
 * What a write does: `comment` and `label` can be undone and change no state; `close` and
 * `merge` do (an issue closed, a branch merged), so they are never allowed by default outside
 * what the run owns.
 */
export type GithubWrite = "comment" | "label" | "close" | "merge";

/** One thing a write acts on. `repository` absent: the run's own repository. */
export interface GithubTarget {
  readonly kind: "issue" | "pullRequest";
  readonly number: number;
  readonly write: GithubWrite;
  /** Lower-case `owner/repo`, as `normalizeRepository` gives it. */
  readonly repository?: string;
}

export type GithubTargetCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string; readonly hint: string };

/** The run arguments that name the run's own pull request, in the order they are looked at. */
export const PULL_REQUEST_PARAMETERS = ["prNumber", "pr"] as const;

/** A positive whole number from a run argument (`12` or `"12"`), or undefined. */
export function positiveNumber(value: JsonValue | undefined): number | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  }
  if (typeof value === "string" && /^[1-9]\d{0,15}$/.test(value.trim())) {
    const parsed = Number(value.trim());
    return Number.isSafeInteger(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** The scope of a run of an agent with these arguments. */
export function githubRunScope(
  agent: IssueParameterSource & {
    readonly github: Pick<GithubIntegration, "targets">;
    readonly verdict?: Pick<VerdictSpec, "config">;
  },
  params: Readonly<Record<string, JsonValue | undefined>>,
): GithubRunScope {
  // The issue poll:state watches is the run's too: the issue parameter (`issueParameterName`),
  // else the agent's own config.issue.
  const issue =
    positiveNumber(runIssueArgument(agent, params)) ?? positiveNumber(agent.verdict?.config.issue);
  let pullRequest: number | undefined;
  for (const name of PULL_REQUEST_PARAMETERS) {
    pullRequest ??= positiveNumber(params[name]);
  }
  return {
    ...(issue === undefined ? {} : { issue }),
    ...(pullRequest === undefined ? {} : { pullRequest }),
    targets: agent.github.targets ?? DEFAULT_GITHUB_TARGETS,
  };
}

const OWNER = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})";
const NAME = "[A-Za-z0-9._-]{1,100}";
const REPOSITORY_FORMS = [
  new RegExp(`^(${OWNER})/(${NAME})$`),
  new RegExp(`^github\\.com/(${OWNER})/(${NAME})$`, "i"),
  new RegExp(`^https://github\\.com/(${OWNER})/(${NAME})/?$`, "i"),
];

/**
 * `OWNER/REPO`, `github.com/OWNER/REPO` or `https://github.com/OWNER/REPO` as lower-case
 * `owner/repo` (GitHub compares names without case); undefined for anything else: another host,
 * a path, a name with a character GitHub does not allow. `.git` at the end is dropped.
 */
export function normalizeRepository(text: string): string | undefined {
  for (const form of REPOSITORY_FORMS) {
    const match = form.exec(text);
    if (match === null) continue;
    const owner = match[1] as string;
    const name = (match[2] as string).replace(/\.git$/i, "");
    if (name === "" || name === "." || name === "..") return undefined;
    return `${owner}/${name}`.toLowerCase();
  }
  return undefined;
}

const DECLARE_HINT =
  'Act only on the run\'s own issue (its --issue argument) or pull request (its --pr-number argument), or declare more in agent.json: runner.integrations.github.targets (flat shape: github.targets), e.g. { "issues": "any" } or { "repositories": ["owner/other"], "issues": "any" }.';

/**
 * Whether a write may act on `target` in a run with `scope`. `ownRepository` is the run's
 * repository (lower-case `owner/repo`), when it is known: a target that names it counts as the
 * run's repository; without it, only declared repositories can be named. In its own repository a
 * run may act on its own issue and pull request, on every one an `any` rule allows, and — when
 * it has neither an issue nor a pull request of its own — comment on and label any issue.
 */
export function checkGithubTarget(
  scope: GithubRunScope,
  target: GithubTarget,
  ownRepository?: string,
): GithubTargetCheck {
  const what = target.kind === "issue" ? "issue" : "pull request";
  const where = target.repository;
  const inOwnRepository = where === undefined || where === ownRepository;
  if (!inOwnRepository && !scope.targets.repositories.includes(where)) {
    return {
      ok: false,
      reason: `${what} #${target.number} of ${where} is not in the run's repository${ownRepository === undefined ? "" : ` (${ownRepository})`}, and agent.json declares no other repository by that name.`,
      hint: DECLARE_HINT,
    };
  }
  const rule = target.kind === "issue" ? scope.targets.issues : scope.targets.pullRequests;
  if (rule === "any") return { ok: true };
  const own = target.kind === "issue" ? scope.issue : scope.pullRequest;
  if (inOwnRepository && own === target.number) return { ok: true };
  if (inOwnRepository && unattachedMayDo(scope, target)) return { ok: true };
  const ownText =
    own === undefined
      ? `this run has no ${what} of its own (no ${target.kind === "issue" ? "--issue" : "--pr-number"} argument)`
      : `this run's ${what} is #${own}${inOwnRepository ? "" : " of its own repository"}`;
  const unattached =
    scope.issue === undefined && scope.pullRequest === undefined && target.kind === "issue"
      ? ` A run without an issue or pull request of its own may comment on and label any issue of its repository, but closing one needs an issue of its own or a declaration.`
      : "";
  return {
    ok: false,
    reason: `${what} #${target.number}${where === undefined ? "" : ` of ${where}`} is not the run's: ${ownText}.${unattached}`,
    hint: DECLARE_HINT,
  };
}

/**
 * The default of a run that owns nothing (no issue, no pull request): the original's triager
 * labels the open issues it finds, unchanged from its agent.json. Comments and labels on issues
 * of its own repository only; a close or a merge would end someone else's work.
 */
function unattachedMayDo(scope: GithubRunScope, target: GithubTarget): boolean {
  return (
    scope.issue === undefined &&
    scope.pullRequest === undefined &&
    target.kind === "issue" &&
    (target.write === "comment" || target.write === "label")
  );
}
