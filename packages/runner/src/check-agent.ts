/**
 * Every check that can be made before a run's first model call, in one function that both
 * `climpt validate` and the runner call, so a definition that validates is one that starts, and
 * one that does not start is one validate rejects: loading (agent.json, the registry, output
 * schemas), every prompt a run can send (files and placeholders), flow analysis, and with a
 * working directory, what the run needs from it.
 */
import { analyzeFlow, buildFlowGraph, type FlowFinding } from "@climpt/flow";
import type { JsonValue, LoadedAgent, Problem } from "@climpt/model";
import { loadAgent } from "@climpt/registry-schema";
import { checkEnvironment } from "./environment-checks.ts";
import { checkPrompts } from "./prompt-checks.ts";
import { verdictTypes } from "./uv-supply.ts";

/** Verdicts that, once spent, move the flow to the first closure step (enterClosure). */
const BUDGET_VERDICTS = new Set(["count:iteration", "count:check"]);

export interface CheckAgentOptions {
  /**
   * The run's arguments after defaults (the runner's `validateArgs`). Given: a parameter missing
   * from them supplies nothing, so a reachable prompt that uses it is an error. Absent (`climpt
   * validate`): a required parameter or one with a default supplies a value, an optional one
   * without a default only sometimes (a warning).
   */
  readonly args?: Readonly<Record<string, JsonValue>> | undefined;
  /** The folder the run works in: when given, what the run needs from it is checked too. */
  readonly cwd?: string | undefined;
  /**
   * `run`: the folder's problems are errors (the run would fail there). `validate` (default):
   * warnings, since validating runs nothing.
   */
  readonly purpose?: "validate" | "run" | undefined;
}

/** What the checks found about one agent definition. */
export interface AgentChecks {
  /** Load-time, prompt and working-folder problems. */
  readonly problems: readonly Problem[];
  /** Flow analysis (`analyzeFlow`), each with the registry file. */
  readonly findings: readonly FlowFinding[];
}

/** Everything `checkAgent` knows about one agent folder. */
export interface AgentCheck extends AgentChecks {
  readonly dir: string;
  /** Present when the definition loaded (it may still have errors of the other checks). */
  readonly loaded?: LoadedAgent;
}

/** The checks of a definition that loaded. */
export async function checkLoadedAgent(
  loaded: LoadedAgent,
  options: CheckAgentOptions = {},
): Promise<AgentChecks> {
  const graph = buildFlowGraph(loaded.registry, {
    budgetClosure: verdictTypes(loaded.agent.verdict).some((type) => BUDGET_VERDICTS.has(type)),
  });
  const prompts = await checkPrompts(loaded, { args: options.args, graph });
  const problems = [...prompts.problems];
  if (options.cwd !== undefined) {
    problems.push(
      ...checkEnvironment(loaded, {
        cwd: options.cwd,
        severity: options.purpose === "run" ? "error" : "warning",
      }),
    );
  }
  const findings = analyzeFlow(loaded.registry, {
    graph,
    prompts: prompts.flowPrompts,
    parameters: Object.values(loaded.agent.parameters).map((parameter) => parameter.name),
    // An agent that declares its run cap has bounded every cycle on purpose: SR-FLOW-005 asks
    // for exactly that bound, so it would only repeat what the author already decided.
    ...(loaded.agent.limits.maxIterations === undefined ? {} : { ignore: ["SR-FLOW-005"] }),
  }).map((finding) => ({ ...finding, file: loaded.files.registry }));
  return { problems, findings };
}

/** Loads the agent folder and runs every check at once. */
export async function checkAgent(
  dir: string,
  options: CheckAgentOptions = {},
): Promise<AgentCheck> {
  const result = await loadAgent(dir);
  if (!result.ok) return { dir, problems: result.issues, findings: [] };
  const checks = await checkLoadedAgent(result.value, options);
  return { dir, loaded: result.value, ...checks };
}

/** Whether any of them is an error (warnings allowed). */
export function hasCheckErrors(checks: AgentChecks): boolean {
  return [...checks.problems, ...checks.findings].some((problem) => problem.severity !== "warning");
}
