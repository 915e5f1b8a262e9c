import { ClimptError, jsonPath, type Problem } from "@climpt/model";

/** `$.steps["initial.issue"].transitions.next`-style paths into steps_registry.json. */
export function stepPath(stepId: string, ...rest: string[]): string {
  let path = jsonPath(jsonPath("$", "steps"), stepId);
  for (const segment of rest) path = jsonPath(path, segment);
  return path;
}

export function problem(code: string, message: string, path: string, hint: string): Problem {
  return { code, severity: "error", message, path, hint };
}

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
