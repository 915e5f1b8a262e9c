import type { Registry } from "@climpt/model";
import { type DrawingShape, layoutFlow } from "./flow-drawing.ts";
import type { FlowGraph } from "./flow-graph.ts";

export interface ToMermaidOptions {
  /** Flowchart direction; `TD` (top down) by default. */
  readonly direction?: "TD" | "LR";
  /** A graph already built from this registry by `buildFlowGraph`. */
  readonly graph?: FlowGraph;
}

/**
 * Text safe inside a quoted Mermaid label. Mermaid decodes `#name;` / `#code;` entities, so `#`
 * itself is encoded first; quotes, angle brackets (HTML labels), `&`, `|` (edge label delimiter)
 * and a leading backtick (markdown strings) are encoded too, and line breaks become spaces.
 */
export function escapeMermaidLabel(text: string): string {
  return text
    .replace(/#/g, "#35;")
    .replace(/"/g, "#quot;")
    .replace(/&/g, "#38;")
    .replace(/</g, "#lt;")
    .replace(/>/g, "#gt;")
    .replace(/\|/g, "#124;")
    .replace(/`/g, "#96;")
    .replace(/[\r\n]+/g, " ");
}

const SHAPES: Readonly<Record<DrawingShape, readonly [open: string, close: string]>> = {
  start: ["((", "))"],
  end: ["((", "))"],
  work: ["[", "]"],
  verification: ["{{", "}}"],
  closure: ["([", "])"],
  gate: ["{", "}"],
  missing: ["[/", "/]"],
};

/**
 * The registry's flow as a Mermaid `flowchart`: work steps as rectangles, verification steps as
 * hexagons, closure steps as stadiums, validator gates as decisions before End, intents and
 * bounds on the arrows. Deterministic: same registry, same text.
 */
export function toMermaid(registry: Registry, options: ToMermaidOptions = {}): string {
  const drawing = layoutFlow(registry, options.graph);
  const lines = [`flowchart ${options.direction ?? "TD"}`];
  for (const node of drawing.nodes) {
    const [open, close] = SHAPES[node.shape];
    lines.push(`  ${node.key}${open}"${escapeMermaidLabel(node.label)}"${close}`);
  }
  for (const edge of drawing.edges) {
    const label = edge.label === undefined ? "" : `|"${escapeMermaidLabel(edge.label)}"|`;
    lines.push(`  ${edge.from} -->${label} ${edge.to}`);
  }
  return `${lines.join("\n")}\n`;
}
