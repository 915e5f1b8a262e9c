import { type JsonValue, ownEntry } from "./json.ts";
import type { AgentParameter } from "./model.ts";

/**
 * Which parameter holds a run's issue number. One rule, read by every place that needs the
 * run's issue: the GitHub rights of its tools and gh broker (`githubRunScope`), poll:state, the
 * boundary hook, the orchestrator that passes the issue it dispatches.
 */

/** The agent as far as the rule needs it. */
export interface IssueParameterSource {
  readonly parameters?: Readonly<Record<string, Pick<AgentParameter, "role">>>;
}

/** The name the original gives the issue parameter, used when no parameter declares the role. */
export const DEFAULT_ISSUE_PARAMETER = "issue";

/**
 * The name of the parameter whose `role` is `issue`; when none declares it, `issue` (the
 * original's magic name, kept for its agents: docs/compatibility.md). The loader refuses a
 * definition with two (`AC-PARAM-005`); should one get here anyway the first declared wins.
 */
export function issueParameterName(agent: IssueParameterSource): string {
  for (const [name, parameter] of Object.entries(agent.parameters ?? {})) {
    if (parameter.role === "issue") return name;
  }
  return DEFAULT_ISSUE_PARAMETER;
}

/** The run's issue argument (as given: a number or its text), or undefined. */
export function runIssueArgument(
  agent: IssueParameterSource,
  params: Readonly<Record<string, JsonValue | undefined>>,
): JsonValue | undefined {
  return ownEntry(params, issueParameterName(agent));
}
