import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { RunnerError } from "./runner-error.ts";

const run = promisify(execFile);

async function git(cwd: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run("git", args, { cwd, encoding: "utf8" });
    return stdout.trim();
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new RunnerError({
      code: "RUN-WORKTREE-001",
      message: `git ${args.join(" ")} failed in ${cwd}${stderr ? `: ${stderr}` : ""}.`,
      hint: "Worktree mode needs the working directory to be inside a git repository with at least one commit.",
      cause: error,
    });
  }
}

export interface RunWorktree {
  readonly path: string;
  readonly branch: string;
}

/**
 * One issue = one branch = one worktree = one agent (docs/design.md#many-issues): a fresh `git
 * worktree` on its own branch, made from the repository's current HEAD. It lives next to the
 * repository (default `../climpt-worktrees/<agent>-<runId>`), not inside it, so the repository's
 * own status stays clean.
 */
export async function createRunWorktree(options: {
  readonly repoDir: string;
  readonly root?: string;
  readonly agentName: string;
  readonly runId: string;
}): Promise<RunWorktree> {
  const top = await git(options.repoDir, ["rev-parse", "--show-toplevel"]);
  const root = path.resolve(top, options.root ?? "../climpt-worktrees");
  const worktreePath = path.join(root, `${options.agentName}-${options.runId}`);
  const branch = `climpt/${options.agentName}/${options.runId}`;
  await git(top, ["worktree", "add", "-b", branch, worktreePath, "HEAD"]);
  return { path: worktreePath, branch };
}

/**
 * Removes the worktree folder; the branch and its commits stay (the run's work is on it). Called
 * after a successful run; a failed run keeps its worktree so `--resume` continues in it.
 */
export async function removeRunWorktree(options: {
  readonly repoDir: string;
  readonly worktree: RunWorktree;
}): Promise<void> {
  if (!existsSync(options.worktree.path)) return;
  await git(options.repoDir, ["worktree", "remove", "--force", options.worktree.path]);
}
