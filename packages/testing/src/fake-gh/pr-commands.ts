import { spawnSync } from "node:child_process";
import { headCommitOf, prChecks } from "./check-runs.ts";
import {
  boolFlag,
  type GhFlagSpec,
  GhUsageError,
  intFlag,
  parseGhArgs,
  stringFlag,
  stringsFlag,
} from "./gh-args.ts";
import {
  bodyFrom,
  canonicalLabel,
  done,
  findPullRequest,
  GhCommandError,
  type GhContext,
  type GhOutput,
  jsonOutput,
  parseNumberArg,
  requestedFields,
} from "./gh-context.ts";
import { pullRequestJson } from "./json-fields.ts";
import type { FakeGhPullRequest } from "./state.ts";

const REPO: Record<string, GhFlagSpec> = { repo: { kind: "string", short: "R" } };
const JSON_FLAGS: Record<string, GhFlagSpec> = {
  json: { kind: "string" },
  jq: { kind: "string", short: "q" },
};

/** The branch checked out in the working directory, as gh reads it for `--head`. */
function currentBranch(context: GhContext): string {
  const git = spawnSync("git", ["rev-parse", "--abbrev-ref", "HEAD"], {
    cwd: context.cwd,
    encoding: "utf8",
  });
  if (git.status !== 0)
    throw new GhCommandError("could not determine the current branch: not a git repository");
  return git.stdout.trim();
}

/** A number, a URL, or a head branch name; none means the current branch's pull request. */
function resolvePullRequest(context: GhContext, selector: string | undefined): FakeGhPullRequest {
  if (selector !== undefined && /^(#?\d+|.*\/pull\/\d+.*)$/.test(selector)) {
    return findPullRequest(context, parseNumberArg(selector, "pull request"));
  }
  const branch = selector ?? currentBranch(context);
  const pr = [...context.repo.pullRequests]
    .reverse()
    .find((candidate) => candidate.headRefName === branch);
  if (pr === undefined) throw new GhCommandError(`no pull requests found for branch "${branch}"`);
  return pr;
}

function create(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    title: { kind: "string", short: "t" },
    body: { kind: "string", short: "b" },
    "body-file": { kind: "string", short: "F" },
    base: { kind: "string", short: "B" },
    head: { kind: "string", short: "H" },
    label: { kind: "strings", short: "l" },
  });
  const title = stringFlag(args, "title");
  const body = bodyFrom(context, args);
  if (title === undefined || body === undefined) {
    throw new GhUsageError(
      "must provide `--title` and `--body` (or `--fill`) when not running interactively",
    );
  }
  const head = stringFlag(args, "head") ?? currentBranch(context);
  const base = stringFlag(args, "base") ?? "main";
  const open = context.repo.pullRequests.find(
    (candidate) => candidate.headRefName === head && candidate.state === "OPEN",
  );
  if (open !== undefined) {
    throw new GhCommandError(
      `a pull request for branch "${head}" into branch "${open.baseRefName}" already exists:\nhttps://github.com/${context.repoName}/pull/${open.number}`,
    );
  }
  const number = context.repo.nextNumber++;
  context.repo.pullRequests.push({
    number,
    title,
    body,
    state: "OPEN",
    headRefName: head,
    baseRefName: base,
    labels: stringsFlag(args, "label").map((label) => canonicalLabel(context, label)),
    author: context.state.user,
    createdAt: context.now,
    mergedAt: null,
  });
  return done(`https://github.com/${context.repoName}/pull/${number}\n`);
}

function list(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    ...JSON_FLAGS,
    state: { kind: "string", short: "s" },
    head: { kind: "string", short: "H" },
    base: { kind: "string", short: "B" },
    limit: { kind: "int", short: "L" },
  });
  const state = stringFlag(args, "state") ?? "open";
  if (!["open", "closed", "merged", "all"].includes(state)) {
    throw new GhUsageError(
      `invalid argument "${state}" for "-s, --state" flag: valid values are {open|closed|merged|all}`,
    );
  }
  const head = stringFlag(args, "head");
  const base = stringFlag(args, "base");
  const wantsOid = requestedFields(args)?.includes("headRefOid") === true;
  const headOf = (pr: FakeGhPullRequest) =>
    wantsOid ? { headRefOid: headCommitOf(context, pr) } : {};
  const prs = context.repo.pullRequests
    .filter((pr) => state === "all" || pr.state === state.toUpperCase())
    .filter((pr) => head === undefined || pr.headRefName === head)
    .filter((pr) => base === undefined || pr.baseRefName === base)
    .sort((a, b) => b.number - a.number)
    .slice(0, intFlag(args, "limit") ?? 30);
  const fields = requestedFields(args);
  if (fields !== undefined) {
    return jsonOutput(
      prs.map((pr) => pullRequestJson(context.repoName, context.repo, pr, fields, headOf(pr))),
      args,
    );
  }
  return done(
    prs.map((pr) => `${pr.number}\t${pr.title}\t${pr.headRefName}\t${pr.state}\n`).join(""),
  );
}

function view(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, { ...REPO, ...JSON_FLAGS });
  const pr = resolvePullRequest(context, args.positionals[0]);
  const fields = requestedFields(args);
  if (fields !== undefined) {
    const extra = fields.includes("headRefOid") ? { headRefOid: headCommitOf(context, pr) } : {};
    return jsonOutput(pullRequestJson(context.repoName, context.repo, pr, fields, extra), args);
  }
  return done(
    `title:\t${pr.title}\nstate:\t${pr.state}\nauthor:\t${pr.author}\nnumber:\t${pr.number}\n--\n${pr.body}\n`,
  );
}

function merge(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    merge: { kind: "bool", short: "m" },
    squash: { kind: "bool", short: "s" },
    rebase: { kind: "bool", short: "r" },
    "delete-branch": { kind: "bool", short: "d" },
  });
  const methods = ["merge", "squash", "rebase"].filter((method) => boolFlag(args, method));
  if (methods.length !== 1) {
    throw new GhUsageError(
      "--merge, --rebase, or --squash required when not running interactively",
    );
  }
  const pr = resolvePullRequest(context, args.positionals[0]);
  if (pr.state === "MERGED")
    throw new GhCommandError(`Pull request #${pr.number} was already merged`);
  if (pr.state === "CLOSED") throw new GhCommandError(`Pull request #${pr.number} is closed`);
  pr.state = "MERGED";
  pr.mergedAt = context.now;
  return done("", `✓ Merged pull request #${pr.number} (${pr.title})\n`);
}

function checks(context: GhContext, argv: readonly string[]): GhOutput {
  return prChecks(context, argv, (selector) => resolvePullRequest(context, selector));
}

/** `gh pr <subcommand>`: create, list, view, merge, checks. */
export const PR_COMMANDS: Readonly<
  Record<string, (context: GhContext, argv: readonly string[]) => GhOutput>
> = { create, list, view, merge, checks };
