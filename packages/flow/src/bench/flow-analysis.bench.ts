/**
 * Flow analysis benchmark: `pnpm --filter @climpt/flow bench`.
 *
 * Node 20 cannot run TypeScript directly, so the `bench` script bundles this file with tsdown
 * into node_modules/.bench (ignored by git) and runs the bundle with plain node. Prints, for
 * 10 … 10,000-step registries of each shape, and the growth factor per ×10 steps (~10 means
 * linear):
 * 1. the median time of `analyzeFlow` on the in-memory registry (graph building included);
 * 2. the median time of `loadAgent` reading the same registry from disk as a real agent folder
 *    (`writeAgentFolder`: agent.json, steps_registry.json, schema file) plus the full analysis.
 * The workspace benchmark (`pnpm bench`, row 2) uses the same generator and folder writer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadAgent } from "@climpt/registry-schema";
import { analyzeFlow } from "../analyze-flow.ts";
import { generateRegistry, REGISTRY_SHAPES, type RegistryShape } from "./generate-registry.ts";
import { writeAgentFolder } from "./write-agent-folder.ts";

const SIZES = [10, 100, 1_000, 10_000] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function runsFor(size: number): number {
  return size >= 10_000 ? 9 : size >= 1_000 ? 15 : 51;
}

/** Median wall time of `analyzeFlow` over several runs, after warm-up runs for the JIT. */
function timeAnalysis(size: number, shape: RegistryShape): { ms: number; findings: number } {
  const registry = generateRegistry(size, shape);
  let findings = 0;
  for (let warm = 0; warm < 3; warm++) findings = analyzeFlow(registry).length;
  const times: number[] = [];
  for (let run = 0; run < runsFor(size); run++) {
    const started = performance.now();
    analyzeFlow(registry);
    times.push(performance.now() - started);
  }
  return { ms: median(times), findings };
}

/** Median wall time of `loadAgent` from disk followed by `analyzeFlow` of what it loaded. */
async function timeLoadAndAnalysis(
  size: number,
  shape: RegistryShape,
  parentDir: string,
): Promise<{ ms: number }> {
  const dir = writeAgentFolder(generateRegistry(size, shape), parentDir, {
    name: `bench-${shape}-${size}`,
  });
  const once = async (): Promise<number> => {
    const started = performance.now();
    const loaded = await loadAgent(dir);
    if (!loaded.ok) {
      throw new Error(`the generated agent does not load: ${loaded.issues[0]?.message ?? ""}`);
    }
    analyzeFlow(loaded.value.registry);
    return performance.now() - started;
  };
  for (let warm = 0; warm < 3; warm++) await once();
  const times: number[] = [];
  for (let run = 0; run < runsFor(size); run++) times.push(await once());
  rmSync(dir, { recursive: true, force: true });
  return { ms: median(times) };
}

function printTable(title: string, header: readonly string[], rows: readonly string[][]): void {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padStart(widths[column] as number)).join(" | ")} |`;
  console.log(title);
  console.log(line(header));
  console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

const header = ["steps", ...REGISTRY_SHAPES.flatMap((shape) => [`${shape} ms`, "×"])];
const parentDir = mkdtempSync(path.join(tmpdir(), "climpt-load-bench-"));
const analysisRows: string[][] = [];
const loadRows: string[][] = [];
const previousAnalysis = new Map<RegistryShape, number>();
const previousLoad = new Map<RegistryShape, number>();
const findingCounts: string[] = [];
const cell = (ms: number, before: number | undefined): string[] => [
  ms.toFixed(3),
  before === undefined ? "" : (ms / before).toFixed(1),
];
try {
  for (const size of SIZES) {
    const analysisRow = [size.toLocaleString("en-US")];
    const loadRow = [size.toLocaleString("en-US")];
    for (const shape of REGISTRY_SHAPES) {
      const { ms, findings } = timeAnalysis(size, shape);
      analysisRow.push(...cell(ms, previousAnalysis.get(shape)));
      previousAnalysis.set(shape, ms);
      findingCounts.push(`${shape}@${size}: ${findings}`);
      const load = await timeLoadAndAnalysis(size, shape, parentDir);
      loadRow.push(...cell(load.ms, previousLoad.get(shape)));
      previousLoad.set(shape, load.ms);
    }
    analysisRows.push(analysisRow);
    loadRows.push(loadRow);
  }
} finally {
  rmSync(parentDir, { recursive: true, force: true });
}

printTable(
  `analyzeFlow, median ms (node ${process.version}); × = growth per ×10 steps`,
  header,
  analysisRows,
);
console.log(`findings per registry: ${findingCounts.join(", ")}`);
console.log("");
printTable(
  "loadAgent from disk (agent.json + steps_registry.json + schema file) + analyzeFlow, median ms",
  header,
  loadRows,
);
