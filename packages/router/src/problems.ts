import { ClimptError } from "@climpt/model";

/**
 * A caller used the router out of order (e.g. `routeCheck` without `beforeCheck`): a bug in the
 * runner, not in the agent definition, so it is thrown rather than returned.
 */
export function contractViolation(message: string, hint: string): ClimptError {
  return new ClimptError({ code: "FAILED_STEP_ROUTING", message, hint });
}

export function list(values: readonly string[]): string {
  return `[${values.join(", ")}]`;
}
