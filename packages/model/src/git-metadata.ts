/**
 * The git metadata record a run keeps in its journal (`run_start.gitMetadata`). @climpt/host-git
 * reads and compares it and re-exports the type by name; the type lives here because the journal
 * format (@climpt/protocol) carries it and protocol may depend on this package alone.
 */

/**
 * The files that decide where git finds a working tree's repository and which configuration it
 * reads, as they were at one moment: what a run records at its start and compares after every
 * step. Plain JSON (the journal stores it).
 */
export interface GitMetadata {
  readonly workTree: string;
  readonly gitDir: string;
  readonly commonDir: string;
  /** `<workTree>/.git`: "directory:<real path>", "file:<content>", or "missing". */
  readonly dotGit: string;
  /** `<gitDir>/commondir`'s content, or null when there is none. */
  readonly commondir: string | null;
  /** `<gitDir>/gitdir`'s content (a linked worktree's way back), or null. */
  readonly gitdirFile: string | null;
  /** SHA-256 of `<gitDir>/config.worktree`, or null when there is none. */
  readonly configWorktree: string | null;
  /** Whether `<gitDir>/HEAD` and `<commonDir>/objects` are there ("present") or not ("missing"). */
  readonly repository: "present" | "missing";
}
