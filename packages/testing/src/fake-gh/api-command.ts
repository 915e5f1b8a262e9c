import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { GhUsageError, parseGhArgs, stringFlag, stringsFlag } from "./gh-args.ts";
import { done, GhCommandError, type GhContext, type GhOutput } from "./gh-context.ts";
import type { FakeGhApiWrite, FakeGhCommitStatus, FakeGhIssue, FakeGhRepo } from "./state.ts";

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** `gh api`'s flags, as gh declares them (pflag). */
const API_FLAGS = {
  method: { kind: "string", short: "X" },
  "raw-field": { kind: "array", short: "f" },
  field: { kind: "array", short: "F" },
  header: { kind: "array", short: "H" },
  input: { kind: "string" },
  jq: { kind: "string", short: "q" },
  template: { kind: "string", short: "t" },
  include: { kind: "bool", short: "i" },
  paginate: { kind: "bool" },
  slurp: { kind: "bool" },
  silent: { kind: "bool" },
  verbose: { kind: "bool" },
  hostname: { kind: "string" },
  cache: { kind: "string" },
  preview: { kind: "array", short: "p" },
} as const;

/** Splits `key=value`; gh refuses a field without `=`. */
function splitField(text: string): [string, string] {
  const equals = text.indexOf("=");
  if (equals === -1)
    throw new GhUsageError(`field "${text}" requires a value separated by an '=' sign`);
  return [text.slice(0, equals), text.slice(equals + 1)];
}

/** A typed `-F` value as gh reads it: true, false, null, integers, `@file` (`@-`: stdin). */
function typedValue(context: GhContext, value: string): JsonValue {
  if (value === "true") return true;
  if (value === "false") return false;
  if (value === "null") return null;
  if (/^-?\d+$/.test(value)) return Number(value);
  if (value.startsWith("@")) {
    const file = value.slice(1);
    if (file === "-") return context.readStdin();
    try {
      // The real gh reads the file where it runs, whatever the path: so does the fake.
      return readFileSync(path.resolve(context.cwd, file), "utf8");
    } catch (error) {
      throw new GhCommandError(`open ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
  }
  return value;
}

/** Sets `key`, `key[]` (appends) or `a[b]` (nested) in the request body, as gh builds it. */
function setField(body: Record<string, JsonValue>, key: string, value: JsonValue): void {
  if (key.endsWith("[]")) {
    const name = key.slice(0, -2);
    const list = Array.isArray(body[name]) ? (body[name] as JsonValue[]) : [];
    list.push(value);
    body[name] = list;
    return;
  }
  const nested = /^([^[]+)\[([^\]]+)\]$/.exec(key);
  if (nested !== null) {
    const [, outer, inner] = nested as unknown as [string, string, string];
    const object =
      typeof body[outer] === "object" && body[outer] !== null && !Array.isArray(body[outer])
        ? (body[outer] as Record<string, JsonValue>)
        : {};
    object[inner] = value;
    body[outer] = object;
    return;
  }
  body[key] = value;
}

function issueRest(repoName: string, issue: FakeGhIssue): JsonValue {
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state.toLowerCase(),
    state_reason: issue.stateReason?.toLowerCase() ?? null,
    labels: issue.labels.map((name) => ({ name })),
    html_url: `https://github.com/${repoName}/issues/${issue.number}`,
  };
}

function notFound(endpoint: string): GhCommandError {
  return new GhCommandError(`gh: Not Found (HTTP 404) (https://api.github.com/${endpoint})`);
}

interface ApiRequest {
  readonly method: string;
  readonly endpoint: string;
  readonly body: Record<string, JsonValue>;
}

/** One REST call against the state; returns the response body. Writes are logged per repository. */
function serve(context: GhContext, request: ApiRequest): JsonValue {
  const { method, endpoint, body } = request;
  if (endpoint === "user" && method === "GET") {
    return { login: context.state.user, id: 1, type: "User" };
  }
  const match = /^repos\/([^/]+\/[^/]+)\/(.+)$/.exec(endpoint);
  const repoName = match?.[1];
  const repo: FakeGhRepo | undefined =
    repoName === undefined ? undefined : context.state.repos[repoName];
  if (match === null || repoName === undefined || repo === undefined) throw notFound(endpoint);
  const rest = match[2] as string;
  const log = (): void => {
    const write: FakeGhApiWrite = { method, endpoint, body, time: context.now };
    repo.apiWrites = [...(repo.apiWrites ?? []), write];
  };
  const issueMatch = /^issues\/(\d+)(\/comments|\/labels)?$/.exec(rest);
  if (issueMatch !== null) {
    const issue = repo.issues.find((candidate) => candidate.number === Number(issueMatch[1]));
    if (issue === undefined) throw notFound(endpoint);
    const sub = issueMatch[2];
    if (sub === undefined && method === "GET") return issueRest(repoName, issue);
    if (sub === undefined && method === "PATCH") {
      log();
      if (body.state === "closed" || body.state === "open") {
        issue.state = body.state === "closed" ? "CLOSED" : "OPEN";
        issue.stateReason = body.state === "closed" ? "COMPLETED" : null;
        issue.closedAt = body.state === "closed" ? context.now : null;
      }
      if (typeof body.title === "string") issue.title = body.title;
      if (typeof body.body === "string") issue.body = body.body;
      if (Array.isArray(body.labels)) issue.labels = body.labels.map(String);
      issue.updatedAt = context.now;
      return issueRest(repoName, issue);
    }
    if (sub === "/comments" && method === "POST") {
      log();
      const id = repo.nextCommentId++;
      const text = typeof body.body === "string" ? body.body : JSON.stringify(body.body ?? "");
      issue.comments.push({ id, author: context.state.user, body: text, createdAt: context.now });
      return { id, body: text };
    }
    if (sub === "/labels" && method === "POST") {
      log();
      for (const label of Array.isArray(body.labels) ? body.labels : []) {
        if (!issue.labels.includes(String(label))) issue.labels.push(String(label));
      }
      return issue.labels.map((name) => ({ name }));
    }
    throw notFound(endpoint);
  }
  const statusMatch = /^statuses\/([0-9a-f]{40})$/.exec(rest);
  if (statusMatch !== null && method === "POST")
    return createStatus(context, repo, statusMatch[1] as string, body, log);
  const mergeMatch = /^pulls\/(\d+)\/merge$/.exec(rest);
  if (mergeMatch !== null && method === "PUT") {
    const pr = repo.pullRequests.find((candidate) => candidate.number === Number(mergeMatch[1]));
    if (pr === undefined) throw notFound(endpoint);
    if (pr.state !== "OPEN")
      throw new GhCommandError("gh: Pull Request is not mergeable (HTTP 405)");
    log();
    pr.state = "MERGED";
    pr.mergedAt = context.now;
    return { merged: true, message: "Pull Request successfully merged" };
  }
  // Git data, merges and releases: the fake keeps no refs or releases, only the write log.
  if (
    (method === "DELETE" && /^git\/refs\/.+/.test(rest)) ||
    (method === "PATCH" && /^git\/refs\/.+/.test(rest)) ||
    (method === "POST" && (rest === "git/refs" || rest === "merges" || rest === "releases"))
  ) {
    log();
    return method === "DELETE" ? null : { ...body };
  }
  throw notFound(endpoint);
}

const STATUS_STATES = ["error", "failure", "pending", "success"] as const;

/** `POST repos/{owner}/{repo}/statuses/{sha}`: GitHub's 422 for a bad state, else recorded. */
function createStatus(
  context: GhContext,
  repo: FakeGhRepo,
  sha: string,
  body: Record<string, JsonValue>,
  log: () => void,
): JsonValue {
  const state = STATUS_STATES.find((candidate) => candidate === body.state);
  if (state === undefined) {
    throw new GhCommandError("gh: Validation Failed (HTTP 422)\nstate is not included in the list");
  }
  log();
  const statuses = repo.statuses ?? [];
  const status: FakeGhCommitStatus = {
    id: statuses.length + 1,
    sha,
    state,
    context: typeof body.context === "string" && body.context !== "" ? body.context : "default",
    description: typeof body.description === "string" ? body.description : null,
    targetUrl: typeof body.target_url === "string" ? body.target_url : null,
    createdAt: context.now,
  };
  repo.statuses = [...statuses, status];
  return {
    id: status.id,
    state: status.state,
    context: status.context,
    description: status.description,
    target_url: status.targetUrl,
    created_at: status.createdAt,
  };
}

/** The response through `--jq`, handed to the `jq` program as gh's `--jq` does (raw strings). */
function filtered(response: JsonValue, expression: string | undefined): GhOutput {
  const text = response === null ? "" : `${JSON.stringify(response)}\n`;
  if (expression === undefined) return done(text);
  const jq = spawnSync("jq", ["-r", expression], { input: text, encoding: "utf8" });
  if (jq.error !== undefined)
    throw new GhCommandError("fake gh: --jq needs the jq program on PATH.");
  if (jq.status !== 0) throw new GhCommandError(jq.stderr.trim());
  return done(jq.stdout);
}

/**
 * `gh api <endpoint>` against the fake's state, read as gh reads it: the method is `-X`, else
 * POST when there are fields or `--input`, else GET; `-f` fields are strings, `-F` fields typed
 * (`@file` reads the file, as the real gh does wherever it runs); `{owner}`/`{repo}` name the
 * current repository; `--jq` runs through `jq` with gh's environment (so `$ENV` is gh's). It
 * models the REST calls climpt's attack suite needs — `user`, an issue (GET, PATCH), its comments
 * and labels (POST), a pull request's merge (PUT), commit statuses (POST, kept in `statuses`), and git refs, merges and releases (logged in
 * the repository's `apiWrites`) — and answers 404 for anything else. `--template`,
 * `--paginate` and `graphql` are not modelled (exit 1, saying so).
 */
export function apiCommand(context: GhContext, argv: readonly string[]): GhOutput {
  const args = parseGhArgs(argv, API_FLAGS);
  const [rawEndpoint, ...extra] = args.positionals;
  if (rawEndpoint === undefined) throw new GhUsageError("accepts 1 arg(s), received 0");
  if (extra.length > 0) throw new GhUsageError(`accepts 1 arg(s), received ${extra.length + 1}`);
  if (rawEndpoint === "graphql")
    throw new GhUsageError("fake gh: `gh api graphql` is not modelled.");
  for (const name of ["template", "paginate"]) {
    if (args.flags.has(name))
      throw new GhUsageError(`fake gh: \`gh api --${name}\` is not modelled.`);
  }
  const [owner, name] = context.repoName.split("/");
  const endpoint = rawEndpoint
    .replace(/^\//, "")
    .replaceAll("{owner}", owner ?? "")
    .replaceAll("{repo}", name ?? "");
  const body: Record<string, JsonValue> = {};
  for (const field of stringsFlag(args, "raw-field")) {
    const [key, value] = splitField(field);
    setField(body, key, value);
  }
  for (const field of stringsFlag(args, "field")) {
    const [key, value] = splitField(field);
    setField(body, key, typedValue(context, value));
  }
  const input = stringFlag(args, "input");
  if (input !== undefined) {
    const text =
      input === "-"
        ? context.readStdin()
        : (() => {
            try {
              return readFileSync(path.resolve(context.cwd, input), "utf8");
            } catch (error) {
              throw new GhCommandError(
                `open ${input}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
              );
            }
          })();
    // With --input the file is the body; gh then sends the fields as the query string.
    for (const key of Object.keys(body)) delete body[key];
    try {
      Object.assign(body, JSON.parse(text) as Record<string, JsonValue>);
    } catch {
      throw new GhCommandError("gh: Problems parsing JSON (HTTP 400)");
    }
  }
  const hasBody = Object.keys(body).length > 0 || input !== undefined;
  const method = (stringFlag(args, "method") ?? (hasBody ? "POST" : "GET")).toUpperCase();
  const response = serve(context, { method, endpoint, body });
  return filtered(response, stringFlag(args, "jq"));
}
