import { fail, ok, type Problem, type Result } from "@climpt/registry-schema";
import { problemFromError } from "./agent-check.ts";
import { runnerModule } from "./runner-module.ts";

/** Problems an AgentDefinitionError carries, or the error itself as one problem. */
export function problemsFromError(error: unknown): Problem[] {
  if (typeof error === "object" && error !== null && "problems" in error) {
    const problems = (error as { problems: unknown }).problems;
    if (Array.isArray(problems) && problems.length > 0) return problems as Problem[];
  }
  return [problemFromError(error)];
}

/** The agent folder `<agent>` names: a path to a folder with agent.json, or a name under `.agent/`. */
export async function locateAgent(
  nameOrPath: string,
  location: { readonly cwd: string; readonly agentDir?: string },
): Promise<Result<string>> {
  const { findAgentDir } = await runnerModule();
  try {
    return ok(findAgentDir(nameOrPath, location));
  } catch (error) {
    return fail(problemsFromError(error));
  }
}
