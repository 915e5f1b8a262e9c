import type { FakeGhIssue, FakeGhLabel, FakeGhPullRequest, FakeGhRepo } from "./state.ts";

type JsonObject = Record<string, unknown>;

export class GhFieldError extends Error {}

function labelJson(repo: FakeGhRepo, name: string): JsonObject {
  const label = repo.labels.find((candidate) => candidate.name === name);
  return {
    id: `LA_fake_${encodeURIComponent(name)}`,
    name,
    description: label?.description ?? "",
    color: label?.color ?? "ededed",
  };
}

function issueFields(repoName: string, repo: FakeGhRepo, issue: FakeGhIssue): JsonObject {
  return {
    assignees: [],
    author: { login: issue.author },
    body: issue.body,
    closed: issue.state === "CLOSED",
    closedAt: issue.closedAt,
    comments: issue.comments.map((comment) => ({
      id: `IC_fake_${comment.id}`,
      author: { login: comment.author },
      authorAssociation: "OWNER",
      body: comment.body,
      createdAt: comment.createdAt,
      includesCreatedEdit: false,
      isMinimized: false,
      minimizedReason: "",
      reactionGroups: [],
      url: `https://github.com/${repoName}/issues/${issue.number}#issuecomment-${comment.id}`,
    })),
    createdAt: issue.createdAt,
    id: `I_fake_${issue.number}`,
    labels: issue.labels.map((name) => labelJson(repo, name)),
    milestone: null,
    number: issue.number,
    projectCards: [],
    projectItems: [],
    reactionGroups: [],
    state: issue.state,
    stateReason: issue.stateReason ?? "",
    title: issue.title,
    updatedAt: issue.updatedAt,
    url: `https://github.com/${repoName}/issues/${issue.number}`,
  };
}

function pullRequestFields(repoName: string, repo: FakeGhRepo, pr: FakeGhPullRequest): JsonObject {
  return {
    author: { login: pr.author },
    baseRefName: pr.baseRefName,
    body: pr.body,
    closed: pr.state !== "OPEN",
    createdAt: pr.createdAt,
    headRefName: pr.headRefName,
    id: `PR_fake_${pr.number}`,
    isDraft: false,
    labels: pr.labels.map((name) => labelJson(repo, name)),
    mergedAt: pr.mergedAt,
    number: pr.number,
    state: pr.state,
    title: pr.title,
    url: `https://github.com/${repoName}/pull/${pr.number}`,
  };
}

function labelFields(repoName: string, label: FakeGhLabel): JsonObject {
  return {
    color: label.color,
    createdAt: "2024-01-01T00:00:00Z",
    description: label.description,
    id: `LA_fake_${encodeURIComponent(label.name)}`,
    isDefault: false,
    name: label.name,
    updatedAt: "2024-01-01T00:00:00Z",
    url: `https://github.com/${repoName}/labels/${encodeURIComponent(label.name)}`,
  };
}

/** Keeps the requested fields, in gh's way: an unknown one is an error listing the others. */
function pick(all: JsonObject, fields: readonly string[]): JsonObject {
  const picked: JsonObject = {};
  for (const field of fields) {
    if (!(field in all)) {
      throw new GhFieldError(
        `Unknown JSON field: "${field}"\nAvailable fields:\n${Object.keys(all)
          .map((name) => `  ${name}`)
          .join("\n")}`,
      );
    }
    picked[field] = all[field];
  }
  return picked;
}

export function issueJson(
  repoName: string,
  repo: FakeGhRepo,
  issue: FakeGhIssue,
  fields: readonly string[],
): JsonObject {
  return pick(issueFields(repoName, repo, issue), fields);
}

export function pullRequestJson(
  repoName: string,
  repo: FakeGhRepo,
  pr: FakeGhPullRequest,
  fields: readonly string[],
  /** Fields that cost a look at git (`headRefOid`), given only when asked for. */
  extra: JsonObject = {},
): JsonObject {
  return pick({ ...pullRequestFields(repoName, repo, pr), ...extra }, fields);
}

export function labelJsonFields(
  repoName: string,
  label: FakeGhLabel,
  fields: readonly string[],
): JsonObject {
  return pick(labelFields(repoName, label), fields);
}
