import { loadExeca } from "../lazy-modules.ts";

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
  /** The git the host pushes with (a name on PATH or a path). Default `git`. */
  readonly gitCommand?: string;
  /**
   * Called before the host reads the repository for a push: whatever must happen after the
   * sandbox wrote to it and before the host acts on it (importing the objects the sandbox wrote).
   */
  readonly beforePush?: () => Promise<void>;
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

/** Configuration a host git run on the repository the model touched always uses. */
export const HOST_GIT_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "protocol.ext.allow=never",
  "push.followTags=false",
  "push.recurseSubmodules=no",
  "submodule.recurse=false",
] as const;

/** Variables of the caller's that would point the host's git elsewhere than the run's repository. */
const REDIRECTING_VARIABLES = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_INDEX_FILE",
  "GIT_NAMESPACE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
];

function withoutRedirection(env: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!REDIRECTING_VARIABLES.includes(name)) kept[name] = value;
  }
  return kept;
}

export interface HostGitRun {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when git could not be run or timed out. */
  readonly failure?: string;
}

export interface HostGitOptions {
  readonly gitCommand: string;
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

/**
 * Runs git on the host against the run's repository with the directories pinned (no discovery,
 * no `commondir` file followed: the sandbox can rewrite both) and the configuration that runs
 * nothing the repository names (HOST_GIT_CONFIG); the user's own configuration and credential
 * helpers apply.
 */
export async function runHostGit(
  args: readonly string[],
  options: HostGitOptions,
): Promise<HostGitRun> {
  const { execa } = await loadExeca();
  const result = await execa(
    options.gitCommand,
    [...HOST_GIT_CONFIG.flatMap((entry) => ["-c", entry]), ...args],
    {
      cwd: options.repository.workTree,
      env: {
        ...withoutRedirection(options.env),
        GIT_DIR: options.repository.gitDir,
        GIT_COMMON_DIR: options.repository.commonDir,
        GIT_WORK_TREE: options.repository.workTree,
        GIT_TERMINAL_PROMPT: "0",
        GIT_OPTIONAL_LOCKS: "0",
      },
      extendEnv: false,
      reject: false,
      timeout: options.timeoutMs,
      ...(options.signal === undefined ? {} : { cancelSignal: options.signal }),
      maxBuffer: 4 * 1024 * 1024,
      stripFinalNewline: false,
      stdin: "ignore",
    },
  );
  return {
    exitCode: result.exitCode,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    ...(result.exitCode === undefined || result.timedOut ? { failure: result.shortMessage } : {}),
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
  readonly gitCommand?: string;
  readonly beforePush?: () => Promise<void>;
}

const SETUP_TIMEOUT_MS = 30_000;

/**
 * The git directory, common directory and work tree top of the repository holding `cwd`, as the
 * host's git finds them with HOST_GIT_CONFIG, absolute; null outside a git work tree. Read once,
 * before the model could change anything, then pinned for `runHostGit`.
 */
export async function locateGitRepository(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly gitCommand?: string;
}): Promise<HostGitOptions["repository"] | null> {
  const { execa } = await loadExeca();
  const located = await execa(
    options.gitCommand ?? "git",
    [
      ...HOST_GIT_CONFIG.flatMap((entry) => ["-c", entry]),
      "rev-parse",
      "--path-format=absolute",
      "--git-dir",
      "--git-common-dir",
      "--show-toplevel",
    ],
    {
      cwd: options.cwd,
      env: { ...withoutRedirection(options.env), GIT_TERMINAL_PROMPT: "0" },
      extendEnv: false,
      reject: false,
      timeout: SETUP_TIMEOUT_MS,
      stdin: "ignore",
    },
  );
  const [gitDir, commonDir, workTree] = String(located.stdout).split("\n");
  if (located.exitCode !== 0 || !gitDir || !commonDir || !workTree) return null;
  return { gitDir, commonDir, workTree };
}

/**
 * The push target of a run, read from its repository before the run's first step: the git
 * directories, the run's branch (plain mode: the branch checked out now), and the protected
 * branches (the base branch, each remote's default branch as `refs/remotes/<r>/HEAD` names it,
 * `main`, `master`). `{ refused }` when the working directory is not in a git work tree.
 */
export async function resolveGitPushTarget(options: GitPushTargetOptions): Promise<GitPushSetting> {
  const gitCommand = options.gitCommand ?? "git";
  const repository = await locateGitRepository({
    cwd: options.cwd,
    env: options.env,
    gitCommand,
  });
  if (repository === null) {
    return {
      refused:
        "git push is not available in this run: its working directory is not in a git work tree.",
    };
  }
  const git = (args: readonly string[]): Promise<HostGitRun> =>
    runHostGit(args, { gitCommand, repository, env: options.env, timeoutMs: SETUP_TIMEOUT_MS });
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
    ...(options.gitCommand === undefined ? {} : { gitCommand: options.gitCommand }),
    ...(options.beforePush === undefined ? {} : { beforePush: options.beforePush }),
  };
}
