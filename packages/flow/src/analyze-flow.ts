import type { Registry, Step } from "@climpt/model";
import type { FlowFinding, FlowFindingCode } from "./flow-codes.ts";
import { buildFlowGraph, type FlowGraph } from "./flow-graph.ts";
import {
  entryFindings,
  reachabilityFindings,
  unboundedCycleFindings,
} from "./flow-graph-findings.ts";
import { handoffFindings } from "./flow-handoff-findings.ts";
import { indexFlow, markReachable } from "./flow-index.ts";
import { hasDynamicJump, intentFindings, transitionFindings } from "./flow-transition-findings.ts";

export interface AnalyzeFlowOptions {
  /**
   * Prompt text per step id (the resolved step prompt). `{uv-<step>_<key>}` placeholders in it
   * are checked like `uvVariables` entries. Steps without an entry are checked by uvVariables only.
   */
  readonly prompts?: Readonly<Record<string, string>>;
  /** Agent parameter names (channel 1): such names are never taken for handoff reads. */
  readonly parameters?: readonly string[];
  /** Finding codes to leave out, e.g. `["SR-FLOW-005"]` for a flow whose repeats are meant to be capped by the run limit. */
  readonly ignore?: readonly FlowFindingCode[];
  /** A graph already built from this registry by `buildFlowGraph`, to avoid building it twice. */
  readonly graph?: FlowGraph;
  /** Without `graph`: build it with the budget verdict's edges (`FlowGraphOptions`). */
  readonly budgetClosure?: boolean;
  /**
   * The step ids a run of this agent starts at (the entry of its verdict type). When given, the
   * registry's other entries (another verdict type's entry step) are left out of the analysis:
   * what only they reach never runs for this agent, and a path from them says nothing about what
   * this agent's runs read. When none of them is a declared entry, every entry is kept.
   */
  readonly entries?: readonly string[];
}

/**
 * The check-dialect steps that write `iterations`: the runtime runs each at most `iterations.max`
 * times in a run (docs/compatibility.md, Routing), so a cycle through one is bounded.
 */
function stepsBoundedByIterations(steps: readonly Step[]): ReadonlySet<string> {
  const bounded = new Set<string>();
  for (const step of steps) {
    if (step.iterations.declared === true && step.iterations.max >= 1) bounded.add(step.id);
  }
  return bounded;
}

/** The graph with only the entries a run of this agent uses (see `AnalyzeFlowOptions.entries`). */
function withRunEntries(graph: FlowGraph, entries: readonly string[] | undefined): FlowGraph {
  if (entries === undefined) return graph;
  const kept = graph.entries.filter((entry) => entries.includes(entry.stepId));
  return kept.length === 0 ? graph : { ...graph, entries: kept };
}

/**
 * Static flow analysis of a normalized registry: entry, reachability, completion, unbounded
 * cycles, intent/transition agreement, kind-crossing transitions and handoff dataflow. Returns
 * every finding at once, grouped by step in declaration order (registry-wide findings first).
 * Linear in the size of the registry apart from the dominator fixpoint, which converges in a few
 * passes on real flows; nothing recurses, so 10,000-step registries are fine.
 */
export function analyzeFlow(registry: Registry, options: AnalyzeFlowOptions = {}): FlowFinding[] {
  const declared =
    options.graph ?? buildFlowGraph(registry, { budgetClosure: options.budgetClosure === true });
  const graph = withRunEntries(declared, options.entries);
  const flow = indexFlow(graph);
  const steps = graph.nodes.map((node) => registry.steps[node.id] as Step);

  const openSteps = new Set<number>();
  steps.forEach((step, index) => {
    if (hasDynamicJump(step)) openSteps.add(index);
  });
  const closures: number[] = [];
  graph.nodes.forEach((node, index) => {
    if (node.kind === "closure") closures.push(index);
  });
  const reachesClosure = markReachable(flow.size, closures, flow.predecessors);

  const findings: FlowFinding[] = [
    // Every declared entry must name a flow step, whichever verdict type it serves.
    ...entryFindings(registry, graph === declared ? flow : indexFlow(declared, undefined, flow)),
    ...reachabilityFindings(flow, openSteps),
    ...unboundedCycleFindings(flow, stepsBoundedByIterations(steps)),
    // A budget's move into closure is an emergency exit, not a path the flow is designed along:
    // handoff dataflow is judged on the declared edges only, or every budgeted flow would be
    // told that its closure may read values no step wrote yet.
    ...handoffFindings(
      registry,
      graph.edges.some((edge) => edge.kind === "budget")
        ? indexFlow(graph, (edge) => edge.kind !== "budget", flow)
        : flow,
      options,
    ),
  ];
  const context = {
    registry,
    reachesClosure: (stepId: string) => {
      const index = flow.indexOf.get(stepId);
      return index !== undefined && reachesClosure[index] === 1;
    },
  };
  for (const step of steps) {
    findings.push(...intentFindings(registry, step), ...transitionFindings(context, step));
  }

  const ignored = new Set<string>(options.ignore ?? []);
  const order = (finding: FlowFinding): number =>
    finding.stepId === undefined ? -1 : (flow.indexOf.get(finding.stepId) ?? -1);
  // Array.prototype.sort is stable: within a step, findings keep the order of the passes above.
  return findings
    .filter((finding) => !ignored.has(finding.code))
    .sort((a, b) => order(a) - order(b));
}
