import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeDominators } from "./flow-dominators.ts";
import { buildAdjacency, markReachable } from "./flow-index.ts";
import { missingAnyWriterReads, missingSingleWriterReads } from "./flow-must-write.ts";

const KEYS = ["a", "b", "c"] as const;

/** The textbook must-be-written fixpoint: in(n) = ⋂ out(p), out(n) = in(n) ∪ writes(n), in(entry) = ∅. */
function naiveIn(
  size: number,
  edges: readonly (readonly [number, number])[],
  entries: readonly number[],
  writes: readonly (readonly string[])[],
  universe: readonly string[],
): (Set<string> | undefined)[] {
  const preds: number[][] = Array.from({ length: size }, () => []);
  for (const [from, to] of edges) preds[to]?.push(from);
  const succ = buildAdjacency(
    size,
    edges.map(([from, to]) => [from, to, -1] as const),
  );
  const reachable = markReachable(size, entries, succ);
  const inSets = Array.from({ length: size }, (_, node) =>
    reachable[node] === 1 ? new Set(universe) : undefined,
  );
  let changed = true;
  while (changed) {
    changed = false;
    for (let node = 0; node < size; node++) {
      const current = inSets[node];
      if (current === undefined) continue;
      let next: Set<string> = entries.includes(node) ? new Set() : new Set(universe);
      for (const pred of preds[node] ?? []) {
        const predIn = inSets[pred];
        if (predIn === undefined) continue;
        const out = new Set([...predIn, ...(writes[pred] ?? [])]);
        next = new Set([...next].filter((key) => out.has(key)));
      }
      if (next.size !== current.size) {
        inSets[node] = next;
        changed = true;
      }
    }
  }
  return inSets;
}

const graphs = fc.integer({ min: 1, max: 9 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    edges: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: size * 3 }),
    entries: fc.uniqueArray(fc.nat(size - 1), { minLength: 1, maxLength: 2 }),
    writes: fc.array(fc.subarray([...KEYS]), { minLength: size, maxLength: size }),
    singleReads: fc.array(fc.record({ node: fc.nat(size - 1), writer: fc.nat(size - 1) }), {
      maxLength: 6,
    }),
    anyReads: fc.array(
      fc.record({
        node: fc.nat(size - 1),
        key: fc.constantFrom(...KEYS),
        afterOwnWrites: fc.boolean(),
      }),
      { maxLength: 6 },
    ),
  }),
);

describe("must-be-written handoff dataflow", () => {
  it("agrees with the intersection fixpoint for single-writer keys (via dominators)", () => {
    fc.assert(
      fc.property(graphs, ({ size, edges, entries, singleReads }) => {
        // Every step writes its own qualified key `q<n>`, as channel 4 keys are.
        const writes = Array.from({ length: size }, (_, node) => [`q${node}`]);
        const universe = writes.flat();
        const inSets = naiveIn(size, edges, entries, writes, universe);
        const succ = buildAdjacency(
          size,
          edges.map(([from, to], i) => [from, to, i] as const),
        );
        const pred = buildAdjacency(
          size,
          edges.map(([from, to], i) => [to, from, i] as const),
        );
        const flags = missingSingleWriterReads(
          size,
          computeDominators(size, entries, succ, pred),
          singleReads,
        );
        singleReads.forEach(({ node, writer }, position) => {
          const expected = inSets[node] === undefined ? 0 : inSets[node]?.has(`q${writer}`) ? 0 : 1;
          expect(flags[position]).toBe(expected);
        });
      }),
      { numRuns: 400 },
    );
  });

  it("agrees with the intersection fixpoint for keys several steps write", () => {
    fc.assert(
      fc.property(graphs, ({ size, edges, entries, writes, anyReads }) => {
        const inSets = naiveIn(size, edges, entries, writes, [...KEYS]);
        const writersOf = new Map<string, number[]>();
        writes.forEach((keys, node) => {
          for (const key of keys) writersOf.set(key, [...(writersOf.get(key) ?? []), node]);
        });
        const succ = buildAdjacency(
          size,
          edges.map(([from, to], i) => [from, to, i] as const),
        );
        const flags = missingAnyWriterReads(size, entries, succ, writersOf, anyReads);
        anyReads.forEach(({ node, key, afterOwnWrites }, position) => {
          const inSet = inSets[node];
          const written =
            inSet === undefined ||
            inSet.has(key) ||
            (afterOwnWrites && (writes[node] ?? []).includes(key));
          expect(flags[position]).toBe(written ? 0 : 1);
        });
      }),
      { numRuns: 400 },
    );
  });
});
