import type { Adjacency } from "./flow-index.ts";

export interface StronglyConnectedComponents {
  /** Component number of each node. */
  readonly component: Int32Array;
  readonly count: number;
}

/**
 * Tarjan's strongly connected components with an explicit call stack, so a 10,000-step chain
 * cannot overflow the JavaScript stack. O(nodes + edges).
 */
export function stronglyConnectedComponents(
  size: number,
  adjacency: Adjacency,
): StronglyConnectedComponents {
  const index = new Int32Array(size).fill(-1);
  const lowLink = new Int32Array(size);
  const onStack = new Uint8Array(size);
  const component = new Int32Array(size).fill(-1);
  const tarjanStack = new Int32Array(size);
  let tarjanTop = 0;
  // The simulated call stack: a node and the next adjacency slot to look at.
  const callNode = new Int32Array(size);
  const callSlot = new Int32Array(size);
  let callTop = 0;
  let nextIndex = 0;
  let count = 0;

  for (let root = 0; root < size; root++) {
    if (index[root] !== -1) continue;
    callNode[0] = root;
    callSlot[0] = adjacency.start[root] as number;
    callTop = 1;
    index[root] = nextIndex;
    lowLink[root] = nextIndex;
    nextIndex++;
    tarjanStack[tarjanTop++] = root;
    onStack[root] = 1;

    while (callTop > 0) {
      const node = callNode[callTop - 1] as number;
      const slot = callSlot[callTop - 1] as number;
      if (slot < (adjacency.start[node + 1] as number)) {
        callSlot[callTop - 1] = slot + 1;
        const next = adjacency.targets[slot] as number;
        if (index[next] === -1) {
          index[next] = nextIndex;
          lowLink[next] = nextIndex;
          nextIndex++;
          tarjanStack[tarjanTop++] = next;
          onStack[next] = 1;
          callNode[callTop] = next;
          callSlot[callTop] = adjacency.start[next] as number;
          callTop++;
        } else if (onStack[next] === 1) {
          lowLink[node] = Math.min(lowLink[node] as number, index[next] as number);
        }
        continue;
      }
      // Every successor done: close the component if `node` is its root, then "return".
      if (lowLink[node] === index[node]) {
        let member: number;
        do {
          member = tarjanStack[--tarjanTop] as number;
          onStack[member] = 0;
          component[member] = count;
        } while (member !== node);
        count++;
      }
      callTop--;
      if (callTop > 0) {
        const parent = callNode[callTop - 1] as number;
        lowLink[parent] = Math.min(lowLink[parent] as number, lowLink[node] as number);
      }
    }
  }
  return { component, count };
}
