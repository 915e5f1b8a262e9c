/**
 * Every code this package puts in a thrown `ClimptError` or a returned `Problem`: the `GIT-HOST-*`
 * family, git as the host runs it. The README lists them; @climpt/registry-schema's README
 * catalogues them with every other package's.
 */
export const HOST_GIT_CODES = {
  /**
   * The folder is not inside a git working tree (no `.git` above it leads to a git directory).
   * Example: `/tmp/x is not inside a git working tree.` Fix: Run inside a git repository, or pass
   * the repository's folder.
   */
  notARepository: "GIT-HOST-001",
  /**
   * A git command the host ran exited non-zero, timed out, was aborted or could not start. Example:
   * `git merge --no-ff … failed (exit 1) in /repo: …` Fix: Run the same git command there to see
   * why; a held `.lock` means another git is running.
   */
  commandFailed: "GIT-HOST-002",
  /**
   * The repository's configuration includes a file inside the working tree the model writes.
   * Example: `The git configuration file /repo/.shared.gitconfig is included by /repo/.git/config
   * (include.path), and it lies inside the working tree the model writes: …` Fix: Remove the
   * include (`git config --unset include.path`), or move the file outside the working tree.
   */
  includeInWorkTree: "GIT-HOST-003",
  /**
   * A `.git` file leads somewhere `git worktree add` never puts a git directory: outside
   * `<common>/worktrees/`, or to a common directory other than the repository's. Example: `/wt/.git
   * leads to /wt/fake, whose common directory /repo/.git is not where \`git worktree add\` puts it
   * …` Fix: `git worktree repair <path>` in the repository, or remove and recreate the worktree.
   */
  unexpectedLayout: "GIT-HOST-004",
} as const;

export type HostGitCode = (typeof HOST_GIT_CODES)[keyof typeof HOST_GIT_CODES];
