import type { Registry } from "@climpt/model";
import { buildFlowGraph, type FlowEdge, type FlowGraph } from "./flow-graph.ts";

/** How a node is drawn; each renderer maps these to its own shapes. */
export type DrawingShape =
  | "start"
  | "end"
  | "work"
  | "verification"
  | "closure"
  | "gate"
  | "missing";

export interface DrawingNode {
  /** A renderer-safe identifier (`s0`, `g2`, …); labels carry the real ids. */
  readonly key: string;
  readonly label: string;
  readonly shape: DrawingShape;
}

export interface DrawingEdge {
  readonly from: string;
  readonly to: string;
  readonly label?: string;
}

/** The flow as boxes and arrows, independent of Mermaid or Graphviz syntax. */
export interface FlowDrawing {
  readonly nodes: readonly DrawingNode[];
  readonly edges: readonly DrawingEdge[];
}

const START = "start";
const END = "finish";

/**
 * Lays out a registry's flow for drawing: a Start node into the entry steps (arrows labelled with
 * their verdict types when there is a mapping), one node per flow step in declaration order, a
 * validator decision node between a validated closure step and End (failed validation leaves it
 * towards the work steps it retries), targets that do not exist as their own marked nodes, End.
 * Node keys are positional, so ids with dots, quotes or brackets never reach the syntax.
 */
export function layoutFlow(
  registry: Registry,
  graph: FlowGraph = buildFlowGraph(registry),
): FlowDrawing {
  const nodes: DrawingNode[] = [];
  const edges: DrawingEdge[] = [];
  const keyOf = new Map<string, string>();
  graph.nodes.forEach((node, index) => {
    keyOf.set(node.id, `s${index}`);
  });
  const missing = new Map<string, string>();
  const target = (stepId: string): string => {
    const known = keyOf.get(stepId);
    if (known !== undefined) return known;
    let key = missing.get(stepId);
    if (key === undefined) {
      key = `m${missing.size}`;
      missing.set(stepId, key);
    }
    return key;
  };

  if (graph.entries.length > 0) nodes.push({ key: START, label: "Start", shape: "start" });
  const entryLabels = new Map<string, string[]>();
  for (const entry of graph.entries) {
    const labels = entryLabels.get(entry.stepId);
    if (labels === undefined) entryLabels.set(entry.stepId, [entry.label]);
    else labels.push(entry.label);
  }
  const onlyEntryStep = graph.entries.every((entry) => entry.label === "entryStep");
  for (const [stepId, labels] of entryLabels) {
    const label = onlyEntryStep ? undefined : labels.join(", ");
    edges.push({ from: START, to: target(stepId), ...(label === undefined ? {} : { label }) });
  }

  const edgesFrom = new Map<string, FlowEdge[]>();
  for (const edge of graph.edges) {
    const list = edgesFrom.get(edge.from);
    if (list === undefined) edgesFrom.set(edge.from, [edge]);
    else list.push(edge);
  }

  let terminalSeen = false;
  graph.nodes.forEach((node, index) => {
    const key = `s${index}`;
    nodes.push({ key, label: node.id, shape: node.kind });
    const gateKey = `g${index}`;
    const validation = node.validation;
    if (validation !== undefined) {
      nodes.push({
        key: gateKey,
        label: validation.validators.join(", ") || "validation",
        shape: "gate",
      });
    }
    let gateUsed = false;
    for (const edge of edgesFrom.get(node.id) ?? []) {
      if (edge.kind === "validation-retry") {
        edges.push({ from: gateKey, to: target(edge.to as string), label: `fail: ${edge.label}` });
        continue;
      }
      if (edge.to !== null) {
        edges.push({ from: key, to: target(edge.to), label: edge.label });
        continue;
      }
      terminalSeen = true;
      edges.push({ from: key, to: validation === undefined ? END : gateKey, label: edge.label });
      if (validation !== undefined) gateUsed = true;
    }
    if (validation !== undefined && gateUsed) {
      const skip = validation.onFailure.action === "skip";
      edges.push({ from: gateKey, to: END, label: skip ? "pass / fail: skip" : "pass" });
    }
  });
  for (const [stepId, key] of missing) {
    nodes.push({ key, label: `${stepId} (missing)`, shape: "missing" });
  }
  if (terminalSeen) nodes.push({ key: END, label: "End", shape: "end" });
  return { nodes, edges };
}
