import { type ChainEvent, runCompletionChain } from "@climpt/completion-chain";
import { type JsonValue, ownEntry } from "@climpt/model";
import type { ClosingDecision, CompleteDecision } from "@climpt/router";
import { runGitChange } from "../git/run-git.ts";
import { readWorkCommit } from "../git/work-state.ts";
import type { RunContext } from "../run/run-context.ts";
import { problemError } from "../run/run-errors.ts";
import type { RunState } from "../run/run-state.ts";
import { runBaselineSetup } from "./baseline-setup.ts";
import { validatorLauncher } from "./command-sandboxes.ts";
import type { FinishedStep } from "./finished-step.ts";
import { ledgerAttempt } from "./ledger-record.ts";
import { runtimeVariables } from "./model-phase.ts";
import { stepEnd } from "./step-end.ts";
import { continueWith, endAtStep, type StepOutcome } from "./step-outcome.ts";

/** "validator git-clean failed (exit 0)": the first failed validator, for the verdict event. */
function failedValidatorText(
  results: readonly { id: string; passed: boolean; exitCode: number | null; timedOut: boolean }[],
): string {
  const failed = results.find((result) => !result.passed);
  if (failed === undefined) return "validation failed";
  const how = failed.timedOut ? "timed out" : `exit ${failed.exitCode ?? "none"}`;
  return `validator ${failed.id} failed (${how})`;
}

function journalValidator(
  ctx: RunContext,
  stepId: string,
  iteration: number,
  event: ChainEvent,
): void {
  if (event.type !== "validator-finished") return;
  const result = event.result;
  ctx.events.emit({
    type: "validator",
    iteration,
    stepId,
    validator: result.id,
    passed: result.passed,
    command: result.command,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    output: `${result.stdout}${result.stderr}`.slice(0, 4000),
    ...(result.baseline === undefined ? {} : { baseline: result.baseline }),
  });
}

/**
 * The completion loop, after a closure step's `closing` (or a check-dialect `complete`): the
 * completion chain runs the validators and the verdict. Done ends the run successfully (the
 * boundary hook runs while finishing); a refusal sends the flow back to the work step that led
 * in, with the chain's retry prompt, as long as the router allows another attempt.
 */
export async function completionPhase(
  ctx: RunContext,
  state: RunState,
  decision: ClosingDecision | CompleteDecision,
  finished: FinishedStep,
): Promise<StepOutcome> {
  const { interpreted } = finished;
  const { step, iteration } = interpreted;
  // The validators may run git: not where the git metadata changed since the run started (a
  // program step ran outside the sandbox right before this). Resume validates again.
  const gitChanged = runGitChange(ctx.git, ctx.resumeCommand);
  if (gitChanged !== undefined)
    return { kind: "end", ending: { finalStepId: step.id, error: gitChanged } };
  const routerState = decision.state;
  const handoff = { ...state.handoff, [step.id]: interpreted.handoff };
  const boundaryRequests = finished.toolbox?.boundaryRequests() ?? [];
  const attempt = (ownEntry(routerState.validationAttempts, step.id) ?? 0) + 1;
  // The commit the validators run against, read before they run (they may write files).
  const work = ctx.changes.git === null ? undefined : await readWorkCommit(ctx.changes.git);
  const chain = await runCompletionChain({
    loaded: ctx.loaded,
    closureStepId: step.id,
    closing: finished.withoutIntent !== true,
    closureOutput: interpreted.output,
    closureText: finished.text,
    handoff,
    returnStepId: ctx.router.returnStepFor(routerState, step.id),
    attempt: ownEntry(routerState.validationAttempts, step.id) ?? 0,
    iteration,
    cwd: ctx.cwd,
    params: ctx.args,
    verdict: ctx.verdict,
    promptSource: ctx.promptSource,
    channels: {
      parameters: ctx.args,
      runtime: runtimeVariables(ctx, state, iteration + 1),
      handoff,
    },
    boundaryRequests,
    signal: ctx.signal,
    scrubber: ctx.events.scrubber,
    // The validators run in the OS sandbox unless the agent turned it off (command-sandboxes.ts).
    launchValidator: validatorLauncher(ctx),
    // Failures of validators with `baseline: "compare"` are compared with the run's base.
    baseline: runBaselineSetup(ctx),
    onEvent: (event) => journalValidator(ctx, step.id, iteration, event),
  });
  // Stopped while validators or the verdict ran: their outcome says nothing about the work.
  // End as the stop, without a step_end, so resume serves this step's replies from the journal
  // and validates again (and the boundary hook never runs after a stop).
  const stopped = ctx.stopped();
  if (stopped !== undefined) return endAtStep(state, interpreted, stopped, ctx.usage.totals);
  if (chain.validation.results.length > 0) {
    ctx.events.emit({
      type: "ledger",
      ...ledgerAttempt(
        {
          iteration,
          stepId: step.id,
          attempt,
          passed: chain.validation.passed,
          commit: work?.commit ?? null,
          ...(work?.error === undefined ? {} : { commitError: work.error }),
          results: chain.validation.results,
        },
        ctx.events.scrubber,
      ),
    });
  }

  const verdictEvent = { type: "verdict", iteration, stepId: step.id } as const;
  if (chain.kind === "done") {
    ctx.events.emit({
      ...verdictEvent,
      outcome: "done",
      reason: chain.reason,
      returnStepId: null,
      failurePattern: null,
    });
    const record = stepEnd(
      interpreted,
      { transition: decision.kind, routerState, final: true },
      ctx.usage.totals,
    );
    return {
      kind: "end",
      ending: {
        finalStepId: step.id,
        completionReason: chain.reason,
        ...verdictOf(interpreted.output),
        stepEnd: record,
        boundary: {
          closureOutput: interpreted.output,
          boundaryRequests,
          awaitsBoundary: chain.verdict.awaitsBoundary === true,
        },
      },
    };
  }
  const ended = { ran: true, transition: decision.kind } as const;
  if (chain.kind === "abort") {
    ctx.events.emit({
      ...verdictEvent,
      outcome: "abort",
      reason: chain.error.message,
      returnStepId: null,
      failurePattern: null,
    });
    return endAtStep(state, interpreted, chain.error, ctx.usage.totals, ended);
  }
  ctx.events.emit({
    ...verdictEvent,
    outcome: "retry",
    reason: chain.verdict?.reason ?? failedValidatorText(chain.validation.results),
    returnStepId: chain.returnStepId,
    failurePattern: chain.failurePattern ?? null,
  });
  const back = ctx.router.returnAfterFailedValidation(routerState, step.id);
  if (!back.ok)
    return endAtStep(state, interpreted, problemError(back.issues), ctx.usage.totals, ended);
  const to = back.value.stepId;
  ctx.events.emit({
    type: "route",
    iteration,
    from: step.id,
    decision: "validation-retry",
    to,
    via: "validation-retry",
  });
  return continueWith(
    stepEnd(
      interpreted,
      {
        transition: `validation-retry:${to}`,
        routerState: back.value.state,
        pendingRetry: { stepId: to, text: chain.retryPrompt },
      },
      ctx.usage.totals,
    ),
  );
}

/**
 * The run's verdict (docs/design.md#the-run-result): the `verdict` string the closure step's
 * output carries, which the orchestration layer routes on; nothing when there is none.
 */
export function verdictOf(output: JsonValue): { readonly verdict?: string } {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return {};
  const verdict = output.verdict;
  return typeof verdict === "string" && verdict.trim() !== "" ? { verdict } : {};
}
