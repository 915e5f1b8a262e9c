import {
  type JsonValue,
  problem,
  type Step,
  type StepSubprocess,
  substituteContextRefs,
} from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import type { RunContext } from "../run/run-context.ts";
import { problemError } from "../run/run-errors.ts";
import type { RunState } from "../run/run-state.ts";
import { runProgram } from "./command-sandboxes.ts";
import { followDecision } from "./follow-decision.ts";
import { type InterpretedStep, stepEnd, unanswered } from "./step-end.ts";
import { continueWith, endAtStep, type StepOutcome } from "./step-outcome.ts";
import { observeInterpreted } from "./verdict-observation.ts";

/** Output kept in the journal and in messages, per stream. */
const OUTPUT_CHARS = 4000;

/**
 * A closure step that runs a program instead of the model (docs/design.md#the-completion-chain):
 * its `${context.*}` arguments are the run's arguments, the program runs without a shell in the
 * working directory, in the OS sandbox unless the agent turned it off (command-sandboxes.ts),
 * bounded by its timeout and the run's signal; its stdout is the step's
 * output, and exit 0 is the step's `closing` (the completion chain decides, as after a model's
 * closing). Any other exit runs the step again as the next iteration; when the run cap leaves no
 * iteration for that, the run ends with `RUN-PROGRAM-002`, naming the exit and the output.
 */
export async function programStep(
  ctx: RunContext,
  state: RunState,
  step: Step,
  program: StepSubprocess,
): Promise<StepOutcome> {
  const iteration = state.routerState.iteration;
  ctx.events.emit({
    type: "step_start",
    iteration,
    stepId: step.id,
    stepKind: step.kind,
    model: "program",
    phase: "step",
    retry: false,
  });
  const args = substituteContextRefs(program.args, ctx.args);
  if (!args.ok) {
    const keys = args.issues.map((key) => `"${key}"`).join(", ");
    return endAtStep(
      state,
      unanswered(step, iteration),
      problem(
        RUNNER_CODES.programArgumentMissing,
        `Step "${step.id}" runs ${program.command} with \${context.*} arguments that have no value: ${keys}.`,
        {
          file: ctx.loaded.files.registry,
          path: `$.steps["${step.id}"].runner.args`,
          hint: "Pass each as an agent argument (declare it in agent.json parameters), or remove the reference.",
        },
      ),
      ctx.usage.totals,
    );
  }
  const started = Date.now();
  const ran = await runProgram(ctx, step.id, program, args.value);
  if (!ran.ok) return endAtStep(state, unanswered(step, iteration), ran.error, ctx.usage.totals);
  const { outcome, boundaryRequests } = ran;
  const stdout = outcome.stdout.slice(0, OUTPUT_CHARS);
  const stderr = outcome.stderr.slice(0, OUTPUT_CHARS);
  ctx.events.emit({
    type: "program",
    iteration,
    stepId: step.id,
    command: [program.command, ...args.value],
    exitCode: outcome.exitCode,
    ...(outcome.timedOut === true ? { timedOut: true } : {}),
    stdout,
    stderr,
    durationMs: Date.now() - started,
  });
  const stopped = ctx.stopped();
  if (stopped !== undefined) {
    return endAtStep(state, unanswered(step, iteration), stopped, ctx.usage.totals);
  }
  const output = programOutput(outcome.stdout);
  const interpreted: InterpretedStep = { ...unanswered(step, iteration), output };
  // The verdict sees a program step's execution as it sees a model step's (resume folds its
  // step_end the same way).
  observeInterpreted(ctx.verdict, interpreted);
  const closed = ctx.router.closeWithoutIntent(state.routerState);
  if (!closed.ok) {
    return endAtStep(state, interpreted, problemError(closed.issues), ctx.usage.totals);
  }
  if (outcome.exitCode === 0 && outcome.timedOut !== true) {
    return followDecision(ctx, state, closed.value, {
      interpreted,
      text: outcome.stdout,
      // What the program's gh calls recorded, for the verdict and the boundary hook.
      toolbox: { boundaryRequests: () => boundaryRequests },
    });
  }
  const why =
    outcome.timedOut === true
      ? `ran longer than ${program.timeoutMs} ms and was stopped`
      : `exited ${outcome.exitCode}`;
  const again = ctx.router.returnAfterFailedValidation(closed.value.state, step.id);
  if (!again.ok) {
    const detail = `${stderr}\n${stdout}`.trim();
    return endAtStep(
      state,
      interpreted,
      problem(
        RUNNER_CODES.programFailed,
        `Step "${step.id}": \`${program.command} ${args.value.join(" ")}\` ${why}${detail === "" ? "" : `: ${detail.slice(0, 500)}`}. ${again.issues[0]?.message ?? ""}`.trim(),
        {
          file: ctx.loaded.files.registry,
          path: `$.steps["${step.id}"].runner`,
          hint: "Read the program's output in the journal (the `program` event); it runs again only while the run's iteration cap allows.",
        },
      ),
      ctx.usage.totals,
      { ran: true, transition: "error" },
    );
  }
  ctx.events.emit({
    type: "route",
    iteration,
    from: step.id,
    decision: "step",
    to: again.value.stepId,
    via: again.value.via,
  });
  return continueWith(
    stepEnd(
      interpreted,
      { transition: again.value.stepId, routerState: again.value.state },
      ctx.usage.totals,
    ),
  );
}

/** The program's stdout as the step's output: a JSON object as it is, anything else as `raw`. */
export function programOutput(stdout: string): JsonValue {
  const text = stdout.trim();
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as JsonValue;
    }
  } catch {
    // Not JSON: kept as text.
  }
  return { raw: stdout };
}
