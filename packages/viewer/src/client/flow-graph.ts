import type { EdgeLabel, GraphLabel, NodeLabel } from "@dagrejs/dagre";
import { Graph, layout } from "@dagrejs/dagre";
import type { FlowEdgeView, FlowNodeView, FlowView } from "../view-model.ts";
import { fill, h, svg } from "./dom.ts";

const NODE_HEIGHT = 40;
const CHAR_WIDTH = 7.2;
const LABEL_HEIGHT = 16;

interface Placed {
  readonly nodes: ReadonlyMap<string, { x: number; y: number; width: number; height: number }>;
  readonly edges: readonly {
    edge: FlowEdgeView;
    points: readonly { x: number; y: number }[];
    label: { x: number; y: number } | null;
    loop?: boolean;
  }[];
  readonly width: number;
  readonly height: number;
}

function nodeText(node: FlowNodeView): string {
  if (node.kind === "start" || node.kind === "end") return node.label;
  return node.label;
}

function visitsText(node: FlowNodeView): string {
  if (node.kind === "gate") {
    if (node.visits === 0) return "not reached";
    return `${node.visits}× checked${node.failures > 0 ? ` · ${node.failures} failed` : ""}`;
  }
  if (node.kind === "start") return "";
  return node.visits === 0 ? "not visited" : `${node.visits}×`;
}

function edgeText(edge: FlowEdgeView): string {
  return edge.taken > 0 ? `${edge.label} ×${edge.taken}` : edge.label;
}

function nodeWidth(node: FlowNodeView): number {
  if (node.kind === "start" || node.kind === "end") return 64;
  const longest = Math.max(nodeText(node).length, visitsText(node).length);
  return Math.max(90, Math.ceil(longest * CHAR_WIDTH) + 28);
}

/** The structure of a flow, so a live update that only changes counts keeps the layout. */
function structureKey(flow: FlowView): string {
  return JSON.stringify([
    flow.nodes.map((node) => [node.key, nodeWidth(node)]),
    flow.edges.map((edge) => [edge.from, edge.to, edgeText(edge).length]),
  ]);
}

/** Lays the flow out top-down with dagre (ranks, crossing reduction, edge routing). */
function place(flow: FlowView): Placed {
  const graph = new Graph<GraphLabel, NodeLabel, EdgeLabel>({ multigraph: true });
  graph.setGraph({
    rankdir: "TB",
    nodesep: 36,
    ranksep: 52,
    edgesep: 16,
    marginx: 16,
    marginy: 16,
  });
  for (const node of flow.nodes)
    graph.setNode(node.key, { width: nodeWidth(node), height: NODE_HEIGHT });
  flow.edges.forEach((edge, index) => {
    // Self-loops are drawn as a loop beside their node; dagre's routes for them are awkward.
    if (edge.from === edge.to) return;
    graph.setEdge(
      edge.from,
      edge.to,
      { width: edgeText(edge).length * 6.4 + 8, height: LABEL_HEIGHT, labelpos: "c" },
      `e${index}`,
    );
  });
  layout(graph);
  const nodes = new Map<string, { x: number; y: number; width: number; height: number }>();
  for (const node of flow.nodes) {
    const placed = graph.node(node.key);
    nodes.set(node.key, {
      x: placed.x ?? 0,
      y: placed.y ?? 0,
      width: placed.width,
      height: placed.height,
    });
  }
  const loopsOf = new Map<string, number>();
  const size = graph.graph();
  let width = size.width ?? 400;
  const edges = flow.edges.map((edge, index) => {
    if (edge.from === edge.to) {
      const box = nodes.get(edge.from);
      if (box === undefined) return { edge, points: [], label: null };
      const nth = loopsOf.get(edge.from) ?? 0;
      loopsOf.set(edge.from, nth + 1);
      const x = box.x + box.width / 2;
      const reach = 26 + nth * 14;
      const top = box.y - 8;
      const bottom = box.y + 8;
      const points = [
        { x, y: top },
        { x: x + reach, y: top - 14 },
        { x: x + reach, y: bottom + 14 },
        { x, y: bottom },
      ];
      const label = { x: x + reach + 6 + edgeText(edge).length * 3.2, y: box.y + nth * 12 };
      width = Math.max(width, label.x + edgeText(edge).length * 3.4 + 8);
      return { edge, points, label, loop: true };
    }
    const placed = graph.edge({ v: edge.from, w: edge.to, name: `e${index}` });
    const points = placed?.points ?? [];
    const label =
      placed?.x === undefined || placed.y === undefined ? null : { x: placed.x, y: placed.y };
    return { edge, points, label, loop: false };
  });
  return { nodes, edges, width, height: size.height ?? 300 };
}

function pathOf(points: readonly { x: number; y: number }[]): string {
  if (points.length === 0) return "";
  const [first, ...rest] = points;
  if (first === undefined) return "";
  if (rest.length === 0) return `M${first.x},${first.y}`;
  // A smooth curve through dagre's route: straight to the first midpoint, then quadratic bends.
  let d = `M${first.x},${first.y}`;
  for (let index = 0; index < rest.length - 1; index++) {
    const control = rest[index] as { x: number; y: number };
    const next = rest[index + 1] as { x: number; y: number };
    d += ` Q${control.x},${control.y} ${(control.x + next.x) / 2},${(control.y + next.y) / 2}`;
  }
  const last = rest[rest.length - 1] as { x: number; y: number };
  d += ` L${last.x},${last.y}`;
  return d;
}

/** A loop out of a node's right side and back into it. */
function loopPath(points: readonly { x: number; y: number }[]): string {
  const [start, c1, c2, end] = points;
  if (start === undefined || c1 === undefined || c2 === undefined || end === undefined) return "";
  return `M${start.x},${start.y} C${c1.x},${c1.y} ${c2.x},${c2.y} ${end.x},${end.y}`;
}

function shapeOf(node: FlowNodeView, width: number, height: number): SVGElement {
  const w = width / 2;
  const hh = height / 2;
  switch (node.kind) {
    case "start":
    case "end":
      return svg("ellipse", { class: "shape", cx: 0, cy: 0, rx: w, ry: hh });
    case "verification":
      return svg("polygon", {
        class: "shape",
        points: `${-w + 12},${-hh} ${w - 12},${-hh} ${w},0 ${w - 12},${hh} ${-w + 12},${hh} ${-w},0`,
      });
    case "gate":
      return svg("polygon", {
        class: "shape",
        points: `0,${-hh - 6} ${w},0 0,${hh + 6} ${-w},0`,
      });
    case "closure":
      return svg("rect", { class: "shape", x: -w, y: -hh, width, height, rx: hh, ry: hh });
    default:
      return svg("rect", { class: "shape", x: -w, y: -hh, width, height, rx: 4, ry: 4 });
  }
}

export interface FlowGraphView {
  readonly element: HTMLElement;
  update(flow: FlowView): void;
}

/**
 * The flow as SVG: every node and edge of the declared flow, the ones this run passed through
 * highlighted with their counts, the current step pulsing, the failed step red. Clicking a step
 * opens its latest execution in the step panel.
 */
export function createFlowGraph(onSelectStep: (stepId: string) => void): FlowGraphView {
  const canvas = h("div", { class: "flow-canvas" });
  const caption = h("p", { class: "muted small" });
  const element = h(
    "section",
    { id: "flow", "aria-label": "Flow" },
    h("div", { class: "section-head" }, h("h2", {}, "Flow")),
    canvas,
    caption,
  );
  let cached: { key: string; placed: Placed } | null = null;

  return {
    element,
    update(flow) {
      const key = structureKey(flow);
      if (cached === null || cached.key !== key) cached = { key, placed: place(flow) };
      const placed = cached.placed;
      const root = svg("svg", {
        class: "flow-svg",
        width: Math.ceil(placed.width),
        height: Math.ceil(placed.height),
        viewBox: `0 0 ${Math.ceil(placed.width)} ${Math.ceil(placed.height)}`,
        role: "img",
        "aria-label": "The agent's flow with the path this run took",
      });
      root.append(
        svg(
          "defs",
          {},
          ...["plain", "taken", "retry"].map((kind) =>
            svg(
              "marker",
              {
                id: `arrow-${kind}`,
                viewBox: "0 0 10 10",
                refX: 9,
                refY: 5,
                markerWidth: 7,
                markerHeight: 7,
                orient: "auto-start-reverse",
              },
              svg("path", { d: "M0,0 L10,5 L0,10 z", class: `arrowhead ${kind}` }),
            ),
          ),
        ),
      );
      for (const { edge, points, label, loop } of placed.edges) {
        const kind = edge.retry && edge.taken > 0 ? "retry" : edge.taken > 0 ? "taken" : "plain";
        const classes = ["edge", kind];
        if (edge.undeclared) classes.push("undeclared");
        const group = svg(
          "g",
          {
            class: classes.join(" "),
            "data-from": edge.from,
            "data-to": edge.to,
            "data-taken": edge.taken,
          },
          svg("path", {
            d: loop === true ? loopPath(points) : pathOf(points),
            "marker-end": `url(#arrow-${kind})`,
          }),
        );
        if (label !== null) {
          group.append(
            svg(
              "text",
              { x: label.x, y: label.y + 4, "text-anchor": "middle", class: "edge-label" },
              edgeText(edge),
            ),
          );
        }
        root.append(group);
      }
      for (const node of flow.nodes) {
        const box = placed.nodes.get(node.key);
        if (box === undefined) continue;
        const classes = ["node", `kind-${node.kind}`];
        if (node.visits > 0) classes.push("visited");
        if (node.key === flow.currentKey) classes.push("current");
        if (node.key === flow.failedKey) classes.push("failed");
        if (node.kind === "gate" && node.failures > 0) classes.push("has-failures");
        const group = svg(
          "g",
          {
            class: classes.join(" "),
            transform: `translate(${box.x},${box.y})`,
            "data-node": node.key,
            "data-visits": node.visits,
          },
          svg("title", {}, `${node.label}: ${visitsText(node) || node.kind}`),
          shapeOf(node, box.width, box.height),
          svg(
            "text",
            {
              class: "node-label",
              y: node.kind === "start" || node.kind === "end" ? 4 : -2,
              "text-anchor": "middle",
            },
            nodeText(node),
          ),
        );
        const visits = visitsText(node);
        if (visits !== "" && node.kind !== "end") {
          group.append(
            svg("text", { class: "node-visits", y: 13, "text-anchor": "middle" }, visits),
          );
        }
        const stepId = node.stepId;
        if (stepId !== null && node.kind !== "gate") {
          group.addEventListener("click", () => onSelectStep(stepId));
        }
        root.append(group);
      }
      fill(canvas, root);
      caption.textContent =
        flow.source === "registry"
          ? "Drawn from the agent's steps_registry.json. Highlighted: the steps and moves this run took, with how often."
          : "The agent's registry could not be read: only the steps and moves this run took are drawn.";
    },
  };
}
