import { ClimptError } from "@climpt/model";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";

/** What an issue whose lock was lost reports (`ORC-STATE-003`), as data. */
export function lockLostProblem(issue: number, why: string): OrchestratorError {
  return {
    code: C.stateLockLost,
    message: `Issue #${issue}'s lock was lost (${why}): the run is stopped and nothing more is written for the issue.`,
    hint: "Nothing, usually: the job is taken again and the run resumes from its journal. If it keeps happening, raise the lease (--lease): the machine stalls for three quarters of it or more (it is renewed every quarter).",
  };
}

/** The same, thrown by a write refused because its writer no longer holds the issue. */
export function lockLostError(issue: number, why: string): ClimptError {
  return new ClimptError(lockLostProblem(issue, why));
}

export function isLockLost(error: unknown): boolean {
  return ClimptError.isInstance(error) && error.code === C.stateLockLost;
}
