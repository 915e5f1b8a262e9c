import path from "node:path";
import { findGitLayout, type GitLayout, runHostGit } from "@climpt/host-git";
import { type Problem, problem } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import { RunnerError } from "../runner-error.ts";
import { AGENTS_FOLDER } from "./run-protected-paths.ts";

/**
 * Whether a run's commits change agent definitions, before anyone lands them
 * (docs/design.md#worktrees). The model cannot write `.agent/` in its working tree, but it can
 * make commits that change it without touching the tree (`git update-index --cacheinfo`,
 * `read-tree`, `commit-tree`); merging such a branch would put its hooks, validators and
 * sandbox setting in front of the next run on the host. So whatever lands a run's branch — the
 * worktree finish here, an orchestrator's landing step — asks this first.
 */

/** Runs one read-only git command on the host and returns its stdout; throws when git fails. */
export type HostGitRead = (args: readonly string[]) => Promise<string>;

const GIT_TIMEOUT_MS = 120_000;

/**
 * A `HostGitRead` for the repository holding `repoDir`: its git directories found once (from the
 * file system), then pinned, with no hooks and no fsmonitor (@climpt/host-git).
 */
export function hostGitRead(
  repoDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): HostGitRead {
  const hostEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) hostEnv[name] = value;
  let layout: GitLayout | null | undefined;
  return async (args) => {
    layout ??= findLayout(repoDir);
    if (layout === null) {
      throw new RunnerError({
        code: RUNNER_CODES.worktreeGitFailed,
        message: `${repoDir} is not inside a git repository, so the run's commits could not be checked.`,
      });
    }
    const run = await runHostGit(layout, args, { env: hostEnv, timeoutMs: GIT_TIMEOUT_MS });
    if (run.exitCode !== 0) {
      const why = run.refused ?? (run.timedOut ? "timed out" : run.stderr.trim());
      throw new RunnerError({
        code: RUNNER_CODES.worktreeGitFailed,
        message: `git ${args.join(" ")} failed in ${repoDir}: ${why}.`,
        hint: "Worktree mode needs the working directory to be inside a git repository with at least one commit.",
      });
    }
    return run.stdout;
  };
}

/** The repository holding `dir`, or null (outside one, or a `.git` that leads somewhere odd). */
function findLayout(dir: string): GitLayout | null {
  try {
    return findGitLayout(dir);
  } catch {
    return null;
  }
}

/**
 * The folders, relative to the repository's top, that hold agent definitions: `.agent/`, and the
 * running agent's own folder when it lies in the repository elsewhere.
 */
export function definitionFolders(repoTop: string, agentDir?: string): string[] {
  const folders = [AGENTS_FOLDER];
  if (agentDir !== undefined) {
    const relative = path.relative(repoTop, path.resolve(agentDir));
    if (
      relative !== "" &&
      !relative.startsWith("..") &&
      !path.isAbsolute(relative) &&
      relative !== AGENTS_FOLDER &&
      !relative.startsWith(`${AGENTS_FOLDER}${path.sep}`)
    ) {
      folders.push(relative.split(path.sep).join("/"));
    }
  }
  return folders;
}

/**
 * The files under `folders` that `head` changes since it left `base` (`git diff base...head`,
 * the net change of its own commits: a change made and reverted on the branch is none), added,
 * removed, renamed or modified, as repository paths.
 */
export async function definitionChanges(options: {
  readonly read: HostGitRead;
  readonly base: string;
  readonly head: string;
  readonly folders: readonly string[];
}): Promise<string[]> {
  const out = await options.read([
    "--literal-pathspecs",
    "diff",
    "--name-only",
    "--no-renames",
    "--no-ext-diff",
    "--no-textconv",
    "-z",
    `${options.base}...${options.head}`,
    "--",
    ...options.folders,
  ]);
  return out.split("\0").filter((file) => file !== "");
}

/**
 * RUN-WORKTREE-007: the run's branch changes agent definitions the agent may not change; it was
 * not landed. Says which files, and how to land it by hand after review.
 */
export function definitionChangesProblem(options: {
  readonly files: readonly string[];
  readonly branch: string;
  readonly base: string;
  readonly repoDir: string;
  readonly worktreePath?: string;
}): Problem {
  const { files, branch, base, repoDir } = options;
  const shown = files.slice(0, 10).join(", ");
  const more = files.length > 10 ? `, and ${files.length - 10} more` : "";
  const kept =
    options.worktreePath === undefined
      ? `the branch "${branch}" is kept`
      : `the branch "${branch}" and the worktree ${options.worktreePath} are kept`;
  const remove =
    options.worktreePath === undefined ? "" : `, then git worktree remove ${options.worktreePath}`;
  return problem(
    RUNNER_CODES.agentDefinitionsEdited,
    `The run's commits change agent definitions (${shown}${more}), which this agent may not change (agent.json runner.boundaries.editAgents is not true), so "${branch}" was not merged into "${base}". "${base}" is unchanged; ${kept}.`,
    {
      hint: `Review the change: cd ${repoDir} && git diff ${base}...${branch} -- ${AGENTS_FOLDER}. To merge it anyway: git checkout ${base} && git merge --no-ff ${branch}${remove}. An agent meant to edit agent definitions declares runner.boundaries.editAgents: true.`,
    },
  );
}
