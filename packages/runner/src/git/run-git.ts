import {
  configIncludeProblems,
  findGitLayout,
  type GitLayout,
  type GitMetadata,
  gitMetadataChanges,
  readGitMetadata,
} from "@climpt/host-git";
import { ClimptError, type Problem, problem } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import { RunnerError } from "../runner-error.ts";

/**
 * The git metadata a run recorded at its start (`run_start.git`): the files that decide where
 * git finds the run's repository and which configuration it reads, for the run's working tree
 * and, in worktree mode, for the repository it was started from. Compared after every step and
 * before the completion chain and the finish run any git (docs/design.md#worktrees).
 */
export interface RunGit {
  readonly metadata: readonly GitMetadata[];
}

function layoutOf(dir: string, expectCommonDir?: string): GitLayout | null {
  try {
    return findGitLayout(dir, expectCommonDir === undefined ? {} : { expectCommonDir });
  } catch (error) {
    if (!ClimptError.isInstance(error)) throw error;
    throw new RunnerError({
      code: error.code,
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    });
  }
}

/**
 * What a new run records before its first step: nothing outside a repository. A repository
 * whose git configuration includes a file inside the working tree is refused (`GIT-HOST-003`):
 * that file is configuration the model writes, read by every git the host runs there.
 */
export async function recordRunGit(options: {
  /** Where the run works (the worktree in worktree mode). */
  readonly cwd: string;
  /** Worktree mode: the repository the run was started from. */
  readonly originCwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): Promise<RunGit | null> {
  const origin = options.originCwd === undefined ? null : layoutOf(options.originCwd);
  const layout = layoutOf(options.cwd, origin?.commonDir);
  if (layout === null) return null;
  const includes = await configIncludeProblems(layout, [layout.workTree], {
    env: { ...process.env, ...options.env },
  });
  const first = includes[0];
  if (first !== undefined) {
    throw new RunnerError({
      code: first.code,
      message: includes.map((found) => found.message).join(" "),
      ...(first.file === undefined ? {} : { file: first.file }),
      ...(first.hint === undefined ? {} : { hint: first.hint }),
    });
  }
  const metadata = [readGitMetadata(layout)];
  if (origin !== null && origin.gitDir !== layout.gitDir) metadata.push(readGitMetadata(origin));
  return { metadata };
}

/**
 * `RUN-GIT-001` when any recorded git metadata differs now (what changed, where, how to
 * recover), else undefined. The sandbox keeps these files read-only, so a change came from
 * outside it: a program step or validator run unsandboxed, `sandbox: "off"`, another process.
 */
export function runGitChange(recorded: RunGit | null, resumeCommand: string): Problem | undefined {
  if (recorded === null) return undefined;
  const changes = recorded.metadata.flatMap((metadata) => gitMetadataChanges(metadata));
  if (changes.length === 0) return undefined;
  const list = changes
    .map(
      (change) =>
        `${change.what} at ${change.file} was ${quote(change.before)}, now ${quote(change.after)}`,
    )
    .join("; ");
  return problem(
    RUNNER_CODES.gitMetadataChanged,
    `The git metadata of the run's repository changed during the run, so no more git runs there: ${list}.`,
    {
      hint: `Nothing inside the sandbox can change these files: find what did (a program step or validator run without the sandbox, sandbox "off", another process). Restore each one (remove a commondir or config.worktree that should not be there; \`git worktree repair\` for a .git file), check the repository with \`git fsck\`, then continue with \`${resumeCommand}\`.`,
    },
  );
}

function quote(value: string): string {
  return value === "absent" || value === "missing" || value === "present" ? value : `"${value}"`;
}

/** The metadata a journal recorded, as a resumed run checks it (before anything runs). */
export function checkResumedGit(recorded: RunGit | null, resumeCommand: string): void {
  const changed = runGitChange(recorded, resumeCommand);
  if (changed !== undefined) {
    throw new RunnerError({
      code: changed.code,
      message: changed.message,
      ...(changed.hint === undefined ? {} : { hint: changed.hint }),
    });
  }
}
