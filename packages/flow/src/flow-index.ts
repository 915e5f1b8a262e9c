import type { FlowEdge, FlowGraph } from "./flow-graph.ts";

/**
 * Adjacency in compressed sparse row form: the neighbours of node `i` are
 * `targets[start[i]] … targets[start[i + 1] - 1]`. Typed arrays keep 10,000-step graphs cheap to
 * walk and let every algorithm here be a plain loop with an explicit stack.
 */
export interface Adjacency {
  readonly start: Int32Array;
  readonly targets: Int32Array;
  /** For each slot of `targets`, the index of the edge in `FlowGraph.edges` (-1 when synthetic). */
  readonly edgeIndex: Int32Array;
}

/** A flow graph with integer node ids, for the analyses. Only edges between existing flow steps. */
export interface IndexedFlow {
  readonly graph: FlowGraph;
  readonly size: number;
  readonly indexOf: ReadonlyMap<string, number>;
  readonly successors: Adjacency;
  readonly predecessors: Adjacency;
  /** 1 where the step has a terminal edge (the run can complete from it). */
  readonly terminal: Uint8Array;
  /** Node indices of the entry steps that exist, without duplicates, in entry order. */
  readonly entries: readonly number[];
}

export function buildAdjacency(
  size: number,
  pairs: readonly (readonly [from: number, to: number, edge: number])[],
): Adjacency {
  const start = new Int32Array(size + 1);
  for (const [from] of pairs) start[from + 1] = (start[from + 1] as number) + 1;
  for (let i = 0; i < size; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const fill = start.slice(0, size);
  const targets = new Int32Array(pairs.length);
  const edgeIndex = new Int32Array(pairs.length);
  for (const [from, to, edge] of pairs) {
    const slot = fill[from] as number;
    targets[slot] = to;
    edgeIndex[slot] = edge;
    fill[from] = slot + 1;
  }
  return { start, targets, edgeIndex };
}

/** Node id → index, in node order. */
function indexNodes(graph: FlowGraph): Map<string, number> {
  const indexOf = new Map<string, number>();
  graph.nodes.forEach((node, index) => {
    indexOf.set(node.id, index);
  });
  return indexOf;
}

/**
 * Compressed rows of the kept edges: `from[i] → to[i]` for every edge `i` with `from[i] !== -1`,
 * in edge order (what `buildAdjacency` builds from pairs, without a pair per edge).
 */
function compress(size: number, from: Int32Array, to: Int32Array, count: number): Adjacency {
  const start = new Int32Array(size + 1);
  for (let edge = 0; edge < from.length; edge++) {
    const node = from[edge] as number;
    if (node !== -1) start[node + 1] = (start[node + 1] as number) + 1;
  }
  for (let i = 0; i < size; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const fill = start.slice(0, size);
  const targets = new Int32Array(count);
  const edgeIndex = new Int32Array(count);
  for (let edge = 0; edge < from.length; edge++) {
    const node = from[edge] as number;
    if (node === -1) continue;
    const slot = fill[node] as number;
    targets[slot] = to[edge] as number;
    edgeIndex[slot] = edge;
    fill[node] = slot + 1;
  }
  return { start, targets, edgeIndex };
}

/**
 * Builds the integer view of a flow graph; `keep` selects which edges take part (all by default).
 * `base`, an indexed view of a graph with the same nodes, lends its node index: the analyses
 * index one graph several times (with different edges), and the index is a map of every step.
 */
export function indexFlow(
  graph: FlowGraph,
  keep: (edge: FlowEdge) => boolean = () => true,
  base?: IndexedFlow,
): IndexedFlow {
  const indexOf =
    base !== undefined && base.graph.nodes === graph.nodes ? base.indexOf : indexNodes(graph);
  const size = graph.nodes.length;
  const edgeCount = graph.edges.length;
  // Per edge, its end points' indices, or -1 in `from` for an edge left out of the adjacency.
  const from = new Int32Array(edgeCount).fill(-1);
  const to = new Int32Array(edgeCount);
  let kept = 0;
  const terminal = new Uint8Array(size);
  for (let edgeIndex = 0; edgeIndex < edgeCount; edgeIndex++) {
    const edge = graph.edges[edgeIndex] as FlowEdge;
    const fromIndex = indexOf.get(edge.from);
    if (fromIndex === undefined || !keep(edge)) continue;
    if (edge.to === null) {
      terminal[fromIndex] = 1;
      continue;
    }
    const toIndex = indexOf.get(edge.to);
    if (toIndex === undefined) continue;
    from[edgeIndex] = fromIndex;
    to[edgeIndex] = toIndex;
    kept++;
  }
  const backwardFrom = new Int32Array(edgeCount);
  for (let edgeIndex = 0; edgeIndex < edgeCount; edgeIndex++) {
    backwardFrom[edgeIndex] = from[edgeIndex] === -1 ? -1 : (to[edgeIndex] as number);
  }
  const entries: number[] = [];
  const seen = new Set<number>();
  for (const entry of graph.entries) {
    const index = indexOf.get(entry.stepId);
    if (index === undefined || seen.has(index)) continue;
    seen.add(index);
    entries.push(index);
  }
  return {
    graph,
    size,
    indexOf,
    successors: compress(size, from, to, kept),
    predecessors: compress(size, backwardFrom, from, kept),
    terminal,
    entries,
  };
}

/** Breadth-first marking of every node reachable from `seeds` along `adjacency`. */
export function markReachable(
  size: number,
  seeds: Iterable<number>,
  adjacency: Adjacency,
): Uint8Array {
  const marked = new Uint8Array(size);
  const queue = new Int32Array(size);
  let tail = 0;
  for (const seed of seeds) {
    if (marked[seed] === 1) continue;
    marked[seed] = 1;
    queue[tail++] = seed;
  }
  for (let head = 0; head < tail; head++) {
    const node = queue[head] as number;
    for (
      let slot = adjacency.start[node] as number;
      slot < (adjacency.start[node + 1] as number);
      slot++
    ) {
      const next = adjacency.targets[slot] as number;
      if (marked[next] === 1) continue;
      marked[next] = 1;
      queue[tail++] = next;
    }
  }
  return marked;
}
