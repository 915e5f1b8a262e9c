/**
 * Every code this package puts in a thrown `ClimptError` or a returned `Problem`: the `GIT-HOST-*`
 * family, git as the host runs it. The README lists them; @climpt/registry-schema's README
 * catalogues them with every other package's.
 */
export const HOST_GIT_CODES = {
  /** The folder is not inside a git working tree (no `.git` above it leads to a git directory). */
  notARepository: "GIT-HOST-001",
  /** A git command the host ran exited non-zero, timed out, was aborted or could not start. */
  commandFailed: "GIT-HOST-002",
  /** The repository's configuration includes a file inside the working tree the model writes. */
  includeInWorkTree: "GIT-HOST-003",
  /**
   * A `.git` file leads somewhere `git worktree add` never puts a git directory: outside
   * `<common>/worktrees/`, or to a common directory other than the repository's.
   */
  unexpectedLayout: "GIT-HOST-004",
} as const;

export type HostGitCode = (typeof HOST_GIT_CODES)[keyof typeof HOST_GIT_CODES];
