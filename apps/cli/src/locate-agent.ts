import * as path from "node:path";
import { ClimptError, type Problem, type Result } from "@climpt/model";
import { findAgentDir } from "@climpt/registry-schema";

/** A thrown ClimptError as a Problem, so it is listed with the others; anything else rethrows. */
export function problemFromError(error: unknown): Problem {
  if (ClimptError.isInstance(error)) return { ...error.toProblem(), severity: "error" };
  throw error;
}

/** Problems an AgentDefinitionError carries, or the error itself as one problem. */
export function problemsFromError(error: unknown): Problem[] {
  if (typeof error === "object" && error !== null && "problems" in error) {
    const problems = (error as { problems: unknown }).problems;
    if (Array.isArray(problems) && problems.length > 0) return problems as Problem[];
  }
  return [problemFromError(error)];
}

/** Whether `<agent>` was written as a path (`./x`, `agents/x`, `/abs/x`) rather than a name. */
export function looksLikePath(ref: string): boolean {
  return ref.includes("/") || ref.includes(path.sep) || ref.startsWith(".");
}

/**
 * The agent folder `<agent>` names: a path to a folder with agent.json, or a name under `.agent/`.
 * A path is relative to where climpt was started (`invokedFrom`), as in a shell; a name is looked
 * up in `--agent-dir`, else in the nearest `.agent/` from the working directory (`--cwd`) up to the
 * repository's root, as git finds `.git` (registry-schema's `findAgentDir`).
 */
export async function locateAgent(
  nameOrPath: string,
  location: { readonly cwd: string; readonly agentDir?: string },
  invokedFrom: string = location.cwd,
): Promise<Result<string>> {
  // From registry-schema, not the runner: locating a folder must not load the SDK (cold start).
  const ref = looksLikePath(nameOrPath) ? path.resolve(invokedFrom, nameOrPath) : nameOrPath;
  return findAgentDir(ref, location);
}
