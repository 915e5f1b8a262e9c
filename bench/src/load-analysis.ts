/**
 * Row 2: `loadAgent` from disk (the generated raw JSON files) plus `analyzeFlow` of what it
 * loaded, for registries of 10 … 10,000 steps. Same generator and folder writer as
 * `pnpm --filter @climpt/flow bench`.
 */
import { rmSync } from "node:fs";
import { analyzeFlow } from "@climpt/flow";
import { loadAgent } from "@climpt/registry-schema";
import { generateRegistry, writeAgentFolder } from "./chain-agent.ts";
import { median } from "./stats.ts";

export const LOAD_SIZES = [10, 100, 1_000, 10_000] as const;

export interface LoadTiming {
  readonly size: number;
  /** Median ms of load + analysis, timed as one. */
  readonly totalMs: number;
  readonly loadMs: number;
  readonly analysisMs: number;
}

export async function measureLoadAndAnalysis(size: number, parentDir: string): Promise<LoadTiming> {
  const dir = writeAgentFolder(generateRegistry(size, "linear"), parentDir, {
    name: `load-${size}`,
  });
  const runs = size >= 10_000 ? 9 : size >= 1_000 ? 15 : 51;
  const totals: number[] = [];
  const loads: number[] = [];
  const analyses: number[] = [];
  try {
    for (let run = 0; run < runs + 3; run++) {
      const started = performance.now();
      const loaded = await loadAgent(dir);
      const loadedAt = performance.now();
      if (!loaded.ok) {
        throw new Error(`the generated agent does not load: ${loaded.issues[0]?.message ?? ""}`);
      }
      analyzeFlow(loaded.value.registry);
      const ended = performance.now();
      if (run < 3) continue; // warm-up
      totals.push(ended - started);
      loads.push(loadedAt - started);
      analyses.push(ended - loadedAt);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { size, totalMs: median(totals), loadMs: median(loads), analysisMs: median(analyses) };
}
