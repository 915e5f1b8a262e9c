import path from "node:path";
import { findGitLayout, type GitLayout, runHostGit as runGit } from "@climpt/host-git";

/**
 * What a run may push from its sandbox, fixed before its first step by the runner (never by the
 * model): the repository's git directories as they were then, the run's branch, the branches the
 * agent declares, and the branches no push may touch.
 */
export interface GitPushTarget {
  /** The run's git directory (a linked worktree's own), absolute, computed before the run. */
  readonly gitDir: string;
  /** The common git directory (objects, refs, config), absolute, computed before the run. */
  readonly commonDir: string;
  /** The top of the run's work tree. */
  readonly workTree: string;
  /** The run's branch: pushed by default. Absent when the run is on no branch. */
  readonly runBranch?: string;
  /** Branches the agent declares it may push too (agent.json): names, or `<prefix>/*`. */
  readonly branches: readonly string[];
  /** Never pushed: the base branch, the remotes' default branches, `main` and `master`. */
  readonly protectedBranches: readonly string[];
  /**
   * Called before the host reads the repository for a push: whatever must happen after the
   * sandbox wrote to it and before the host acts on it (importing the objects the sandbox wrote).
   */
  readonly beforePush?: () => Promise<void>;
  /**
   * Called after a push (done or failed): whatever the host changed in the repository that the
   * sandbox must see while the command still runs (the remote-tracking refs the push updated).
   */
  readonly afterPush?: () => Promise<void>;
}

/** Pushing from the sandbox, or why a run cannot (said to the model when it tries). */
export type GitPushSetting = GitPushTarget | { readonly refused: string };

/** What a command gets when nobody gave it a push target: every push refused, saying why. */
export const NO_PUSH_TARGET: GitPushSetting = {
  refused:
    "git push is not available here: nothing gave this command a branch to push (climpt's runner gives each run in a git repository its own).",
};

export function isGitPushTarget(setting: GitPushSetting): setting is GitPushTarget {
  return !("refused" in setting);
}

/** Branches never pushed from a sandbox, whatever the run's base or remotes say. */
export const ALWAYS_PROTECTED_BRANCHES = ["main", "master"] as const;

/**
 * Settings the push broker's host git adds to @climpt/host-git's fixed ones (no hooks, no
 * fsmonitor, no `ext::`, no submodule recursion): a push never takes tags along.
 */
export const HOST_GIT_CONFIG = ["push.followTags=false"] as const;

export interface HostGitRun {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when git could not be run, timed out, or was refused (its directories moved). */
  readonly failure?: string;
}

export interface HostGitOptions {
  readonly repository: {
    readonly gitDir: string;
    readonly commonDir: string;
    readonly workTree: string;
  };
  /** The caller's environment: the user's credential helpers and tokens work from it. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

function layoutOf(repository: HostGitOptions["repository"]): GitLayout {
  return {
    ...repository,
    dotGit: repository.gitDir === path.join(repository.workTree, ".git") ? "directory" : "file",
  };
}

/**
 * Runs git on the host against the run's repository through @climpt/host-git: the directories
 * pinned (no discovery, no `commondir` file followed, and nothing run where one appeared), its
 * fixed configuration plus HOST_GIT_CONFIG; the user's own configuration and credential helpers
 * apply.
 */
export async function runHostGit(
  args: readonly string[],
  options: HostGitOptions,
): Promise<HostGitRun> {
  const result = await runGit(
    layoutOf(options.repository),
    [...HOST_GIT_CONFIG.flatMap((entry) => ["-c", entry]), ...args],
    {
      env: options.env,
      timeoutMs: options.timeoutMs,
      maxOutputBytes: 4 * 1024 * 1024,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  const failure =
    result.refused ??
    result.spawnError ??
    (result.timedOut
      ? `timed out after ${options.timeoutMs} ms`
      : result.aborted
        ? "aborted"
        : undefined);
  return {
    exitCode: result.exitCode ?? undefined,
    stdout: result.stdout,
    stderr: result.stderr,
    ...(failure === undefined ? {} : { failure }),
  };
}

/** The branch `git symbolic-ref HEAD` names, when HEAD is on a branch (not detached, not a tag). */
export function headBranch(run: HostGitRun): string | undefined {
  const ref = run.exitCode === 0 ? run.stdout.trim() : "";
  return ref.startsWith("refs/heads/") && ref.length > 11 ? ref.slice(11) : undefined;
}

export interface GitPushTargetOptions {
  /** The run's working directory (the worktree in worktree mode). */
  readonly cwd: string;
  /** Worktree mode: the worktree's branch. Plain mode: absent, the branch checked out now. */
  readonly runBranch?: string;
  /** Worktree mode: the branch the worktree started from. */
  readonly baseBranch?: string | null;
  /** agent.json's declared branches. */
  readonly branches?: readonly string[];
  /** The environment git runs with (the caller's). */
  readonly env: Readonly<Record<string, string>>;
  readonly beforePush?: () => Promise<void>;
}

const SETUP_TIMEOUT_MS = 30_000;

/**
 * The push target of a run, read from its repository before the run's first step: the git
 * directories, the run's branch (plain mode: the branch checked out now), and the protected
 * branches (the base branch, each remote's default branch as `refs/remotes/<r>/HEAD` names it,
 * `main`, `master`). `{ refused }` when the working directory is not in a git work tree.
 */
export async function resolveGitPushTarget(options: GitPushTargetOptions): Promise<GitPushSetting> {
  // Read from the file system (@climpt/host-git), before the run's first step: no git runs to
  // find the repository, and a commondir in a .git directory is not followed.
  let layout: GitLayout | null;
  try {
    layout = findGitLayout(options.cwd);
  } catch {
    layout = null;
  }
  if (layout === null) {
    return {
      refused:
        "git push is not available in this run: its working directory is not in a git work tree.",
    };
  }
  const { gitDir, commonDir: common, workTree } = layout;
  const repository = { gitDir, commonDir: common, workTree };
  const git = (args: readonly string[]): Promise<HostGitRun> =>
    runHostGit(args, { repository, env: options.env, timeoutMs: SETUP_TIMEOUT_MS });
  // Both reads at once: this runs before every run's first step.
  const [head, heads] = await Promise.all([
    options.runBranch === undefined
      ? git(["symbolic-ref", "--quiet", "HEAD"])
      : Promise.resolve(undefined),
    git(["for-each-ref", "--format=%(refname) %(symref)", "refs/remotes/"]),
  ]);
  const runBranch = options.runBranch ?? (head === undefined ? undefined : headBranch(head));
  const protectedBranches = new Set<string>(ALWAYS_PROTECTED_BRANCHES);
  if (options.baseBranch !== undefined && options.baseBranch !== null) {
    protectedBranches.add(options.baseBranch);
  }
  for (const line of heads.stdout.split("\n")) {
    const match = /^refs\/remotes\/([^/]+)\/HEAD refs\/remotes\/\1\/(.+)$/.exec(line);
    if (match?.[2] !== undefined) protectedBranches.add(match[2]);
  }
  return {
    ...repository,
    ...(runBranch === undefined ? {} : { runBranch }),
    branches: [...(options.branches ?? [])],
    protectedBranches: [...protectedBranches],
    ...(options.beforePush === undefined ? {} : { beforePush: options.beforePush }),
  };
}
