/**
 * The only exit codes `climpt` uses, apart from a second Ctrl-C (130)
 * (docs/design.md#the-run-result).
 */
export const EXIT = {
  /** The command did what was asked; `run`: the agent completed. */
  ok: 0,
  /** The run failed (or was interrupted; it can be resumed). */
  runFailed: 1,
  /** Bad usage, or an invalid agent definition. */
  usage: 2,
  /**
   * A bug in climpt (an error no code describes): not 1, so a script that retries failed runs
   * does not retry a crash, and not 2, which blames the definition.
   */
  internal: 3,
  /** A second Ctrl-C: the process ends at once, the way shells report SIGINT. */
  interrupted: 130,
} as const;
