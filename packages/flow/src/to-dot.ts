import type { Registry } from "@climpt/model";
import { type DrawingShape, layoutFlow } from "./flow-drawing.ts";
import type { FlowGraph } from "./flow-graph.ts";

export interface ToDotOptions {
  /** Graphviz `rankdir`; `TB` (top to bottom) by default. */
  readonly rankdir?: "TB" | "LR";
  /** The digraph's name; `flow` by default (the registry's agentId is a good choice). */
  readonly name?: string;
  /** A graph already built from this registry by `buildFlowGraph`. */
  readonly graph?: FlowGraph;
}

/** A Graphviz quoted string: backslashes and quotes escaped, line breaks as `\n`. */
export function quoteDot(text: string): string {
  const escaped = text
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/\r?\n|\r/g, "\\n");
  return `"${escaped}"`;
}

const ATTRIBUTES: Readonly<Record<DrawingShape, string>> = {
  start: "shape=circle",
  end: "shape=doublecircle",
  work: "shape=box",
  verification: "shape=hexagon",
  closure: 'shape=box, style="rounded,bold"',
  gate: "shape=diamond",
  missing: "shape=box, style=dashed",
};

/**
 * The registry's flow as a Graphviz digraph: the same layout as `toMermaid` (work boxes,
 * verification hexagons, bold rounded closure boxes, validator diamonds before End), intents and
 * bounds as edge labels. Deterministic: same registry, same text.
 */
export function toDot(registry: Registry, options: ToDotOptions = {}): string {
  const drawing = layoutFlow(registry, options.graph);
  const lines = [
    `digraph ${quoteDot(options.name ?? "flow")} {`,
    `  rankdir=${options.rankdir ?? "TB"};`,
  ];
  for (const node of drawing.nodes) {
    lines.push(`  ${node.key} [label=${quoteDot(node.label)}, ${ATTRIBUTES[node.shape]}];`);
  }
  for (const edge of drawing.edges) {
    const label = edge.label === undefined ? "" : ` [label=${quoteDot(edge.label)}]`;
    lines.push(`  ${edge.from} -> ${edge.to}${label};`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
