/**
 * The codes of `climpt view`'s own errors (exit 2). They belong to the CLI's `AC-*` family, in a
 * range of their own so the viewer's codes can grow without touching the other commands'.
 */
export const VIEW_CODES = {
  /**
   * A run id with no journal in the project's journal folders. Fix: The message lists the folders
   * looked in; pass `--cwd`, or the journal file.
   */
  runNotFound: "AC-VIEW-001",
  /**
   * A file argument that is missing or not a journal (its first line is not `run_start`). Fix: Pass
   * a `<run id>.jsonl` journal.
   */
  notAJournal: "AC-VIEW-002",
  /** `climpt view` without a run in a project that has no journal. Fix: Run an agent first, or pass `--cwd`. */
  noRuns: "AC-VIEW-003",
  /** The page cannot be written where --out says. Fix: Choose a writable path. */
  cannotWrite: "AC-VIEW-004",
  /** `--serve` cannot listen on the port. Fix: Another `--port`, or `--port 0`. */
  cannotListen: "AC-VIEW-005",
} as const;
