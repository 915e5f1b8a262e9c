/**
 * Where a fleet keeps, per run, the commit each step ended on, so a run resumed on another
 * machine can tell whether the branch it rebuilt its worktree from holds the journal's last step.
 *
 * The window it closes: a step's `step_end` is durable before the step-end hook pushes the
 * branch, so a worker killed between the two leaves the pushed branch one step behind the
 * journal. Without a check, a resume elsewhere would continue after that step on a worktree that
 * lacks its file changes. With it, the dispatcher compares the rebuilt worktree's HEAD with the
 * commit recorded for the journal's last step end and, when they differ, rewinds the journal to
 * before that `step_end`: the step becomes the interrupted one, its recorded model replies are
 * served again (no model call is repeated) and its tool calls run again in the rebuilt worktree,
 * making the changes the branch lacks.
 */
export interface StepCommitLedger {
  /** Records the commit run `runId` of `agent` ended step iteration `iteration` on. */
  record(agent: string, runId: string, iteration: number, commit: string): Promise<void>;
  /** The commit recorded for that step end, or null when none was (killed before recording). */
  commitOf(agent: string, runId: string, iteration: number): Promise<string | null>;
  /**
   * Drops the run's journal events from position `seq` on (a `step_end` and what followed it),
   * so the run resumes with that step interrupted. Returns how many events were dropped.
   */
  rewind(agent: string, runId: string, seq: number): Promise<number>;
}
