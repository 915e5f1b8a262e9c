import {
  ClimptError,
  type ClimptErrorOptions,
  errorMarker,
  hasErrorMarker,
  markError,
  type Problem,
} from "@climpt/model";
import { RUNNER_CODES } from "./codes.ts";

const runnerErrorMarker = errorMarker("RunnerError");

/** An error of the runner itself (journal, arguments, worktree): a `ClimptError` with a code. */
export class RunnerError extends ClimptError {
  constructor(options: ClimptErrorOptions) {
    super(options);
    markError(this, runnerErrorMarker);
    this.name = "RunnerError";
  }

  /** Whether `error` is a RunnerError, from any copy of this package. */
  static override isInstance(error: unknown): error is RunnerError {
    return hasErrorMarker(error, runnerErrorMarker);
  }
}

const agentDefinitionErrorMarker = errorMarker("AgentDefinitionError");

/**
 * An agent definition that does not load: every problem at once. The CLI prints each with
 * `formatProblem` and exits 2.
 */
export class AgentDefinitionError extends ClimptError {
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[], options: { file?: string; hint?: string } = {}) {
    const first = problems[0];
    const errors = problems.filter((problem) => problem.severity === "error").length;
    super({
      code: first?.code ?? RUNNER_CODES.emptyDefinitionError,
      message:
        problems.length === 1 && first !== undefined
          ? first.message
          : `The agent definition has ${errors} error(s) and ${problems.length - errors} warning(s).`,
      ...(options.file === undefined ? {} : { file: options.file }),
      ...((options.hint ?? first?.hint) ? { hint: options.hint ?? first?.hint } : {}),
    });
    markError(this, agentDefinitionErrorMarker);
    this.name = "AgentDefinitionError";
    this.problems = problems;
  }

  /** Whether `error` is an AgentDefinitionError, from any copy of this package. */
  static override isInstance(error: unknown): error is AgentDefinitionError {
    return hasErrorMarker(error, agentDefinitionErrorMarker);
  }
}
