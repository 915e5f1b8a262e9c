import * as path from "node:path";
import type { Problem, Result } from "@climpt/model";
import { findAgentDir } from "@climpt/registry-schema";
import { problemFromError } from "./agent-check.ts";

/** Problems an AgentDefinitionError carries, or the error itself as one problem. */
export function problemsFromError(error: unknown): Problem[] {
  if (typeof error === "object" && error !== null && "problems" in error) {
    const problems = (error as { problems: unknown }).problems;
    if (Array.isArray(problems) && problems.length > 0) return problems as Problem[];
  }
  return [problemFromError(error)];
}

/** Whether `<agent>` was written as a path (`./x`, `agents/x`, `/abs/x`) rather than a name. */
function looksLikePath(ref: string): boolean {
  return ref.includes("/") || ref.includes(path.sep) || ref.startsWith(".");
}

/**
 * The agent folder `<agent>` names: a path to a folder with agent.json, or a name under `.agent/`.
 * A path is relative to where climpt was started (`invokedFrom`), as in a shell; a name is looked
 * up under the working directory (`--cwd`) or `--agent-dir`.
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
