import { COMPLETION_CODES } from "@climpt/completion-chain";
import { ClimptError, formatProblem, type Problem, problem } from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";
import type { RunError } from "../run-result.ts";

/**
 * A validator that could not run at all: its command was not found (exit 127), or its definition
 * or the sandbox kept it from starting. The machine's or the definition's fault, never the
 * model's: once the command is installed or the validator fixed, resume must check the same
 * closure output again, not ask the model for it anew. (Exit 126 is left out: a script the model
 * wrote without its executable bit is the work's fault, and the step runs again live.)
 */
const VALIDATOR_COULD_NOT_RUN: ReadonlySet<string> = new Set([
  COMPLETION_CODES.commandNotFound,
  COMPLETION_CODES.validatorBroken,
]);

/**
 * Errors whose journal can continue mid-step: nothing the model said caused them (a stop, a
 * budget, an API failure, a validator that could not run). Resume serves such a step's recorded
 * replies from the journal (a closure step's reply, so its validators run again); a step that
 * ended on what the model said runs again live instead. A run that ended through its
 * `onBudget` step counts too: resumed with the same budget, that step is served from the journal
 * (its comment is not posted twice); with a larger one, the step that was next runs instead.
 */
export function continuesMidStep(code: string | undefined): boolean {
  return (
    code === undefined ||
    code === RUNNER_CODES.interrupted ||
    code === RUNNER_CODES.budgetExceeded ||
    code === RUNNER_CODES.budgetClosed ||
    code === RUNNER_CODES.budgetStepDidNotClose ||
    code.startsWith("AC-MODEL-") ||
    VALIDATOR_COULD_NOT_RUN.has(code)
  );
}

/**
 * A thrown error as the run's error: a `ClimptError` as its own problem (its specific code, and
 * its family when it has one), anything else as `fallbackCode` with the error's message.
 */
export function errorOf(error: unknown, fallbackCode: string): RunError {
  if (ClimptError.isInstance(error)) return error.toProblem();
  return problem(fallbackCode, error instanceof Error ? error.message : String(error));
}

/**
 * `error` as a member of the run-level `family` (e.g. an `AC-STEP-001` schema failure of
 * `FAILED_SCHEMA_RESOLUTION`). A family the error already names is kept, and a code that is the
 * family itself gets none: `family` is only ever a group other than `code`.
 */
export function inFamily(error: RunError, family: string): RunError {
  if (error.family !== undefined || error.code === family) return error;
  return { ...error, family };
}

/**
 * Coded problems (a gate, a route, a prompt) as the run's error: the first problem as it is (the
 * gate's carry their run-level family, `GATE_INTERPRETATION_ERROR` or `FAILED_STEP_ROUTING`).
 * Further problems (rare: a prompt with several missing variables) are appended to the message
 * whole, so none is lost.
 */
export function problemError(problems: readonly Problem[]): RunError {
  const [first, ...others] = problems;
  if (first === undefined)
    return problem(RUNNER_CODES.stepRouting, "The step could not be routed.");
  const rest = others.map((other) => formatProblem(other));
  return {
    ...first,
    severity: "error",
    message: [first.message, ...rest].join("\n"),
  };
}
