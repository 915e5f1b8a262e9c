/**
 * Flow analysis benchmark: `pnpm --filter @climpt/registry-schema bench`.
 *
 * Node 20 cannot run TypeScript directly, so the `bench` script bundles this file with tsdown
 * into node_modules/.bench (ignored by git) and runs the bundle with plain node. Prints, for
 * 10 … 10,000-step registries of each shape, the median time of `analyzeFlow` (graph building
 * included) and the growth factor per ×10 steps: ~10 means linear.
 */
import { performance } from "node:perf_hooks";
import { analyzeFlow } from "../analyze-flow.ts";
import { generateRegistry, REGISTRY_SHAPES, type RegistryShape } from "./generate-registry.ts";

const SIZES = [10, 100, 1_000, 10_000] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Median wall time of `analyzeFlow` over several runs, after warm-up runs for the JIT. */
function timeAnalysis(size: number, shape: RegistryShape): { ms: number; findings: number } {
  const registry = generateRegistry(size, shape);
  const runs = size >= 10_000 ? 9 : size >= 1_000 ? 15 : 51;
  let findings = 0;
  for (let warm = 0; warm < 3; warm++) findings = analyzeFlow(registry).length;
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    analyzeFlow(registry);
    times.push(performance.now() - started);
  }
  return { ms: median(times), findings };
}

const header = ["steps", ...REGISTRY_SHAPES.flatMap((shape) => [`${shape} ms`, "×"])];
const rows: string[][] = [];
const previous = new Map<RegistryShape, number>();
const findingCounts: string[] = [];
for (const size of SIZES) {
  const row = [size.toLocaleString("en-US")];
  for (const shape of REGISTRY_SHAPES) {
    const { ms, findings } = timeAnalysis(size, shape);
    const before = previous.get(shape);
    row.push(ms.toFixed(3), before === undefined ? "" : (ms / before).toFixed(1));
    previous.set(shape, ms);
    findingCounts.push(`${shape}@${size}: ${findings}`);
  }
  rows.push(row);
}

const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
);
const line = (cells: readonly string[]): string =>
  `| ${cells.map((cell, column) => cell.padStart(widths[column] as number)).join(" | ")} |`;
console.log(`analyzeFlow, median ms (node ${process.version}); × = growth per ×10 steps`);
console.log(line(header));
console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
for (const row of rows) console.log(line(row));
console.log(`findings per registry: ${findingCounts.join(", ")}`);
