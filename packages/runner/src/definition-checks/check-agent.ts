/**
 * Every check that can be made before a run's first model call, in one function that both
 * `climpt validate` and the runner call, so a definition that validates is one that starts, and
 * one that does not start is one validate rejects: loading (agent.json, the registry, output
 * schemas), every prompt a run can send (files and placeholders), flow analysis, and with a
 * working directory, what the run needs from it.
 */
import { analyzeFlow, buildFlowGraph, type FlowFinding, type FlowGraph } from "@climpt/flow";
import {
  type AgentDefinition,
  type JsonValue,
  type LoadedAgent,
  ownRecord,
  type Problem,
  type Registry,
  resolveRunIterationCap,
} from "@climpt/model";
import { inspectAgent, resolveEntryStep } from "@climpt/registry-schema";
import { checkEnvironment } from "./environment-checks.ts";
import { checkPrompts } from "./prompt-checks.ts";
import { checkSandbox } from "./sandbox-check.ts";
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
  /**
   * Also check the agent's OS sandbox setting on this machine (`checkSandbox`): RUN-SANDBOX-001
   * when it is required, Bash, a validator or a program step would run in it, and it cannot start
   * (a warning for `validate`, which runs nothing); RUN-SANDBOX-002 when it is off.
   */
  readonly sandbox?: boolean | undefined;
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

/**
 * Flow findings `climpt validate` reports as errors that do not stop a run: the original runtime
 * runs such definitions (its facilitator agent moves from work to closure with `next`), so a run
 * warns where validate refuses (docs/compatibility.md).
 */
const VALIDATE_ONLY_ERRORS: ReadonlySet<string> = new Set(["SR-TRANS-108"]);

/** Flow codes that repeat a loader check (SR-TRANS-001 / -002) about the same transition. */
const LOADER_RESTATED: ReadonlySet<string> = new Set([
  "SR-TRANS-101",
  "SR-TRANS-102",
  "SR-TRANS-103",
]);

/**
 * Reachability findings (unreachable steps, no completion reachable) of a graph with a transition
 * to a step that does not exist: one misspelt target (SR-TRANS-001, which names the step meant)
 * cuts the graph, and every step behind it would be reported too. They are left out until the
 * targets name steps; the next `climpt validate` reports the real ones.
 */
const CUT_GRAPH_FOLLOW_ONS: ReadonlySet<string> = new Set(["SR-FLOW-003", "SR-FLOW-004"]);

/** Whether a flow finding says again what a loader problem at the same place already says. */
function restatesLoader(finding: FlowFinding, problems: readonly Problem[]): boolean {
  if (
    CUT_GRAPH_FOLLOW_ONS.has(finding.code) &&
    problems.some((known) => known.code === "SR-TRANS-001")
  ) {
    return true;
  }
  if (!LOADER_RESTATED.has(finding.code) || finding.path === undefined) return false;
  const at = finding.path;
  return problems.some((known) => known.path === at || known.path?.startsWith(`${at}.`));
}

/** The flow graph, with the budget verdict's edges when the agent has one. */
function flowGraphOf(registry: Registry, agent: AgentDefinition | undefined): FlowGraph {
  return buildFlowGraph(registry, {
    budgetClosure:
      agent !== undefined && verdictTypes(agent.verdict).some((type) => BUDGET_VERDICTS.has(type)),
  });
}

/**
 * Flow analysis of a definition as far as it could be read: from the entry of the agent's verdict
 * type, with the prompts' texts. A cap the agent declares (limits, or its verdict's maxIterations
 * as the original reads it) bounds every cycle on purpose: SR-FLOW-005 asks for exactly that
 * bound, so it would only repeat what the author already decided (docs/design.md#limits-and-budgets).
 */
function flowFindings(
  draft: {
    readonly agent?: AgentDefinition;
    readonly registry: Registry;
    readonly files: { readonly registry: string };
  },
  graph: FlowGraph,
  prompts: Readonly<Record<string, string>>,
  problems: readonly Problem[],
): FlowFinding[] {
  const { agent, registry } = draft;
  const entry = agent === undefined ? undefined : resolveEntryStep(registry, agent.verdict.type);
  const capped =
    agent !== undefined && resolveRunIterationCap(agent, registry).source !== "default";
  return analyzeFlow(registry, {
    graph,
    prompts,
    parameters: agent === undefined ? [] : Object.values(agent.parameters).map((p) => p.name),
    ...(entry?.ok === true ? { entries: [entry.value] } : {}),
    ...(capped ? { ignore: ["SR-FLOW-005"] } : {}),
  })
    .filter((finding) => !restatesLoader(finding, problems))
    .map((finding) => ({ ...finding, file: draft.files.registry }));
}

/** The checks of a definition that loaded. */
export async function checkLoadedAgent(
  loaded: LoadedAgent,
  options: CheckAgentOptions = {},
): Promise<AgentChecks> {
  const graph = flowGraphOf(loaded.registry, loaded.agent);
  const prompts = await checkPrompts(loaded, { args: options.args, graph });
  const problems = [...(loaded.warnings ?? []), ...prompts.problems];
  if (options.cwd !== undefined) {
    problems.push(
      ...checkEnvironment(loaded, {
        cwd: options.cwd,
        severity: options.purpose === "run" ? "error" : "warning",
      }),
    );
  }
  if (options.sandbox === true) {
    problems.push(
      ...(await checkSandbox(loaded, {
        severity: options.purpose === "run" ? "error" : "warning",
      })),
    );
  }
  const findings = flowFindings(loaded, graph, prompts.flowPrompts, problems).map((finding) =>
    options.purpose === "run" && VALIDATE_ONLY_ERRORS.has(finding.code)
      ? { ...finding, severity: "warning" as const }
      : finding,
  );
  return { problems, findings };
}

/**
 * Loads the agent folder and runs every check at once. Flow analysis runs on the definition as
 * far as it could be read even when loading failed, so one `climpt validate` shows both kinds of
 * problem.
 */
export async function checkAgent(
  dir: string,
  options: CheckAgentOptions = {},
): Promise<AgentCheck> {
  const inspection = await inspectAgent(dir);
  if (inspection.loaded !== undefined) {
    const checks = await checkLoadedAgent(inspection.loaded, options);
    return { dir, loaded: inspection.loaded, ...checks };
  }
  const problems = inspection.problems;
  const draft = inspection.draft;
  if (draft === undefined) return { dir, problems, findings: [] };
  const findings = flowFindings(
    draft,
    flowGraphOf(draft.registry, draft.agent),
    ownRecord<string>(),
    problems,
  );
  return { dir, problems, findings };
}

/** Whether any of them is an error (warnings allowed). */
export function hasCheckErrors(checks: AgentChecks): boolean {
  return [...checks.problems, ...checks.findings].some((problem) => problem.severity !== "warning");
}
