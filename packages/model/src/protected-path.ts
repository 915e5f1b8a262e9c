/**
 * A path the model may read but not change. @climpt/tools enforces it and re-exports the type by
 * name; the type lives here because the `StepExecutor` seam (@climpt/protocol) hands the list to
 * every executor, and protocol may depend on this package alone.
 */

/**
 * A folder (or file) inside the working directory that the model may read but not change: the
 * run's journal folder, the agent definitions. The host acts later on what is there — resume
 * trusts the journal, the next run loads the definition and runs its hooks, validators and
 * sandbox setting outside the sandbox — so what the model wrote there would outlive its sandbox
 * (docs/design.md#tools-and-their-boundary).
 */
export interface ProtectedPath {
  /** Absolute, or relative to the working directory. */
  readonly path: string;
  /**
   * Why it is protected, as the model reads it in a refusal: a sentence, e.g. "the run's journal
   * is the runner's record of the run; only the runner writes it."
   */
  readonly reason: string;
}
