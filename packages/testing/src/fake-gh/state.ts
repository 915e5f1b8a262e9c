import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";

/** A label as a repository holds it. `color` is six hex digits without `#`, like gh prints it. */
export interface FakeGhLabel {
  name: string;
  color: string;
  description: string;
}

export interface FakeGhComment {
  /** 1-based within the repository. */
  id: number;
  author: string;
  body: string;
  createdAt: string;
}

export interface FakeGhIssue {
  number: number;
  title: string;
  body: string;
  /** `OPEN` or `CLOSED`, as gh prints it. */
  state: "OPEN" | "CLOSED";
  /** `COMPLETED` / `NOT_PLANNED` once closed, else null. */
  stateReason: string | null;
  /** Label names, in the order they were added. */
  labels: string[];
  comments: FakeGhComment[];
  author: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface FakeGhPullRequest {
  number: number;
  title: string;
  body: string;
  /** `OPEN`, `CLOSED` or `MERGED`. */
  state: "OPEN" | "CLOSED" | "MERGED";
  headRefName: string;
  baseRefName: string;
  labels: string[];
  author: string;
  createdAt: string;
  mergedAt: string | null;
}

/** A write `gh api` made (the fake logs every one, whatever else it changed). */
export interface FakeGhApiWrite {
  method: string;
  /** The endpoint as requested, `{owner}/{repo}` filled in, e.g. `repos/o/r/git/refs/heads/main`. */
  endpoint: string;
  body: unknown;
  time: string;
}

/** A commit status `gh api repos/{owner}/{repo}/statuses/{sha}` set, as GitHub keeps it. */
export interface FakeGhCommitStatus {
  id: number;
  sha: string;
  /** `error`, `failure`, `pending` or `success`. */
  state: "error" | "failure" | "pending" | "success";
  /** `default` when the request named none, as on GitHub. */
  context: string;
  description: string | null;
  targetUrl: string | null;
  createdAt: string;
}

/**
 * One check a test scripts for a head commit of a pull request's branch. `pending` never
 * completes (the check "stays pending forever").
 */
export interface FakeGhCheckPlan {
  name: string;
  conclusion: "success" | "failure" | "cancelled" | "skipped" | "pending";
  /** The failed step's log (`gh run view --log-failed`), one line per `\n`. */
  log?: string;
  /** The workflow the check belongs to. Default `CI`. */
  workflow?: string;
  /** Reads of `gh pr checks` after the first before it completes. Default 2 (queued, in progress, done). */
  polls?: number;
}

/**
 * The checks of a branch's pull request, by the ordinal of its head commit: `heads[0]` for the
 * first head the fake sees, `heads[1]` for the second; past the end, the last entry again.
 * Tests cannot know commit ids in advance, so they script by branch and ordinal.
 */
export interface FakeGhCheckScript {
  branch: string;
  heads: FakeGhCheckPlan[][];
}

/** A check run the fake made for one head commit (one run of one workflow job). */
export interface FakeGhCheckRun {
  /** The job id (the link's `/job/<id>`). */
  id: number;
  /** The workflow run id (`gh run view <runId>`). */
  runId: number;
  sha: string;
  branch: string;
  name: string;
  workflow: string;
  status: "queued" | "in_progress" | "completed";
  /** Once completed. */
  conclusion: "success" | "failure" | "cancelled" | "skipped" | null;
  /** The conclusion it will reach; `pending`: never. */
  plan: FakeGhCheckPlan["conclusion"];
  /** Reads of its head's checks since it was made. */
  polls: number;
  pollsUntilDone: number;
  log: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface FakeGhRepo {
  /** Issues and pull requests share one number sequence, as on GitHub. */
  nextNumber: number;
  nextCommentId: number;
  labels: FakeGhLabel[];
  issues: FakeGhIssue[];
  pullRequests: FakeGhPullRequest[];
  /** Every write through `gh api`, oldest first; absent until the first. */
  apiWrites?: FakeGhApiWrite[];
  /** Every commit status set, oldest first (the latest per sha and context is the current one). */
  statuses?: FakeGhCommitStatus[];
  /**
   * The git repository that stands for GitHub's copy (a path or URL `git ls-remote` reads), where
   * a pull request's head commit is looked up; absent: the `origin` remote of the caller's folder.
   */
  git?: string;
  /** The checks tests scripted, per branch. */
  checkScripts?: FakeGhCheckScript[];
  /** Check runs made so far, oldest first. */
  checkRuns?: FakeGhCheckRun[];
  /** Per branch, the head commits its pull request had, in the order the fake saw them. */
  heads?: Record<string, string[]>;
}

/**
 * A failure the next matching invocation(s) report instead of acting, for tests of how callers
 * handle gh failing (a 502, an expired token, a rate limit).
 */
export interface FakeGhFailure {
  /** The first words of the command, e.g. `issue edit` or `label`. */
  command: string;
  /** Only for this issue / pull request number (the command's first argument). */
  number?: number;
  /** How many invocations fail; default 1. */
  times?: number;
  /** Default 1. */
  exitCode?: number;
  stderr?: string;
  stdout?: string;
}

/** One invocation, as recorded for tests to assert on. */
export interface FakeGhCall {
  argv: string[];
  /** The repository the call acted on (`--repo`, `GH_REPO`, else the state's default). */
  repo: string;
  exitCode: number;
  /** True when a configured failure answered instead of the command. */
  injected?: boolean;
  time: string;
}

/** Everything the fake gh keeps, in one JSON file. */
export interface FakeGhState {
  version: 1;
  /** The repository a call acts on when `--repo`, `GH_REPO` and the git remotes of its folder name none. */
  defaultRepo: string;
  /** The login comments and issues are written by. */
  user: string;
  repos: Record<string, FakeGhRepo>;
  failures: FakeGhFailure[];
  calls: FakeGhCall[];
}

export function emptyRepo(): FakeGhRepo {
  return { nextNumber: 1, nextCommentId: 1, labels: [], issues: [], pullRequests: [] };
}

export function readFakeGhState(statePath: string): FakeGhState {
  const text = readFileSync(statePath, "utf8");
  const parsed = JSON.parse(text) as FakeGhState;
  if (parsed.version !== 1 || typeof parsed.repos !== "object" || parsed.repos === null) {
    throw new Error(`${statePath} is not a fake gh state file (version 1).`);
  }
  return parsed;
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
export function writeFakeGhState(statePath: string, state: FakeGhState): void {
  const temporary = `${statePath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(temporary, statePath);
}

const LOCK_WAIT_MS = 30_000;
/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 15_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `action` holding the state file's lock. Many gh processes run at once (an orchestrator
 * with concurrency, several workers), and each reads, changes and writes the whole file; the
 * lock makes those read-modify-write cycles one at a time. The wait is bounded; a lock left by a
 * killed process is broken once it is stale.
 */
export function withStateLock<T>(statePath: string, action: () => T): T {
  const lockPath = `${statePath}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lockPath, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(lockPath).mtimeMs > STALE_LOCK_MS) unlinkSync(lockPath);
      } catch {
        // Released between the open and the stat: try again.
      }
      if (Date.now() > deadline) {
        throw new Error(`fake gh: the state lock ${lockPath} was held for ${LOCK_WAIT_MS} ms.`);
      }
      sleepSync(5 + Math.floor(Math.random() * 10));
    }
  }
  try {
    return action();
  } finally {
    closeSync(fd);
    if (existsSync(lockPath)) unlinkSync(lockPath);
  }
}
