import { buildFlowGraph, type FlowGraph } from "@climpt/flow";
import { loadAgent } from "@climpt/registry-schema";
import type { DeclaredFlow } from "./view-model.ts";

/**
 * The agent's declared flow from the project's own graph model (`buildFlowGraph` of
 * @climpt/flow, the same one `climpt graph` draws), in the shape the page lays out.
 * Self-loops that only bound repetition (`iteration ≤N`) are kept: a run can take them.
 */
export function declaredFlowOf(graph: FlowGraph): DeclaredFlow {
  return {
    entries: [...new Set(graph.entries.map((entry) => entry.stepId))],
    steps: graph.nodes.map((node) => ({
      id: node.id,
      kind: node.kind === "verification" || node.kind === "closure" ? node.kind : "work",
      validators: node.validation?.validators ?? [],
    })),
    edges: graph.edges.map((edge) => ({
      from: edge.from,
      to: edge.to,
      label: edge.label,
      intent: edge.intent ?? null,
      validationRetry: edge.kind === "validation-retry",
    })),
  };
}

export type DeclaredFlowResult =
  | { readonly ok: true; readonly flow: DeclaredFlow }
  | { readonly ok: false; readonly reason: string };

/**
 * Loads the agent folder a run names (its journal's run_start) and returns its flow. An agent
 * folder that is gone or no longer loads is not an error for the viewer: the page then draws only
 * the path the run took, and says why.
 */
export async function loadDeclaredFlow(agentDir: string): Promise<DeclaredFlowResult> {
  try {
    const loaded = await loadAgent(agentDir);
    if (!loaded.ok) {
      const first = loaded.issues[0];
      return {
        ok: false,
        reason: `The agent at ${agentDir} does not load (${first === undefined ? "unknown problem" : `${first.code}: ${first.message}`}); the flow shows only the path the run took.`,
      };
    }
    return { ok: true, flow: declaredFlowOf(buildFlowGraph(loaded.value.registry)) };
  } catch (error) {
    return {
      ok: false,
      reason: `The agent at ${agentDir} cannot be read (${(error as Error).message}); the flow shows only the path the run took.`,
    };
  }
}
