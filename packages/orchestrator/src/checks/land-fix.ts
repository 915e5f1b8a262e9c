import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { DispatchOutcome, Landed } from "../dispatch/dispatcher.ts";
import type { OrchestratorContext } from "../orchestrate/issue-types.ts";
import { lockLostError } from "../state/lock-lost.ts";
import type { LandingConfig } from "../workflow-model.ts";

/**
 * Pushes a successful fix run's commits to the pull request's branch — by the host, through the
 * landing every run's work takes, never by the model: `pull-request` when the workflow lands
 * that way (it reuses the open pull request), else `push` to the same remote (a checks phase
 * follows a pull request, so its branch must reach the remote, whatever the default mode).
 */
export async function landFix(
  context: OrchestratorContext,
  issue: { readonly number: number; readonly title: string },
  outcome: DispatchOutcome,
  options: { readonly holds: () => Promise<boolean>; readonly signal?: AbortSignal },
): Promise<{ ok: true; value: Landed | null } | { ok: false; error: OrchestratorError }> {
  const land = context.dispatcher.land;
  if (outcome.branch === null || land === undefined) return { ok: true, value: null };
  const configured = context.landing ?? context.workflow.landing;
  const landing: LandingConfig = {
    mode: configured?.mode === "pull-request" ? "pull-request" : "push",
    remote: configured?.remote ?? "origin",
    base: configured?.base ?? null,
  };
  const result = await land.call(context.dispatcher, {
    issue: { repo: context.repo, number: issue.number, title: issue.title },
    branch: outcome.branch,
    landing,
    holds: options.holds,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (!result.ok && result.error.code === C.stateLockLost)
    throw lockLostError(issue.number, "before the fix was pushed");
  return result;
}
