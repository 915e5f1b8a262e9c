import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAdjacency, markReachable } from "./flow-index.ts";
import { stronglyConnectedComponents } from "./flow-scc.ts";

describe("stronglyConnectedComponents", () => {
  it("puts two nodes in one component exactly when each reaches the other", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }).chain((size) =>
          fc.record({
            size: fc.constant(size),
            edges: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: size * 3 }),
          }),
        ),
        ({ size, edges }) => {
          const adjacency = buildAdjacency(
            size,
            edges.map(([from, to], i) => [from, to, i] as const),
          );
          const { component, count } = stronglyConnectedComponents(size, adjacency);
          const reach = Array.from({ length: size }, (_, node) =>
            markReachable(size, [node], adjacency),
          );
          for (let a = 0; a < size; a++) {
            expect(component[a]).toBeGreaterThanOrEqual(0);
            expect(component[a]).toBeLessThan(count);
            for (let b = 0; b < size; b++) {
              const mutual = reach[a]?.[b] === 1 && reach[b]?.[a] === 1;
              expect(component[a] === component[b]).toBe(mutual);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("handles a 100,000-node chain without recursion", () => {
    const size = 100_000;
    const pairs = Array.from(
      { length: size },
      (_, node) => [node, (node + 1) % size, node] as const,
    );
    const { count } = stronglyConnectedComponents(size, buildAdjacency(size, pairs));
    expect(count).toBe(1);
  });
});
