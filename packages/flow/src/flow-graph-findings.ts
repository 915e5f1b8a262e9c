import { type Registry, stepPath } from "@climpt/model";
import type { FlowFinding } from "./flow-codes.ts";
import { type IndexedFlow, indexFlow, markReachable } from "./flow-index.ts";
import { stronglyConnectedComponents } from "./flow-scc.ts";

/** SR-FLOW-001/002: a run needs an entry step, and every entry must name a flow step. */
export function entryFindings(registry: Registry, flow: IndexedFlow): FlowFinding[] {
  const findings: FlowFinding[] = [];
  if (flow.graph.entries.length === 0) {
    findings.push({
      code: "SR-FLOW-001",
      severity: "error",
      path: "$.entryStep",
      message:
        "The registry names no entry step: it has neither entryStep nor entryStepMapping, so no run can start and no step is reachable.",
      hint: 'Add "entryStep": "<step id>" or "entryStepMapping": { "<verdict type>": "<step id>" }.',
    });
  }
  for (const entry of flow.graph.entries) {
    if (flow.indexOf.has(entry.stepId)) continue;
    const step = registry.steps[entry.stepId];
    findings.push({
      code: "SR-FLOW-002",
      severity: "error",
      path: entry.path,
      message:
        step === undefined
          ? `Entry ${entry.label === "entryStep" ? "step" : `for "${entry.label}"`} names "${entry.stepId}", which is not a step of this registry.`
          : `Entry ${entry.label === "entryStep" ? "step" : `for "${entry.label}"`} names "${entry.stepId}", a section step, which has no flow.`,
      hint: "Name a work step (usually initial.<domain>) as the entry.",
    });
  }
  return findings;
}

/**
 * SR-FLOW-003/004: steps no entry reaches, and reachable steps from which no terminal edge can
 * be reached. `openSteps` are steps with a run-time jump target: treated as able to go anywhere.
 */
export function reachabilityFindings(
  flow: IndexedFlow,
  openSteps: ReadonlySet<number>,
): FlowFinding[] {
  const findings: FlowFinding[] = [];
  // A failed validation returns to a work step the run took into the closure, one already
  // reached: validation-retry edges never make a step reachable, so they are left out here
  // (else a step that only leads into a validated closure would look reachable through them).
  const forward = indexFlow(flow.graph, (edge) => edge.kind !== "validation-retry", flow);
  const reachable = markReachable(flow.size, forward.entries, forward.successors);
  let anyTerminal = false;
  const terminals: number[] = [];
  for (let node = 0; node < flow.size; node++) {
    if (flow.terminal[node] === 1) {
      terminals.push(node);
      anyTerminal = true;
    }
  }
  // A step whose jump target is decided at run time may reach any step, so any completion.
  if (anyTerminal) for (const node of openSteps) terminals.push(node);
  const completes = markReachable(flow.size, terminals, flow.predecessors);
  const dynamicJumpReachable = [...openSteps].some((node) => reachable[node] === 1);

  flow.graph.nodes.forEach((node, index) => {
    if (reachable[index] === 0) {
      // With a run-time jump in reach, an apparently unreachable step may be its target.
      if (dynamicJumpReachable || flow.entries.length === 0) return;
      findings.push({
        code: "SR-FLOW-003",
        severity: "warning",
        stepId: node.id,
        path: stepPath(node.id),
        message: `Step "${node.id}" is not reachable from any entry step, so it never runs.`,
        hint: "Add a transition into it from a reachable step, make it an entry, or remove it.",
      });
      return;
    }
    if (completes[index] === 0) {
      findings.push({
        code: "SR-FLOW-004",
        severity: "error",
        stepId: node.id,
        path: stepPath(node.id),
        message: `From step "${node.id}" no completion can be reached: no path leads to a closure step's "closing" (or a check's "onPass": { "complete": true }), so a run that gets here can only fail.`,
        hint: 'Add a transition from this part of the flow towards a closure step that maps closing to { "target": null }.',
      });
    }
  });
  return findings;
}

const LISTED_STEPS = 8;

/**
 * SR-FLOW-005: a cycle none of whose edges is bounded (check `maxRetries > 0`, `iterations.max`,
 * `onFailure.maxAttempts`) and none of whose steps is: a check-dialect step that writes
 * `iterations` runs at most `iterations.max` times in the whole run (the execution past it ends
 * the run, SR-ITER-001), so every cycle through it is bounded — the edges out of such a step
 * (`boundedSteps`, by id) are left out. Such a cycle exists exactly when the subgraph of the
 * remaining edges has a strongly connected component with more than one step or a self edge. One
 * finding per component.
 */
export function unboundedCycleFindings(
  flow: IndexedFlow,
  boundedSteps: ReadonlySet<string> = new Set(),
): FlowFinding[] {
  const unbounded = indexFlow(
    flow.graph,
    (edge) => edge.bound === undefined && !boundedSteps.has(edge.from),
    flow,
  );
  const { component, count } = stronglyConnectedComponents(unbounded.size, unbounded.successors);
  const members: number[][] = Array.from({ length: count }, () => []);
  for (let node = 0; node < unbounded.size; node++) members[component[node] as number]?.push(node);
  const selfLoop = new Uint8Array(unbounded.size);
  for (let node = 0; node < unbounded.size; node++) {
    const { start, targets } = unbounded.successors;
    for (let slot = start[node] as number; slot < (start[node + 1] as number); slot++) {
      if (targets[slot] === node) selfLoop[node] = 1;
    }
  }
  const cycles = members.filter(
    (group) => group.length > 1 || (group.length === 1 && selfLoop[group[0] as number] === 1),
  );
  // Declaration order of each cycle's first step, so output is stable.
  for (const group of cycles) group.sort((a, b) => a - b);
  cycles.sort((a, b) => (a[0] as number) - (b[0] as number));
  return cycles.map((group) => {
    const ids = group.map((node) => flow.graph.nodes[node]?.id as string);
    const first = ids[0] as string;
    const shown = ids
      .slice(0, LISTED_STEPS)
      .map((id) => `"${id}"`)
      .join(", ");
    const more = ids.length > LISTED_STEPS ? ` and ${ids.length - LISTED_STEPS} more` : "";
    const what =
      ids.length === 1
        ? `Step "${first}" can run again and again through an unbounded self edge`
        : `Steps ${shown}${more} form a cycle in which no edge is bounded`;
    return {
      code: "SR-FLOW-005",
      severity: "warning",
      stepId: first,
      path: stepPath(first),
      message: `${what}: only the run-wide iteration cap stops it.`,
      hint: 'Bound one edge of the cycle (check "onFail": { "retry": true, "maxRetries": N }, "iterations": { "max": N }, or validationSteps onFailure.maxAttempts), or declare the run cap you accept in agent.json ("limits": { "maxIterations": N }): `climpt validate` then counts that as the bound.',
    } satisfies FlowFinding;
  });
}
