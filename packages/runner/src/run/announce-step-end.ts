// `announceStepEnd`: tells `RunnerOptions.onStepEnd` (the caller's hook) that a `StepEnd` is
// durable in the journal; it neither builds nor records the step end, it only waits for the hook.

import { RUNNER_CODES } from "../codes.ts";
import type { StepEnd } from "../phases/step-end.ts";
import { RunnerError } from "../runner-error.ts";
import type { RunContext } from "./run-context.ts";
import type { RunnerOptions } from "./run-options.ts";

/**
 * Calls `RunnerOptions.onStepEnd` once the step's `step_end` is durable in the journal, and waits
 * for it before the run goes on (the next step, or the boundary hook after the last one). The
 * order matters for a fleet that pushes the branch there: whatever the branch holds is never
 * ahead of a step end the journal lacks. A hook that fails ends the run as a resumable failure
 * (`RUN-STEP-HOOK-001`); the step is recorded, so resume continues after it, and the hook is
 * called again at the next step end.
 */
export async function announceStepEnd(
  ctx: RunContext,
  options: RunnerOptions,
  stepEnd: StepEnd,
): Promise<void> {
  const hook = options.onStepEnd;
  if (hook === undefined) return;
  await ctx.events.flush();
  try {
    await hook({
      runId: ctx.runId,
      stepId: stepEnd.stepId,
      iteration: stepEnd.iteration,
      transition: stepEnd.history.transition,
      final: stepEnd.final === true,
      cwd: ctx.cwd,
    });
  } catch (error) {
    throw new RunnerError({
      code: RUNNER_CODES.stepHookFailed,
      message: `The step-end hook failed after step ${stepEnd.stepId} (iteration ${stepEnd.iteration}): ${error instanceof Error ? error.message : String(error)}`,
      hint: `Fix what the hook reports (for a fleet: the push of the run's branch), then continue with \`${ctx.resumeCommand}\`.`,
      cause: error,
    });
  }
}
