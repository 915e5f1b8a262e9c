import type { Adjacency } from "./flow-index.ts";

export interface Dominators {
  /** The virtual root's index (`size`): it precedes every entry step. */
  readonly root: number;
  /**
   * Immediate dominator of each node (`root` for nodes only the root dominates), `-1` for nodes
   * not reachable from any entry. Length `size + 1`; `idom[root] === root`.
   */
  readonly idom: Int32Array;
}

/**
 * Immediate dominators, by the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
 * Dominance Algorithm"): dominator sets are the greatest fixpoint of
 * `dom(n) = {n} ∪ ⋂ dom(p) over predecessors p`, kept as a tree and intersected by walking up it
 * in postorder numbers. That is the must-reach dataflow the handoff check needs, computed once for
 * every key. Several entry steps hang off one virtual root. No recursion.
 */
export function computeDominators(
  size: number,
  entries: readonly number[],
  successors: Adjacency,
  predecessors: Adjacency,
): Dominators {
  const root = size;
  const postorder = new Int32Array(size + 1).fill(-1);
  const order: number[] = [];

  // Iterative depth-first search from the virtual root for postorder numbers.
  const visited = new Uint8Array(size + 1);
  const stackNode = new Int32Array(size + 1);
  const stackSlot = new Int32Array(size + 1);
  let top = 0;
  visited[root] = 1;
  stackNode[0] = root;
  stackSlot[0] = 0;
  top = 1;
  while (top > 0) {
    const node = stackNode[top - 1] as number;
    const slot = stackSlot[top - 1] as number;
    const end = node === root ? entries.length : (successors.start[node + 1] as number);
    const from = node === root ? 0 : (successors.start[node] as number);
    const current = from + slot;
    if (current < end) {
      stackSlot[top - 1] = slot + 1;
      const next =
        node === root ? (entries[current] as number) : (successors.targets[current] as number);
      if (visited[next] === 1) continue;
      visited[next] = 1;
      stackNode[top] = next;
      stackSlot[top] = 0;
      top++;
      continue;
    }
    postorder[node] = order.length;
    order.push(node);
    top--;
  }

  const isEntry = new Uint8Array(size);
  for (const entry of entries) isEntry[entry] = 1;
  const idom = new Int32Array(size + 1).fill(-1);
  idom[root] = root;

  const intersect = (first: number, second: number): number => {
    let a = first;
    let b = second;
    while (a !== b) {
      while ((postorder[a] as number) < (postorder[b] as number)) a = idom[a] as number;
      while ((postorder[b] as number) < (postorder[a] as number)) b = idom[b] as number;
    }
    return a;
  };

  let changed = true;
  while (changed) {
    changed = false;
    // Reverse postorder, skipping the root (last in postorder).
    for (let position = order.length - 2; position >= 0; position--) {
      const node = order[position] as number;
      let candidate = isEntry[node] === 1 ? root : -1;
      for (
        let slot = predecessors.start[node] as number;
        slot < (predecessors.start[node + 1] as number);
        slot++
      ) {
        const pred = predecessors.targets[slot] as number;
        if (idom[pred] === -1) continue;
        candidate = candidate === -1 ? pred : intersect(pred, candidate);
      }
      if (candidate !== -1 && idom[node] !== candidate) {
        idom[node] = candidate;
        changed = true;
      }
    }
  }
  return { root, idom };
}
