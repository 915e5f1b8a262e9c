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

/** Builds the integer view of a flow graph; `keep` selects which edges take part (all by default). */
export function indexFlow(
  graph: FlowGraph,
  keep: (edge: FlowEdge) => boolean = () => true,
): IndexedFlow {
  const indexOf = new Map<string, number>();
  graph.nodes.forEach((node, index) => {
    indexOf.set(node.id, index);
  });
  const size = graph.nodes.length;
  const forward: [number, number, number][] = [];
  const backward: [number, number, number][] = [];
  const terminal = new Uint8Array(size);
  graph.edges.forEach((edge, edgeIndex) => {
    const from = indexOf.get(edge.from);
    if (from === undefined || !keep(edge)) return;
    if (edge.to === null) {
      terminal[from] = 1;
      return;
    }
    const to = indexOf.get(edge.to);
    if (to === undefined) return;
    forward.push([from, to, edgeIndex]);
    backward.push([to, from, edgeIndex]);
  });
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
    successors: buildAdjacency(size, forward),
    predecessors: buildAdjacency(size, backward),
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
