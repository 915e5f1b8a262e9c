/**
 * `pnpm bench`: climpt side by side with LangGraph.js, one table, every row measured in this one
 * process run (row 3 spawns the processes it times). Built by tsdown (Node 20 has no TypeScript
 * stripping) and run as `node --expose-gc dist/bench.mjs` (gc only to settle memory before and
 * after row 5). `BENCH_ROWS=1,4` measures only some rows.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { loadChainAgent } from "./chain-agent.ts";
import { measureColdStart, rssMethod } from "./cold-start.ts";
import { type FirstRequest, measureFirstRequest } from "./first-request.ts";
import { goalLines, renderGoals } from "./goals.ts";
import { LOAD_SIZES, type LoadTiming, measureLoadAndAnalysis } from "./load-analysis.ts";
import { measureMemoryInFlight } from "./memory-in-flight.ts";
import { micros, millis, ratio, renderTable, type TableRow } from "./table.ts";
import { measureTokenFlatness } from "./token-flatness.ts";
import {
  measureTransitions,
  type TransitionStats,
  type TransitionVariant,
} from "./transition-overhead.ts";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const CHAIN_SIZES = (process.env.BENCH_CHAIN_SIZES ?? "10,100,1000").split(",").map(Number);
const wanted = new Set((process.env.BENCH_ROWS ?? "1,2,3,4,5").split(",").map((row) => row.trim()));

function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

function pair(stats: TransitionStats): string {
  return `${micros(stats.p50)} / ${micros(stats.p99)}`;
}

function ratioPair(a: TransitionStats, b: TransitionStats): string {
  return `${ratio(a.p50, b.p50)} / ${ratio(a.p99, b.p99)}`;
}

const rows: TableRow[] = [];
const transitions = new Map<number, Partial<Record<TransitionVariant, TransitionStats>>>();
const loads = new Map<number, number>();
let firstRequest: FirstRequest | undefined;
let perRunMb: number | undefined;
const loadBefore = os.loadavg()[0] ?? 0;
const parentDir = mkdtempSync(path.join(tmpdir(), "climpt-bench-"));
const started = performance.now();
try {
  // Row 5 first, while the heap holds nothing but the loaded modules.
  let memoryRows: TableRow[] = [];
  if (wanted.has("5")) {
    progress("row 5: 50 runs in flight");
    const memory = await measureMemoryInFlight(50, 10, 20, parentDir);
    perRunMb = memory.perRunMb;
    memoryRows = [
      {
        group: "5",
        measure: `RSS with ${memory.runs} runs × ${memory.stepsPerRun} steps in flight (MB): before / peak / after`,
        climpt: `${memory.beforeMb.toFixed(0)} / ${memory.peakMb.toFixed(0)} / ${memory.afterMb.toFixed(0)}`,
        langgraph: "–",
        ratio: "–",
        note: `${memory.perRunMb.toFixed(2)} MB per run in flight (heap +${memory.heapPeakMb.toFixed(1)} MB at peak); real SDK, fake API in a child process, 20 ms per call, journal fsynced; ${millis(memory.wallMs)} ms for all`,
      },
    ];
  }

  if (wanted.has("1")) {
    for (const size of CHAIN_SIZES) {
      progress(`row 1: ${size}-step chains`);
      const agent = await loadChainAgent(size, parentDir);
      const [memory = {}, durable = {}] = await measureTransitions(agent, size);
      transitions.set(size, { ...memory, ...durable });
      const chain = `${size.toLocaleString("en-US")}-step chain`;
      const row = (
        measure: string,
        climpt: TransitionStats | undefined,
        langgraph: TransitionStats | undefined,
        extra = "",
      ): TableRow => ({
        group: "1",
        measure: `µs per transition, ${chain}, p50 / p99 — ${measure}`,
        climpt: climpt === undefined ? "–" : pair(climpt),
        langgraph: langgraph === undefined ? "–" : pair(langgraph),
        ratio: climpt === undefined || langgraph === undefined ? "–" : ratioPair(climpt, langgraph),
        note: `whole run ÷ steps: ${climpt === undefined ? "–" : micros(climpt.perStepMean)} vs ${langgraph === undefined ? "–" : micros(langgraph.perStepMean)} µs; ${climpt?.samples ?? 0} samples each${extra}`,
      });
      rows.push(
        row(
          "no persistence (climpt journalDir:false · LangGraph no checkpointer)",
          memory["climpt-journal-off"],
          memory.langgraph,
        ),
        row(
          "in-memory persistence (climpt journal, fsync:false · LangGraph MemorySaver)",
          memory["climpt-journal-no-fsync"],
          memory["langgraph-memorysaver"],
        ),
        row(
          "durable (climpt journal fsynced, the default · LangGraph MemorySaver)",
          durable["climpt-journal-fsync"],
          durable["langgraph-memorysaver"],
          "; MemorySaver is not durable; measured in a phase of its own",
        ),
        row(
          "durable vs durable (climpt journal fsynced · LangGraph SqliteSaver, WAL, synchronous=FULL)",
          durable["climpt-journal-fsync"],
          durable["langgraph-sqlite"],
          durable.skipped?.["langgraph-sqlite"] === undefined
            ? "; same phase as the row above"
            : `; SqliteSaver not run: ${durable.skipped["langgraph-sqlite"]}`,
        ),
      );
    }
  }

  if (wanted.has("2")) {
    let previous: LoadTiming | undefined;
    for (const size of LOAD_SIZES) {
      progress(`row 2: load + analysis of ${size} steps`);
      const timing = await measureLoadAndAnalysis(size, parentDir);
      loads.set(size, timing.totalMs);
      rows.push({
        group: "2",
        measure: `loadAgent (from disk) + analyzeFlow, ${size.toLocaleString("en-US")} steps, median ms`,
        climpt: millis(timing.totalMs),
        langgraph: "–",
        ratio: previous === undefined ? "" : `×${(timing.totalMs / previous.totalMs).toFixed(1)}`,
        note: `load ${millis(timing.loadMs)} + analysis ${millis(timing.analysisMs)} ms${previous === undefined ? "" : "; ratio = growth per ×10 steps"}`,
      });
      previous = timing;
    }
  }

  if (wanted.has("3")) {
    progress("row 3: CLI cold start");
    const method = rssMethod();
    const cli = path.join(REPO_ROOT, "apps/cli/dist/bin.mjs");
    const climpt = measureColdStart(
      [cli, "validate", "examples/agents/fix-bug"],
      REPO_ROOT,
      method,
    );
    const bare = measureColdStart(["-e", "0"], REPO_ROOT, method);
    progress("row 3: time to first model request");
    firstRequest = await measureFirstRequest(REPO_ROOT, parentDir);
    rows.push(
      {
        group: "3",
        measure: `time to first model request, \`climpt run examples/agents/fix-bug\` (spawn → the fake API receives it), median of ${firstRequest.runs}`,
        climpt: millis(firstRequest.climptMs),
        langgraph: "–",
        ratio: `${ratio(firstRequest.climptMs, firstRequest.nodeMs)} node`,
        note: `\`node -e 0\` (spawn → exit): ${millis(firstRequest.nodeMs)} ms`,
      },
      {
        group: "3",
        measure: "cold start `climpt validate examples/agents/fix-bug`, wall ms (median of 15)",
        climpt: millis(climpt.wallMs),
        langgraph: "–",
        ratio: `${ratio(climpt.wallMs, bare.wallMs)} node`,
        note: `\`node -e 0\`: ${millis(bare.wallMs)} ms`,
      },
      {
        group: "3",
        measure: "cold start `climpt validate examples/agents/fix-bug`, peak RSS MB",
        climpt: climpt.peakRssMb.toFixed(1),
        langgraph: "–",
        ratio: `${ratio(climpt.peakRssMb, bare.peakRssMb)} node`,
        note: `\`node -e 0\`: ${bare.peakRssMb.toFixed(1)} MB; read with ${method}`,
      },
    );
  }

  if (wanted.has("4")) {
    progress("row 4: input tokens per step");
    const tokens = await measureTokenFlatness(50, parentDir);
    rows.push(
      {
        group: "4",
        measure: `input tokens per step, ${tokens.steps}-step run: min / median / max`,
        climpt: `${tokens.min} / ${tokens.median} / ${tokens.max}`,
        langgraph: "–",
        ratio: "–",
        note: `slope ${tokens.slope >= 0 ? "+" : ""}${tokens.slope.toFixed(3)} tokens per step (flat: every step is a fresh conversation); real SDK against the fake API`,
      },
      {
        group: "4",
        measure: `share of input tokens read from the prompt cache, steps 2–${tokens.steps}`,
        climpt: `${(tokens.cacheReadShare * 100).toFixed(1)} %`,
        langgraph: "–",
        ratio: "–",
        note: "system prompt + tool definitions are the cached prefix",
      },
    );
  }
  rows.push(...memoryRows);
} finally {
  rmSync(parentDir, { recursive: true, force: true });
}

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
console.log(
  `climpt bench — node ${process.version}, ${os.platform()} ${os.arch()}, ${os.cpus().length} × ${cpu}, 1-min load ${loadBefore.toFixed(1)} at start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at end, ${new Date().toISOString().slice(0, 10)}`,
);
console.log("");
console.log(renderTable(rows));
console.log("");
console.log(renderGoals(goalLines({ transitions, load: loads, firstRequest, perRunMb })));
console.log("");
console.log(
  `(${((performance.now() - started) / 1000).toFixed(0)} s. Row 1: time between two consecutive model calls of a run, zero-latency in-process model; LangGraph.js ${langGraphVersion()} nodes return the same fixed output. Ratio < 1: climpt is faster.)`,
);

function langGraphVersion(): string {
  try {
    const manifest = readFileSync(
      path.join(REPO_ROOT, "bench/node_modules/@langchain/langgraph/package.json"),
      "utf8",
    );
    return (JSON.parse(manifest) as { version: string }).version;
  } catch {
    return "1.7";
  }
}
