import type { CommandRunner } from "@climpt/completion-chain";
import { type GitLayout, runHostGit } from "@climpt/host-git";
import { type AgentDefinition, type Problem, problem, type WorktreeFinish } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import {
  definitionChanges,
  definitionChangesProblem,
  definitionFolders,
  hostGitRead,
} from "../run/definition-changes.ts";
import type { WorktreeRunOptions } from "../run/run-options.ts";
import type { WorktreeReport } from "../run-result.ts";
import { git, type RunWorktree, removeRunWorktree, repositoryOf } from "./worktree.ts";

/** Push and `gh pr create` talk to a remote: bounded, so a stalled network cannot hang a run. */
const REMOTE_TIMEOUT_MS = 300_000;

export const DEFAULT_WORKTREE_FINISH: WorktreeFinish = {
  merge: true,
  push: false,
  remote: "origin",
  createPr: false,
};

/** agent.json's `worktree` finish keys, each overridden by the run's option when given. */
export function resolveWorktreeFinish(
  agent: AgentDefinition,
  options: WorktreeRunOptions | undefined,
): WorktreeFinish {
  const written = agent.worktree.finish ?? DEFAULT_WORKTREE_FINISH;
  const prTarget = options?.prTarget ?? written.prTarget;
  return {
    merge: options?.merge ?? written.merge,
    push: options?.push ?? written.push,
    remote: options?.remote ?? written.remote,
    createPr: options?.createPr ?? written.createPr,
    ...(prTarget === undefined ? {} : { prTarget }),
  };
}

export interface WorktreeFinishInputs {
  /** The repository the run was started from. */
  readonly repoDir: string;
  readonly worktree: RunWorktree;
  readonly finish: WorktreeFinish;
  /** Runs `gh pr create` (git itself runs through @climpt/host-git). */
  readonly commandRunner: CommandRunner;
  /** The run's environment overrides, for git (identity) and gh. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly agentName: string;
  readonly runId: string;
  readonly signal?: AbortSignal;
  /**
   * agent.json `runner.boundaries.editAgents`: the run may change agent definitions. Otherwise
   * a branch whose commits change `.agent/` (or `agentDir`) is not merged (`RUN-WORKTREE-007`).
   */
  readonly editAgents?: boolean;
  /** The running agent's folder: checked with `.agent/` when it lies in the repository. */
  readonly agentDir?: string;
  /** The completion ledger as markdown (ledger-evidence.ts), for the pull request's body. */
  readonly evidence?: string;
}

export interface WorktreeFinishOutcome {
  readonly report: WorktreeReport;
  /** Why the finish stopped; the worktree and the branch are then kept for the user. */
  readonly problem?: Problem;
}

type GitOptions = Parameters<typeof git>[2];

async function gitOk(
  repo: GitLayout,
  args: readonly string[],
  options: GitOptions,
): Promise<boolean> {
  try {
    await git(repo, args, options);
    return true;
  } catch {
    return false;
  }
}

/** The worktree that has `branch` checked out (the repository itself, usually), or null. */
async function checkedOutIn(
  repo: GitLayout,
  branch: string,
  options: GitOptions,
): Promise<string | null> {
  const listing = await git(repo, ["worktree", "list", "--porcelain"], options);
  let current: string | null = null;
  for (const line of listing.split("\n")) {
    if (line.startsWith("worktree ")) current = line.slice("worktree ".length);
    if (line === `branch refs/heads/${branch}`) return current;
  }
  return null;
}

function byHand(worktree: RunWorktree, base: string, where: string): string {
  return `Merge by hand: cd ${where} && git checkout ${base} && git merge --no-ff ${worktree.branch}, resolve and commit, then git worktree remove ${worktree.path}.`;
}

/**
 * Merges the run's branch into the base branch with a merge commit, never leaving the base
 * half-merged. Where the base is checked out (the repository itself, usually) the merge runs
 * there, and only on a clean tree: an aborted merge cannot always restore uncommitted changes.
 * A base checked out nowhere is merged without any working tree (`git merge-tree`), and its ref
 * moves only if the merge is clean. Returns the commits merged, or the problem that stopped it.
 */
async function mergeBack(
  repo: GitLayout,
  worktree: RunWorktree,
  base: string,
  options: GitOptions,
): Promise<{ ok: true; commits: number } | { ok: false; problem: Problem }> {
  const { branch } = worktree;
  const commits = Number(await git(repo, ["rev-list", "--count", `${base}..${branch}`], options));
  if (commits === 0) return { ok: true, commits: 0 };
  const message = `Merge branch '${branch}' into ${base}`;
  const where = await checkedOutIn(repo, base, options);
  if (where === null) {
    let tree: string;
    try {
      tree =
        (await git(repo, ["merge-tree", "--write-tree", base, branch], options)).split("\n")[0] ??
        "";
    } catch (error) {
      // Exit 1 with the conflicts listed on stdout: nothing was written, the base is untouched.
      const stdout = ((error as { cause?: { stdout?: string } }).cause?.stdout ?? "").split("\n");
      const conflicts = stdout.filter((line) => line.startsWith("CONFLICT"));
      const detail = conflicts.length > 0 ? conflicts.join("; ") : (error as Error).message;
      return { ok: false, problem: conflict(worktree, base, repo.workTree, detail) };
    }
    const baseCommit = await git(repo, ["rev-parse", base], options);
    const merged = await git(
      repo,
      ["commit-tree", tree, "-p", base, "-p", branch, "-m", message],
      options,
    );
    // Compare-and-swap: refuses if the base moved since it was read.
    await git(repo, ["update-ref", `refs/heads/${base}`, merged, baseCommit], options);
    return { ok: true, commits };
  }
  // The checkout holding the base: a working tree of this repository, told to git explicitly.
  const checkout = where === repo.workTree ? repo : repositoryOf(where, repo.commonDir);
  const dirty = await git(checkout, ["status", "--porcelain", "--untracked-files=no"], options);
  if (dirty !== "") {
    return {
      ok: false,
      problem: problem(
        RUNNER_CODES.baseBranchDirty,
        `The base branch "${base}" has uncommitted changes in ${where}, so the run's branch "${branch}" was not merged into it.`,
        {
          hint: `Commit or stash them, then: cd ${where} && git merge --no-ff ${branch} && git worktree remove ${worktree.path}.`,
        },
      ),
    };
  }
  try {
    await git(checkout, ["merge", "--no-ff", "-m", message, branch], options);
    return { ok: true, commits };
  } catch (error) {
    const files = await git(checkout, ["diff", "--name-only", "--diff-filter=U"], options).catch(
      () => "",
    );
    await gitOk(checkout, ["merge", "--abort"], options);
    const detail =
      files === "" ? (error as Error).message : `conflicts in ${files.split("\n").join(", ")}`;
    return { ok: false, problem: conflict(worktree, base, where, detail) };
  }
}

function conflict(worktree: RunWorktree, base: string, where: string, detail: string): Problem {
  return problem(
    RUNNER_CODES.mergeConflict,
    `The run's branch "${worktree.branch}" does not merge cleanly into "${base}" (${detail}). "${base}" is unchanged; the branch and the worktree ${worktree.path} are kept.`,
    { hint: byHand(worktree, base, where) },
  );
}

/**
 * After a successful run in worktree mode (the original runtime's finalize, in this order):
 * merge the run's branch into the base branch (unless `merge` is off or a pull request is
 * wanted instead), push (the base after a merge, else the branch), open the pull request with
 * `gh pr create`, then remove the worktree, and the branch once it is merged. The first step
 * that fails stops the rest and keeps the worktree and the branch; its problem says how to
 * finish by hand. Runs in the runner, where the boundary hook runs: the model never issues it.
 */
export async function finishWorktree(inputs: WorktreeFinishInputs): Promise<WorktreeFinishOutcome> {
  const { repoDir, worktree, finish, commandRunner } = inputs;
  const repo = repositoryOf(repoDir);
  const options: GitOptions = {
    ...(inputs.env === undefined ? {} : { env: inputs.env }),
    ...(inputs.signal === undefined ? {} : { signal: inputs.signal }),
  };
  const base = worktree.baseBranch ?? null;
  const merge = finish.merge && !finish.createPr;
  let report: WorktreeReport = {
    path: worktree.path,
    branch: worktree.branch,
    baseBranch: base,
    merged: false,
    commits: 0,
    pushed: null,
    pr: null,
    removed: false,
  };
  const kept = (found: Problem): WorktreeFinishOutcome => ({ report, problem: found });

  if (merge && base !== null && inputs.editAgents !== true) {
    // Before anything lands: commits that change agent definitions without the working tree
    // (update-index, commit-tree) are kept for the user to review (definition-changes.ts).
    const read = hostGitRead(repoDir, { ...process.env, ...inputs.env });
    const top = (await read(["rev-parse", "--show-toplevel"])).trim();
    const files = await definitionChanges({
      read,
      base,
      head: worktree.branch,
      folders: definitionFolders(top, inputs.agentDir),
    });
    if (files.length > 0) {
      return kept(
        definitionChangesProblem({
          files,
          branch: worktree.branch,
          base,
          repoDir,
          worktreePath: worktree.path,
        }),
      );
    }
  }
  if (merge && base !== null) {
    const merged = await mergeBack(repo, worktree, base, options);
    if (!merged.ok) return kept(merged.problem);
    report = { ...report, merged: merged.commits > 0, commits: merged.commits };
  }
  const remote = finish.remote;
  const remoteRun = (command: string, args: readonly string[]) =>
    commandRunner(command, args, {
      cwd: repoDir,
      timeoutMs: REMOTE_TIMEOUT_MS,
      ...(inputs.signal === undefined ? {} : { signal: inputs.signal }),
    });
  if (finish.push || finish.createPr) {
    const pushBase = report.merged && base !== null && !finish.createPr;
    const ref = pushBase ? (base as string) : worktree.branch;
    // Host git: the user's credential helpers, no pre-push hook (@climpt/host-git).
    const pushed = await runHostGit(repo, ["push", ...(pushBase ? [] : ["-u"]), remote, ref], {
      timeoutMs: REMOTE_TIMEOUT_MS,
      ...(inputs.env === undefined ? {} : { env: { ...process.env, ...inputs.env } }),
      ...(inputs.signal === undefined ? {} : { signal: inputs.signal }),
    });
    if (pushed.exitCode !== 0) {
      return kept(
        problem(
          RUNNER_CODES.pushFailed,
          `git push ${remote} ${ref} failed (exit ${pushed.exitCode ?? "none"}${pushed.timedOut ? ", timed out" : ""}): ${pushed.stderr.trim() || pushed.stdout.trim()}`,
          {
            hint: `Fix the remote "${remote}" (--push-remote NAME), then: cd ${repoDir} && git push ${remote} ${ref}${finish.createPr ? ` && gh pr create --head ${worktree.branch}` : ""}.`,
          },
        ),
      );
    }
    report = { ...report, pushed: `${remote}/${ref}` };
  }
  if (finish.createPr) {
    const target = finish.prTarget ?? base;
    if (target === null) {
      return kept(
        problem(
          RUNNER_CODES.pullRequestFailed,
          `No pull request was opened for "${worktree.branch}": the repository was on a detached HEAD, so there is no base branch to target.`,
          {
            hint: `Pass --pr-target BRANCH, or: gh pr create --head ${worktree.branch} --base <branch>.`,
          },
        ),
      );
    }
    const created = await remoteRun("gh", [
      "pr",
      "create",
      "--head",
      worktree.branch,
      "--base",
      target,
      "--title",
      `${inputs.agentName}: ${worktree.branch}`,
      "--body",
      `Opened by climpt after run ${inputs.runId} of agent "${inputs.agentName}" completed.${inputs.evidence === undefined ? "" : `\n\n${inputs.evidence}`}`,
    ]);
    if (created.exitCode !== 0) {
      return kept(
        problem(
          RUNNER_CODES.pullRequestFailed,
          `gh pr create --head ${worktree.branch} --base ${target} failed (exit ${created.exitCode}${created.timedOut ? ", timed out" : ""}): ${created.stderr.trim() || created.stdout.trim()}`,
          {
            hint: `The branch is pushed; open the pull request by hand: gh pr create --head ${worktree.branch} --base ${target}, then git worktree remove ${worktree.path}.`,
          },
        ),
      );
    }
    const url = created.stdout.trim().split("\n").at(-1) ?? "";
    report = { ...report, pr: { url, base: target } };
  }
  await removeRunWorktree({ repoDir, worktree });
  report = { ...report, removed: true };
  // Merged: the commits are on the base, the branch has done its job (as the original does).
  if (report.merged) await gitOk(repo, ["branch", "-D", worktree.branch], options);
  return { report };
}
