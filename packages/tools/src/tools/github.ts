import { checkGithubTarget, type GithubWrite } from "@climpt/model";
import { describeBoundaryRequest } from "../boundary-request.ts";
import {
  type BuiltinTool,
  failure,
  type PreparedCall,
  success,
  type ToolContext,
} from "../builtin-tool.ts";
import { TOOL_CODES } from "../codes.ts";
import { UNKNOWN_REPOSITORY_HINT, unknownRepositoryReason } from "../github-access.ts";
import { loadExeca } from "../lazy-modules.ts";
import { hostGhEnv } from "../run-repository.ts";
import { capHeadTail } from "../text-cap.ts";
import { defineInput } from "../tool-input.ts";

const GH_TIMEOUT_MS = 60_000;

const DEFERRED_NOTE =
  "Nothing has changed on GitHub yet. The boundary hook performs this once, and only after this closure step returns `closing` and the completion validators pass; if validation fails, the request is dropped and you get a retry prompt instead. Do not try to do it another way (Bash refuses `gh issue close` and `gh api`).";

const issueField = {
  type: "integer",
  required: true,
  minimum: 1,
  description: "The issue number.",
} as const;

/**
 * The run may act only on its own issue unless agent.json declares more: a request for another
 * issue is refused before anything is recorded or posted (TOOL-GH-002), so the model learns at
 * once instead of the boundary hook dropping it later.
 */
function notRunsIssue(
  issue: number,
  write: GithubWrite,
  context: ToolContext,
): PreparedCall | undefined {
  const check = checkGithubTarget(context.github.scope, { kind: "issue", number: issue, write });
  return check.ok
    ? undefined
    : { kind: "refused", code: TOOL_CODES.notRunsTarget, reason: `${check.reason} ${check.hint}` };
}

const commentInput = defineInput({
  issue: issueField,
  body: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "The comment, in GitHub Markdown.",
  },
});

export const githubCommentTool: BuiltinTool = {
  name: "github_comment",
  description:
    "Posts a comment on a GitHub issue now (`gh issue comment`), e.g. to report what was done and how it was verified. This is the only GitHub action that happens immediately.",
  inputSchema: commentInput.schema,
  prepare(raw, context) {
    const parsed = commentInput.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const { issue, body } = parsed.value;
    const refused = notRunsIssue(issue, "comment", context);
    if (refused !== undefined) return refused;
    return {
      kind: "run",
      async run(signal) {
        // The run's repository, as every gh call of the run: never the one gh would pick.
        const repository = await context.github.repository();
        if (!repository.known) {
          return failure(
            TOOL_CODES.unknownRepository,
            `gh was not run: ${unknownRepositoryReason(repository)} ${UNKNOWN_REPOSITORY_HINT}`,
          );
        }
        const { execa } = await loadExeca();
        const result = await execa(
          context.ghCommand,
          ["issue", "comment", String(issue), "--body-file", "-"],
          {
            cwd: context.root.real,
            env: { ...hostGhEnv(context.env), GH_REPO: repository.name },
            extendEnv: false,
            input: body,
            all: true,
            reject: false,
            timeout: GH_TIMEOUT_MS,
            ...(signal === undefined ? {} : { cancelSignal: signal }),
          },
        );
        if (result.exitCode === 0) {
          const url = result.stdout.trim();
          return success(`Commented on issue #${issue}.${url === "" ? "" : ` ${url}`}`);
        }
        if (result.exitCode === undefined) {
          return failure(
            TOOL_CODES.ghFailed,
            `could not run "${context.ghCommand}": ${result.shortMessage}`,
          );
        }
        const output = capHeadTail(result.all.trim(), 4000).text;
        return failure(
          TOOL_CODES.ghFailed,
          `gh issue comment ${issue} exited with code ${result.exitCode}${output === "" ? "." : `:\n${output}`}`,
        );
      },
    };
  },
};

const labelsInput = defineInput({
  issue: issueField,
  add: { type: "string[]", description: "Labels to add." },
  remove: { type: "string[]", description: "Labels to remove." },
});

export const githubEditLabelsTool: BuiltinTool = {
  name: "github_edit_labels",
  description:
    "Requests label changes on a GitHub issue. The change is NOT made now: it is recorded for the boundary hook, which applies it only after this closure step returns `closing` and the run passes validation.",
  inputSchema: labelsInput.schema,
  prepare(raw, context) {
    const parsed = labelsInput.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const { issue, add = [], remove = [] } = parsed.value;
    if (add.length === 0 && remove.length === 0) {
      return { kind: "invalid", problems: ["give at least one label in add or remove."] };
    }
    const refused = notRunsIssue(issue, "label", context);
    if (refused !== undefined) return refused;
    return {
      kind: "run",
      async run() {
        const request = context.boundary.editLabels(issue, add, remove);
        return success(
          `Recorded for the boundary hook: ${describeBoundaryRequest(request)}. ${DEFERRED_NOTE}`,
        );
      },
    };
  },
};

const closeInput = defineInput({
  issue: issueField,
  comment: { type: "string", nonEmpty: true, description: "A closing comment to post with it." },
  add_labels: { type: "string[]", description: "Labels to add when closing." },
  remove_labels: { type: "string[]", description: "Labels to remove when closing." },
});

export const githubCloseIssueTool: BuiltinTool = {
  name: "github_close_issue",
  description:
    "Requests that a GitHub issue be closed (optionally with label changes and a closing comment). The issue is NOT closed now: the request is recorded for the boundary hook, which closes it only after this closure step returns `closing` and the run passes validation.",
  inputSchema: closeInput.schema,
  prepare(raw, context) {
    const parsed = closeInput.parse(raw);
    if (!parsed.ok) return { kind: "invalid", problems: parsed.problems };
    const { issue, comment, add_labels: add = [], remove_labels: remove = [] } = parsed.value;
    const refused = notRunsIssue(issue, "close", context);
    if (refused !== undefined) return refused;
    return {
      kind: "run",
      async run() {
        const request = context.boundary.close(issue, add, remove, comment);
        return success(
          `Recorded for the boundary hook: ${describeBoundaryRequest(request)}. ${DEFERRED_NOTE}`,
        );
      },
    };
  },
};
