import { ClimptError, formatProblem, type JsonValue, type Problem } from "@climpt/model";
import type { RunError } from "./run-result.ts";

/**
 * Errors whose journal can continue mid-step: nothing the model said caused them (a stop, a
 * budget, an API failure). Resume serves such a step's recorded replies from the journal; a step
 * that ended on what the model said runs again live instead.
 */
export function continuesMidStep(code: string | undefined): boolean {
  return (
    code === undefined ||
    code === "AGENT_INTERRUPTED" ||
    code === "AGENT_BUDGET_EXCEEDED" ||
    code.startsWith("AC-MODEL-")
  );
}

/** A thrown error as the run's error: a `ClimptError`'s own fields, else `fallbackCode`. */
export function errorOf(error: unknown, fallbackCode: string): RunError {
  if (ClimptError.isInstance(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.file === undefined ? {} : { file: error.file }),
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    };
  }
  return { code: fallbackCode, message: error instanceof Error ? error.message : String(error) };
}

/** Coded problems (a gate, a route, a prompt) as the run's error. */
export function problemError(problems: readonly Problem[]): RunError {
  const first = problems[0];
  // The first problem's code, file, path and hint are the error's own fields; further problems
  // (rare: a prompt with several missing variables) are appended whole so none is lost.
  const rest = problems.slice(1).map((problem) => formatProblem(problem));
  // A problem with a run-level family (the gate's) fails the run with the family; its specific
  // code leads the message as a clause ("SR-INTENT-007: step …"), as the run result has a single
  // code field.
  const message =
    first?.family === undefined
      ? first?.message
      : `${first.code}: ${first.message.charAt(0).toLowerCase()}${first.message.slice(1)}`;
  return {
    code: first?.family ?? first?.code ?? "FAILED_STEP_ROUTING",
    message: [message ?? "The step could not be routed.", ...rest].join("\n"),
    ...(first?.file === undefined ? {} : { file: first.file }),
    ...(first?.path === undefined ? {} : { path: first.path }),
    ...(first?.hint === undefined ? {} : { hint: first.hint }),
  };
}

/** A value as plain JSON (the journal's form); undefined becomes null. */
export function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}
