import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type GhParsedArgs, GhUsageError, stringFlag } from "./gh-args.ts";
import type { FakeGhIssue, FakeGhPullRequest, FakeGhRepo, FakeGhState } from "./state.ts";

/** What one command sees: the whole state (it may change it), the repository it acts on. */
export interface GhContext {
  readonly state: FakeGhState;
  readonly repoName: string;
  readonly repo: FakeGhRepo;
  /** ISO time of this invocation. */
  readonly now: string;
  readonly cwd: string;
  /** The process's stdin, read on demand (`--body-file -`). */
  readonly readStdin: () => string;
}

export interface GhOutput {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A failure gh itself would report (exit 1, message on stderr). */
export class GhCommandError extends Error {}

export function done(stdout = "", stderr = ""): GhOutput {
  return { exitCode: 0, stdout, stderr };
}

/** `12`, `#12` or an issue / pull request URL, as gh accepts them. */
export function parseNumberArg(text: string | undefined, what: string): number {
  if (text === undefined) throw new GhUsageError(`${what} number or URL required`);
  const match = /^(?:#)?(\d+)$/.exec(text) ?? /\/(?:issues|pull)\/(\d+)(?:[#?].*)?$/.exec(text);
  if (match === null) throw new GhUsageError(`invalid ${what} format: "${text}"`);
  return Number(match[1]);
}

export function findIssue(context: GhContext, number: number): FakeGhIssue {
  const issue = context.repo.issues.find((candidate) => candidate.number === number);
  if (issue === undefined) {
    throw new GhCommandError(
      `GraphQL: Could not resolve to an issue or pull request with the number of ${number}. (repository.issue)`,
    );
  }
  return issue;
}

export function findPullRequest(context: GhContext, number: number): FakeGhPullRequest {
  const pr = context.repo.pullRequests.find((candidate) => candidate.number === number);
  if (pr === undefined) {
    throw new GhCommandError(
      `GraphQL: Could not resolve to a PullRequest with the number of ${number}. (repository.pullRequest)`,
    );
  }
  return pr;
}

/**
 * The repository's spelling of a label, matched case-insensitively as GitHub does; a label the
 * repository does not have is an error, as in gh (labels must exist before they are applied).
 */
export function canonicalLabel(context: GhContext, name: string): string {
  const label = context.repo.labels.find(
    (candidate) => candidate.name.toLowerCase() === name.toLowerCase(),
  );
  if (label === undefined) throw new GhCommandError(`could not add label: '${name}' not found`);
  return label.name;
}

/** `--body` or `--body-file` (`-` reads stdin), as gh takes them; undefined when neither. */
export function bodyFrom(context: GhContext, args: GhParsedArgs): string | undefined {
  const body = stringFlag(args, "body");
  const file = stringFlag(args, "body-file");
  if (body !== undefined && file !== undefined) {
    throw new GhUsageError("specify only one of `--body` or `--body-file`");
  }
  if (file === undefined) return body;
  if (file === "-") return context.readStdin();
  try {
    return readFileSync(path.resolve(context.cwd, file), "utf8");
  } catch (error) {
    throw new GhCommandError(`open ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
}

/**
 * `--json` output, through `--jq` when given. gh runs jq itself; the fake hands the expression
 * to the `jq` program (raw strings, like gh's `--jq`) and fails loudly when it is missing.
 */
export function jsonOutput(value: unknown, args: GhParsedArgs): GhOutput {
  const text = `${JSON.stringify(value)}\n`;
  const expression = stringFlag(args, "jq");
  if (expression === undefined) return done(text);
  const jq = spawnSync("jq", ["-r", expression], { input: text, encoding: "utf8" });
  if (jq.error !== undefined) {
    throw new GhCommandError("fake gh: --jq needs the jq program on PATH.");
  }
  if (jq.status !== 0) throw new GhCommandError(jq.stderr.trim());
  return done(jq.stdout);
}

/** The fields `--json` asks for; `--jq` without `--json` is an error, as in gh. */
export function requestedFields(args: GhParsedArgs): string[] | undefined {
  const fields = stringFlag(args, "json");
  if (fields === undefined) {
    if (stringFlag(args, "jq") !== undefined)
      throw new GhUsageError("cannot use `--jq` without specifying `--json`");
    return undefined;
  }
  return fields
    .split(",")
    .map((field) => field.trim())
    .filter((field) => field !== "");
}
