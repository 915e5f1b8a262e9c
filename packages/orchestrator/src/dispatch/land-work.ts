import path from "node:path";
import { gitLayoutOf, HostGitError, hostGit } from "@climpt/host-git";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { GhClient } from "../github/gh-client.ts";
import type { Landed, LandRequest } from "./dispatcher.ts";

/** A push or a pull request talks to a remote: bounded, so a stalled network cannot hang a pass. */
const REMOTE_TIMEOUT_MS = 300_000;

type LandResult = { ok: true; value: Landed } | { ok: false; error: OrchestratorError };

/**
 * Git on the host, through @climpt/host-git: the checkout and the issue's branch hold what a
 * model wrote (a tracked hooks folder a `core.hooksPath` names, a `commondir`, a filter), and
 * this git runs with the user's credentials, so no hook, fsmonitor or repository-named program
 * runs (docs/design.md#tools-and-their-boundary). The layout is read from the file system.
 */
async function git(cwd: string, args: readonly string[], timeout = 60_000): Promise<string> {
  return (await hostGit(gitLayoutOf(cwd), args, { timeoutMs: timeout })).trim();
}

function stderrOf(error: unknown): string {
  const stderr = error instanceof HostGitError ? error.result.stderr.trim() : "";
  return stderr !== "" ? stderr : (error as Error).message;
}

function stdoutOf(error: unknown): string {
  return error instanceof HostGitError ? error.result.stdout : "";
}

// One landing at a time per repository in this process: two issues merging into one checkout at
// once would race on its index.
const queues = new Map<string, Promise<unknown>>();
function serialized<T>(key: string, action: () => Promise<T>): Promise<T> {
  const next = (queues.get(key) ?? Promise.resolve()).then(action, action);
  queues.set(
    key,
    next.catch(() => undefined),
  );
  return next;
}

/** Git refuses concurrent changes to one repository with a `.lock` file; those are worth a retry. */
function isLockContention(error: unknown): boolean {
  return /\.lock\b|could not lock|Unable to create .*lock|cannot lock ref/i.test(stderrOf(error));
}

/**
 * Runs `action` again (up to 6 times, with a growing pause) while git says another process holds
 * one of its lock files: orchestrators or fleet workers sharing one checkout land one at a time.
 */
async function retryingLocks<T>(action: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (attempt >= 6 || !isLockContention(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** The branch checked out in `repoDir`, or null on a detached HEAD. */
export async function checkedOutBranch(repoDir: string): Promise<string | null> {
  try {
    return await git(repoDir, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  } catch {
    return null;
  }
}

/** The worktree that has `branch` checked out (the repository itself, usually), or null. */
async function worktreeOf(repoDir: string, branch: string): Promise<string | null> {
  let current: string | null = null;
  for (const line of (await git(repoDir, ["worktree", "list", "--porcelain"])).split("\n")) {
    if (line.startsWith("worktree ")) current = line.slice("worktree ".length);
    if (line === `branch refs/heads/${branch}`) return current;
  }
  return null;
}

function byHand(branch: string, base: string, where: string): string {
  return `Merge by hand: cd ${where} && git checkout ${base} && git merge --no-ff ${branch}, resolve and commit; then relabel the issue to move it on.`;
}

/**
 * Merges the issue's branch into `base` with a merge commit, never leaving the base half-merged:
 * where the base is checked out, only on a tree without uncommitted changes (an aborted merge
 * cannot always restore them), and an aborted conflict leaves it as it was; a base checked out
 * nowhere is merged without a working tree (`git merge-tree`) and its ref moves only if the
 * merge is clean and the base did not move meanwhile.
 */
async function mergeInto(
  repoDir: string,
  branch: string,
  base: string,
  title: string,
): Promise<{ ok: true; commits: number } | { ok: false; error: OrchestratorError }> {
  const commits = Number(await git(repoDir, ["rev-list", "--count", `${base}..${branch}`]));
  if (commits === 0) return { ok: true, commits: 0 };
  const message = `Merge branch '${branch}' into ${base}\n\n${title}`;
  const conflict = (where: string, detail: string): OrchestratorError => ({
    code: C.landConflict,
    message: `The issue's branch "${branch}" does not merge cleanly into "${base}" (${detail}). "${base}" is unchanged; the branch keeps the work.`,
    hint: byHand(branch, base, where),
  });
  const where = await worktreeOf(repoDir, base);
  if (where === null) {
    let tree: string;
    try {
      tree =
        (await git(repoDir, ["merge-tree", "--write-tree", base, branch])).split("\n")[0] ?? "";
    } catch (error) {
      const stdout = stdoutOf(error).split("\n");
      const conflicts = stdout.filter((line) => line.startsWith("CONFLICT"));
      return {
        ok: false,
        error: conflict(repoDir, conflicts.length > 0 ? conflicts.join("; ") : stderrOf(error)),
      };
    }
    const before = await git(repoDir, ["rev-parse", base]);
    const merged = await git(repoDir, [
      "commit-tree",
      tree,
      "-p",
      before,
      "-p",
      branch,
      "-m",
      message,
    ]);
    // Compare-and-swap: refused (and retried from the start) if the base moved since it was read.
    await git(repoDir, ["update-ref", `refs/heads/${base}`, merged, before]);
    return { ok: true, commits };
  }
  const dirty = await git(where, ["status", "--porcelain", "--untracked-files=no"]);
  if (dirty !== "") {
    return {
      ok: false,
      error: {
        code: C.landBase,
        message: `The base branch "${base}" has uncommitted changes in ${where}, so the issue's branch "${branch}" was not merged into it.`,
        hint: `Commit or stash them, then: cd ${where} && git merge --no-ff ${branch}; relabel the issue to move it on.`,
      },
    };
  }
  try {
    await git(where, ["merge", "--no-ff", "-m", message, branch]);
    return { ok: true, commits };
  } catch (error) {
    // Another process changing the repository: nothing was merged; the caller tries again.
    if (isLockContention(error)) throw error;
    const files = await git(where, ["diff", "--name-only", "--diff-filter=U"]).catch(() => "");
    await git(where, ["merge", "--abort"]).catch(() => undefined);
    return {
      ok: false,
      error: conflict(
        where,
        files === "" ? stderrOf(error) : `conflicts in ${files.split("\n").join(", ")}`,
      ),
    };
  }
}

async function push(
  repoDir: string,
  remote: string,
  branch: string,
): Promise<OrchestratorError | null> {
  try {
    // Not forced: the issue's branch only moves forward; a remote that has moved it refuses.
    await git(
      repoDir,
      ["push", "-q", remote, `refs/heads/${branch}:refs/heads/${branch}`],
      REMOTE_TIMEOUT_MS,
    );
    return null;
  } catch (error) {
    return {
      code: C.landPush,
      message: `git push ${remote} ${branch} failed: ${stderrOf(error)}.`,
      hint: `Fix the remote "${remote}" (or the workflow's land.remote), then: cd ${repoDir} && git push ${remote} ${branch}; relabel the issue to move it on.`,
    };
  }
}

export interface LandOptions {
  readonly repoDir: string;
  /** The branch the orchestrator was started from, read once (see `startingBranch`). */
  readonly startingBranch: () => Promise<string | null>;
  /** The default mode when neither the workflow nor the command line names one. */
  readonly defaultMode: "merge" | "push";
  readonly defaultRemote: string;
  readonly gh?: GhClient;
}

/**
 * Makes the issue's branch reachable (docs: the orchestrator README, "The work lands"): merged
 * into the base branch, pushed to the remote, or pushed with a pull request that closes the issue.
 * Each failure is a coded result; nothing is ever forced, and a repeated landing (a pass that
 * crashed after it) finds the work already there and does nothing more.
 */
export function landWork(options: LandOptions, request: LandRequest): Promise<LandResult> {
  const repoDir = path.resolve(options.repoDir);
  return serialized(repoDir, async () => {
    const mode = request.landing?.mode ?? options.defaultMode;
    const remote = request.landing?.remote ?? options.defaultRemote;
    const base = request.landing?.base ?? (await options.startingBranch());
    const { branch } = request;
    const lost: LandResult = {
      ok: false,
      error: {
        code: C.stateLockLost,
        message: `Issue #${request.issue.number}'s lock was lost before its work was landed.`,
      },
    };
    if (mode === "push") {
      if (!((await request.holds?.()) ?? true)) return lost;
      const failed = await push(repoDir, remote, branch);
      if (failed !== null) return { ok: false, error: failed };
      return {
        ok: true,
        value: { mode, base: null, commits: 0, pushed: `${remote}/${branch}`, pullRequest: null },
      };
    }
    if (base === null) {
      return {
        ok: false,
        error: {
          code: C.landBase,
          message: `The issue's branch "${branch}" has no branch to ${mode === "merge" ? "merge into" : "target"}: the orchestrator was started on a detached HEAD.`,
          hint: 'Start it on a branch, or name one in the workflow: "land": { "mode": "merge", "base": "main" }.',
        },
      };
    }
    const ahead = Number(
      await git(repoDir, ["rev-list", "--count", `${base}..${branch}`]).catch(() => "0"),
    );
    if (mode === "merge") {
      if (ahead > 0 && !((await request.holds?.()) ?? true)) return lost;
      const merged = await retryingLocks(() =>
        mergeInto(repoDir, branch, base, `Issue #${request.issue.number}: ${request.issue.title}`),
      ).catch((error: unknown) => ({
        ok: false as const,
        error: {
          code: C.landConflict,
          message: `The issue's branch "${branch}" could not be merged into "${base}": ${stderrOf(error)}.`,
          hint: byHand(branch, base, repoDir),
        },
      }));
      if (!merged.ok) return merged;
      return {
        ok: true,
        value: { mode, base, commits: merged.commits, pushed: null, pullRequest: null },
      };
    }
    if (ahead === 0)
      return { ok: true, value: { mode, base, commits: 0, pushed: null, pullRequest: null } };
    if (!((await request.holds?.()) ?? true)) return lost;
    const pushed = await push(repoDir, remote, branch);
    if (pushed !== null) return { ok: false, error: pushed };
    const pullRequest = await openPullRequest(options.gh, request, base);
    if (!pullRequest.ok) return pullRequest;
    return {
      ok: true,
      value: {
        mode,
        base,
        commits: ahead,
        pushed: `${remote}/${branch}`,
        pullRequest: pullRequest.value,
      },
    };
  });
}

async function openPullRequest(
  gh: GhClient | undefined,
  request: LandRequest,
  base: string,
): Promise<{ ok: true; value: string } | { ok: false; error: OrchestratorError }> {
  const { branch, issue } = request;
  const failed = (why: string): { ok: false; error: OrchestratorError } => ({
    ok: false,
    error: {
      code: C.landPullRequest,
      message: `No pull request was opened for "${branch}" (issue #${issue.number}): ${why}.`,
      hint: `The branch is pushed; open it by hand: gh pr create --head ${branch} --base ${base} --body "Closes #${issue.number}"; relabel the issue to move it on.`,
    },
  });
  if (gh === undefined) return failed("the orchestrator was given no gh client");
  const open = await gh.findPullRequest(branch);
  if (!open.ok) return failed(open.error.message);
  if (open.value !== null) return { ok: true, value: open.value };
  const created = await gh.createPullRequest({
    head: branch,
    base,
    title: issue.title === "" ? `Issue #${issue.number}` : issue.title,
    body: [
      `Closes #${issue.number}.`,
      `The work climpt's orchestrator did for the issue, on \`${branch}\`.`,
      ...(request.evidence === undefined ? [] : [request.evidence]),
    ].join("\n\n"),
  });
  return created.ok ? created : failed(created.error.message);
}
