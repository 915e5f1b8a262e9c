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
  findIssue,
  type GhContext,
  type GhOutput,
  jsonOutput,
  parseNumberArg,
  requestedFields,
} from "./gh-context.ts";
import { issueJson } from "./json-fields.ts";
import type { FakeGhIssue } from "./state.ts";

const REPO: Record<string, GhFlagSpec> = { repo: { kind: "string", short: "R" } };
const JSON_FLAGS: Record<string, GhFlagSpec> = {
  json: { kind: "string" },
  jq: { kind: "string", short: "q" },
};

function touch(context: GhContext, issue: FakeGhIssue): void {
  issue.updatedAt = context.now;
}

function addComment(context: GhContext, issue: FakeGhIssue, body: string): number {
  const id = context.repo.nextCommentId++;
  issue.comments.push({ id, author: context.state.user, body, createdAt: context.now });
  touch(context, issue);
  return id;
}

function issueUrl(context: GhContext, number: number): string {
  return `https://github.com/${context.repoName}/issues/${number}`;
}

function list(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    ...JSON_FLAGS,
    state: { kind: "string", short: "s" },
    label: { kind: "strings", short: "l" },
    limit: { kind: "int", short: "L" },
  });
  const state = stringFlag(args, "state") ?? "open";
  if (!["open", "closed", "all"].includes(state)) {
    throw new GhUsageError(
      `invalid argument "${state}" for "-s, --state" flag: valid values are {open|closed|all}`,
    );
  }
  const limit = intFlag(args, "limit") ?? 30;
  if (limit < 1) throw new GhUsageError(`invalid limit: ${limit}`);
  const wanted = stringsFlag(args, "label").map((label) => label.toLowerCase());
  const issues = context.repo.issues
    .filter((issue) => state === "all" || issue.state === state.toUpperCase())
    .filter((issue) => {
      const have = new Set(issue.labels.map((label) => label.toLowerCase()));
      return wanted.every((label) => have.has(label));
    })
    .sort((a, b) => b.number - a.number)
    .slice(0, limit);
  const fields = requestedFields(args);
  if (fields !== undefined) {
    return jsonOutput(
      issues.map((issue) => issueJson(context.repoName, context.repo, issue, fields)),
      args,
    );
  }
  return done(
    issues
      .map(
        (issue) =>
          `${issue.number}\t${issue.state}\t${issue.title}\t${issue.labels.join(", ")}\t${issue.updatedAt}\n`,
      )
      .join(""),
  );
}

function view(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    ...JSON_FLAGS,
    comments: { kind: "bool", short: "c" },
  });
  const issue = findIssue(context, parseNumberArg(args.positionals[0], "issue"));
  const fields = requestedFields(args);
  if (fields !== undefined) {
    return jsonOutput(issueJson(context.repoName, context.repo, issue, fields), args);
  }
  if (boolFlag(args, "comments")) {
    return done(
      issue.comments
        .map(
          (comment) =>
            `author:\t${comment.author}\nassociation:\towner\nedited:\tfalse\nstatus:\tnone\n--\n${comment.body}\n--\n`,
        )
        .join(""),
    );
  }
  return done(
    [
      `title:\t${issue.title}`,
      `state:\t${issue.state}`,
      `author:\t${issue.author}`,
      `labels:\t${issue.labels.join(", ")}`,
      `comments:\t${issue.comments.length}`,
      "assignees:\t",
      "projects:\t",
      "milestone:\t",
      `number:\t${issue.number}`,
      "--",
      issue.body,
      "",
    ].join("\n"),
  );
}

function create(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    title: { kind: "string", short: "t" },
    body: { kind: "string", short: "b" },
    "body-file": { kind: "string", short: "F" },
    label: { kind: "strings", short: "l" },
  });
  const title = stringFlag(args, "title");
  if (title === undefined || title.trim() === "") {
    throw new GhUsageError("must provide `--title` and `--body` when not running interactively");
  }
  const body = bodyFrom(context, args) ?? "";
  const labels = stringsFlag(args, "label").map((label) => canonicalLabel(context, label));
  const number = context.repo.nextNumber++;
  context.repo.issues.push({
    number,
    title,
    body,
    state: "OPEN",
    stateReason: null,
    labels: [...new Set(labels)],
    comments: [],
    author: context.state.user,
    createdAt: context.now,
    updatedAt: context.now,
    closedAt: null,
  });
  return done(`${issueUrl(context, number)}\n`);
}

function edit(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    "add-label": { kind: "strings" },
    "remove-label": { kind: "strings" },
    title: { kind: "string", short: "t" },
    body: { kind: "string", short: "b" },
    "body-file": { kind: "string", short: "F" },
  });
  const issue = findIssue(context, parseNumberArg(args.positionals[0], "issue"));
  const add = stringsFlag(args, "add-label");
  const remove = stringsFlag(args, "remove-label");
  const title = stringFlag(args, "title");
  const body = bodyFrom(context, args);
  if (add.length === 0 && remove.length === 0 && title === undefined && body === undefined) {
    throw new GhUsageError("nothing to edit; specify at least one flag such as --add-label");
  }
  // Every label is checked before anything changes: gh sends one update, which fails whole.
  const adding = add.map((label) => canonicalLabel(context, label));
  const removing = new Set(remove.map((label) => label.toLowerCase()));
  const labels = issue.labels.filter((label) => !removing.has(label.toLowerCase()));
  for (const label of adding) {
    if (!labels.some((have) => have.toLowerCase() === label.toLowerCase())) labels.push(label);
  }
  issue.labels = labels;
  if (title !== undefined) issue.title = title;
  if (body !== undefined) issue.body = body;
  touch(context, issue);
  return done(`${issueUrl(context, issue.number)}\n`);
}

function close(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    comment: { kind: "string", short: "c" },
    reason: { kind: "string", short: "r" },
  });
  const issue = findIssue(context, parseNumberArg(args.positionals[0], "issue"));
  const reason = stringFlag(args, "reason") ?? "completed";
  if (!["completed", "not planned"].includes(reason)) {
    throw new GhUsageError(
      `invalid argument "${reason}" for "-r, --reason" flag: valid values are {completed|not planned}`,
    );
  }
  if (issue.state === "CLOSED") {
    return done("", `! Issue #${issue.number} (${issue.title}) is already closed\n`);
  }
  const comment = stringFlag(args, "comment");
  if (comment !== undefined) addComment(context, issue, comment);
  issue.state = "CLOSED";
  issue.stateReason = reason === "completed" ? "COMPLETED" : "NOT_PLANNED";
  issue.closedAt = context.now;
  touch(context, issue);
  return done("", `✓ Closed issue #${issue.number} (${issue.title})\n`);
}

function reopen(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, { ...REPO, comment: { kind: "string", short: "c" } });
  const issue = findIssue(context, parseNumberArg(args.positionals[0], "issue"));
  if (issue.state === "OPEN") {
    return done("", `! Issue #${issue.number} (${issue.title}) is already open\n`);
  }
  const comment = stringFlag(args, "comment");
  if (comment !== undefined) addComment(context, issue, comment);
  issue.state = "OPEN";
  issue.stateReason = "REOPENED";
  issue.closedAt = null;
  touch(context, issue);
  return done("", `✓ Reopened issue #${issue.number} (${issue.title})\n`);
}

function comment(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, {
    ...REPO,
    body: { kind: "string", short: "b" },
    "body-file": { kind: "string", short: "F" },
  });
  const issue = findIssue(context, parseNumberArg(args.positionals[0], "issue"));
  const body = bodyFrom(context, args);
  if (body === undefined || body.trim() === "") {
    throw new GhUsageError("`--body` or `--body-file` required when not running interactively");
  }
  const id = addComment(context, issue, body);
  return done(`${issueUrl(context, issue.number)}#issuecomment-${id}\n`);
}

/** `gh issue <subcommand>`: list, view, create, edit, close, reopen, comment. */
export const ISSUE_COMMANDS: Readonly<
  Record<string, (context: GhContext, argv: readonly string[]) => GhOutput>
> = { list, view, create, edit, close, reopen, comment };
