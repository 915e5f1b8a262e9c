import type { Registry, Step } from "@climpt/model";
import { buildFlowGraph, type FlowGraph } from "./flow-graph.ts";
import { indexFlow, markReachable } from "./flow-index.ts";
import { hasDynamicJump } from "./flow-transition-findings.ts";

/**
 * The flow steps a run starting at `entryStepIds` can execute: every step reachable along the
 * graph's edges. Validation-retry edges are left out: a failed validation returns to the work
 * step that led into the closure step, which has run already, so they never make a step
 * reachable that is not reachable without them. A reachable step whose `jump` target is chosen
 * at run time may lead anywhere, so then every flow step counts as reachable, the same rule
 * SR-FLOW-003 uses. Entries that name no flow step are ignored. Section steps never run.
 */
export function reachableSteps(
  registry: Registry,
  entryStepIds: readonly string[],
  graph: FlowGraph = buildFlowGraph(registry),
): ReadonlySet<string> {
  const flow = indexFlow(graph, (edge) => edge.kind !== "validation-retry");
  const seeds: number[] = [];
  for (const id of entryStepIds) {
    const index = flow.indexOf.get(id);
    if (index !== undefined) seeds.push(index);
  }
  const marked = markReachable(flow.size, seeds, flow.successors);
  const reachable = new Set<string>();
  let open = false;
  graph.nodes.forEach((node, index) => {
    if (marked[index] !== 1) return;
    reachable.add(node.id);
    if (hasDynamicJump(registry.steps[node.id] as Step)) open = true;
  });
  if (!open) return reachable;
  return new Set(graph.nodes.map((node) => node.id));
}
