import type { Dominators } from "./flow-dominators.ts";
import type { Adjacency } from "./flow-index.ts";

/**
 * Must-be-written handoff dataflow: `in(n) = ⋂ out(p)` over predecessors (empty at an entry),
 * `out(n) = in(n) ∪ writes(n)`, to a fixpoint. Solving it with one bit set per step would cost
 * steps × keys (10,000 × 10,000 bits at the top end), so it is solved in two exact shortcuts:
 *
 * - A channel 4 key `uv-<step>_<key>` has exactly one writer. It is in `in(n)` exactly when its
 *   writer strictly dominates `n` — and dominators are the same intersection fixpoint, computed
 *   once for every key (`computeDominators`). One O(1) interval test per read.
 * - A condition key (a bare handoff key) may have several writers. It is missing at `n` exactly
 *   when some path from an entry reaches `n` through steps none of which writes it: one search
 *   per distinct key that writers block. O(keys × (steps + edges)); flows use a handful of keys.
 *
 * Reads in steps no entry reaches are not judged (they are reported as unreachable).
 */

/** A read of a key written by one step only. */
export interface SingleWriterRead {
  readonly node: number;
  readonly writer: number;
}

/** A read of a key any of several steps may write; `afterOwnWrites` when the reader's own writes count. */
export interface AnyWriterRead {
  readonly node: number;
  readonly key: string;
  readonly afterOwnWrites: boolean;
}

/** Preorder and postorder numbers of the dominator tree, from an explicit-stack walk. */
function dominatorTreeNumbers(
  size: number,
  dominators: Dominators,
): { pre: Int32Array; post: Int32Array } {
  const { root, idom } = dominators;
  const total = size + 1;
  const childStart = new Int32Array(total + 1);
  for (let node = 0; node < size; node++) {
    const parent = idom[node] as number;
    if (parent !== -1) childStart[parent + 1] = (childStart[parent + 1] as number) + 1;
  }
  for (let i = 0; i < total; i++) {
    childStart[i + 1] = (childStart[i + 1] as number) + (childStart[i] as number);
  }
  const fill = childStart.slice(0, total);
  const children = new Int32Array(childStart[total] as number);
  for (let node = 0; node < size; node++) {
    const parent = idom[node] as number;
    if (parent === -1) continue;
    children[fill[parent] as number] = node;
    fill[parent] = (fill[parent] as number) + 1;
  }
  const pre = new Int32Array(total).fill(-1);
  const post = new Int32Array(total).fill(-1);
  const stackNode = new Int32Array(total);
  const stackSlot = new Int32Array(total);
  let preCounter = 0;
  let postCounter = 0;
  stackNode[0] = root;
  stackSlot[0] = childStart[root] as number;
  pre[root] = preCounter++;
  let top = 1;
  while (top > 0) {
    const node = stackNode[top - 1] as number;
    const slot = stackSlot[top - 1] as number;
    if (slot < (childStart[node + 1] as number)) {
      stackSlot[top - 1] = slot + 1;
      const child = children[slot] as number;
      pre[child] = preCounter++;
      stackNode[top] = child;
      stackSlot[top] = childStart[child] as number;
      top++;
      continue;
    }
    post[node] = postCounter++;
    top--;
  }
  return { pre, post };
}

/** For each read, 1 when its single writer does not run on every path into the reader. */
export function missingSingleWriterReads(
  size: number,
  dominators: Dominators,
  reads: readonly SingleWriterRead[],
): Uint8Array {
  const { idom } = dominators;
  const { pre, post } = dominatorTreeNumbers(size, dominators);
  const missing = new Uint8Array(reads.length);
  reads.forEach(({ node, writer }, position) => {
    if (idom[node] === -1) return;
    const dominates =
      writer !== node &&
      idom[writer] !== -1 &&
      (pre[writer] as number) <= (pre[node] as number) &&
      (post[node] as number) <= (post[writer] as number);
    if (!dominates) missing[position] = 1;
  });
  return missing;
}

/** For each read, 1 when some path from an entry reaches the reader without any writer of the key. */
export function missingAnyWriterReads(
  size: number,
  entries: readonly number[],
  successors: Adjacency,
  writersOf: ReadonlyMap<string, readonly number[]>,
  reads: readonly AnyWriterRead[],
): Uint8Array {
  const missing = new Uint8Array(reads.length);
  const byKey = new Map<string, number[]>();
  reads.forEach((read, position) => {
    const list = byKey.get(read.key);
    if (list === undefined) byKey.set(read.key, [position]);
    else list.push(position);
  });
  const isWriter = new Uint8Array(size);
  const reachedUnwritten = new Uint8Array(size);
  const queue = new Int32Array(size);
  for (const [key, positions] of byKey) {
    const writers = writersOf.get(key) ?? [];
    isWriter.fill(0);
    for (const writer of writers) isWriter[writer] = 1;
    reachedUnwritten.fill(0);
    let tail = 0;
    for (const entry of entries) {
      if (reachedUnwritten[entry] === 1) continue;
      reachedUnwritten[entry] = 1;
      queue[tail++] = entry;
    }
    for (let head = 0; head < tail; head++) {
      const node = queue[head] as number;
      // A writer that ran has written the key: paths through it are covered.
      if (isWriter[node] === 1) continue;
      for (
        let slot = successors.start[node] as number;
        slot < (successors.start[node + 1] as number);
        slot++
      ) {
        const next = successors.targets[slot] as number;
        if (reachedUnwritten[next] === 1) continue;
        reachedUnwritten[next] = 1;
        queue[tail++] = next;
      }
    }
    for (const position of positions) {
      const read = reads[position] as AnyWriterRead;
      if (reachedUnwritten[read.node] === 0) continue;
      if (read.afterOwnWrites && isWriter[read.node] === 1) continue;
      missing[position] = 1;
    }
  }
  return missing;
}
