/**
 * Row 1: what the runtime costs per transition, around a model that answers instantly. A sample
 * is the time between two consecutive model calls (climpt) or node starts (LangGraph) of one
 * run: everything either runtime does between two steps. The variants run interleaved, round by
 * round, so that load from other processes on a shared machine falls on all of them alike.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LoadedAgent } from "@climpt/model";
import { StepFlowRunner } from "@climpt/runner";
import { InstantModelClient } from "./instant-model-client.ts";
import { buildLangGraphChain, sqliteSaver } from "./langgraph-chain.ts";
import { percentile } from "./stats.ts";

export const TRANSITION_VARIANTS = [
  "climpt-journal-off",
  "climpt-journal-fsync",
  "climpt-journal-no-fsync",
  "langgraph",
  "langgraph-memorysaver",
  "langgraph-sqlite",
] as const;

export type TransitionVariant = (typeof TRANSITION_VARIANTS)[number];

export interface TransitionStats {
  /** µs between two steps of one run. */
  readonly p50: number;
  readonly p99: number;
  /** µs per step over whole runs (run time ÷ steps): start, completion and end included. */
  readonly perStepMean: number;
  readonly samples: number;
}

/** Rounds (the first is warm-up) and runs per variant in each round, by chain size. */
function plan(size: number): { rounds: number; runsPerRound: number } {
  if (size <= 10) return { rounds: 11, runsPerRound: 25 };
  if (size <= 100) return { rounds: 6, runsPerRound: 5 };
  return { rounds: 3, runsPerRound: 1 };
}

interface Variant {
  /** Runs the chain once; returns the start time of every step. */
  run(index: number): Promise<number[]>;
}

function climptVariant(
  agent: LoadedAgent,
  size: number,
  cwd: string,
  journal: "off" | "fsync" | "no-fsync",
): Variant {
  let times: number[] = [];
  const runner = new StepFlowRunner(agent, {
    modelClient: new InstantModelClient((at) => times.push(at)),
    ...(journal === "off" ? { journalDir: false } : {}),
    ...(journal === "no-fsync" ? { fsync: false } : {}),
  });
  return {
    async run() {
      times = [];
      const result = await runner.run({ cwd });
      if (!result.success || times.length !== size) {
        throw new Error(
          `the ${size}-step chain did not run through (${times.length} model calls): ${result.completionReason}`,
        );
      }
      return times;
    },
  };
}

function langGraphVariant(
  size: number,
  checkpointer: Parameters<typeof buildLangGraphChain>[1]["checkpointer"],
): Variant {
  let times: number[] = [];
  const chain = buildLangGraphChain(size, { checkpointer, onNode: (at) => times.push(at) });
  return {
    async run(index) {
      times = [];
      await chain.run(`thread-${index}`);
      if (times.length !== size) {
        throw new Error(`the LangGraph chain of ${size} nodes ran ${times.length}`);
      }
      return times;
    },
  };
}

/**
 * The phases of row 1. Each phase interleaves its variants round by round. The fsynced journal
 * runs in a phase of its own (with LangGraph's MemorySaver beside it): on a VM disk the fsync
 * traffic slows down the file reads of whatever runs right after it, which would bias the other
 * comparisons.
 */
export const TRANSITION_PHASES: readonly (readonly TransitionVariant[])[] = [
  ["climpt-journal-off", "climpt-journal-no-fsync", "langgraph", "langgraph-memorysaver"],
  ["climpt-journal-fsync", "langgraph-memorysaver", "langgraph-sqlite"],
];

export type PhaseStats = Partial<Record<TransitionVariant, TransitionStats>> & {
  /** Why a variant could not run here (e.g. the optional SQLite checkpointer is missing). */
  readonly skipped?: Partial<Record<TransitionVariant, string>>;
};

/** Every phase on the chain of `size` steps. */
export async function measureTransitions(agent: LoadedAgent, size: number): Promise<PhaseStats[]> {
  const only = process.env.BENCH_VARIANTS?.split(",");
  const results: PhaseStats[] = [];
  for (const phase of TRANSITION_PHASES) {
    const names = phase.filter((name) => only === undefined || only.includes(name));
    results.push(names.length === 0 ? {} : await measurePhase(agent, size, names));
  }
  return results;
}

async function measurePhase(
  agent: LoadedAgent,
  size: number,
  names: readonly TransitionVariant[],
): Promise<PhaseStats> {
  const cwd = mkdtempSync(path.join(tmpdir(), "climpt-bench-run-"));
  const skipped: Partial<Record<TransitionVariant, string>> = {};
  const closers: (() => void)[] = [];
  let sqlite: Awaited<ReturnType<typeof sqliteSaver>> | undefined;
  if (names.includes("langgraph-sqlite")) {
    sqlite = await sqliteSaver(path.join(cwd, "checkpoints.sqlite"));
    if ("reason" in sqlite) skipped["langgraph-sqlite"] = sqlite.reason;
    else closers.push(sqlite.close);
  }
  const build = (name: TransitionVariant): Variant | undefined => {
    switch (name) {
      case "climpt-journal-off":
        return climptVariant(agent, size, cwd, "off");
      case "climpt-journal-fsync":
        return climptVariant(agent, size, cwd, "fsync");
      case "climpt-journal-no-fsync":
        return climptVariant(agent, size, cwd, "no-fsync");
      case "langgraph":
        return langGraphVariant(size, false);
      case "langgraph-memorysaver":
        return langGraphVariant(size, true);
      case "langgraph-sqlite":
        return sqlite === undefined || "reason" in sqlite
          ? undefined
          : langGraphVariant(size, sqlite.saver);
    }
  };
  const variants = new Map<TransitionVariant, Variant>();
  for (const name of names) {
    const variant = build(name);
    if (variant !== undefined) variants.set(name, variant);
  }
  const samples = new Map<TransitionVariant, number[]>();
  const runMicros = new Map<TransitionVariant, number[]>();
  const { rounds, runsPerRound } = plan(size);
  let index = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [name, variant] of variants) {
        for (let run = 0; run < runsPerRound; run++) {
          const started = performance.now();
          const times = await variant.run(index++);
          const elapsed = (performance.now() - started) * 1000;
          if (round === 0) continue; // warm-up: the JIT and the file cache
          const into = samples.get(name) ?? [];
          for (let step = 1; step < times.length; step++) {
            into.push(((times[step] as number) - (times[step - 1] as number)) * 1000);
          }
          samples.set(name, into);
          runMicros.set(name, [...(runMicros.get(name) ?? []), elapsed]);
        }
      }
      // A long journal-writing run leaves files behind; keep the folder small.
      rmSync(path.join(cwd, "tmp"), { recursive: true, force: true });
    }
  } finally {
    for (const close of closers) close();
    rmSync(cwd, { recursive: true, force: true });
  }
  const result: Partial<Record<TransitionVariant, TransitionStats>> = {};
  for (const name of variants.keys()) {
    const values = samples.get(name) ?? [];
    const runs = runMicros.get(name) ?? [];
    result[name] = {
      p50: percentile(values, 50),
      p99: percentile(values, 99),
      perStepMean: runs.reduce((a, b) => a + b, 0) / (runs.length * size),
      samples: values.length,
    };
  }
  return { ...result, skipped };
}
