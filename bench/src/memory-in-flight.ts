/**
 * Row 5: resident memory with 50 runs in flight in one process. The fake Messages API runs in a
 * child process (so its memory is not counted) and answers after `delayMs`, so the runs overlap;
 * each run is a 10-step chain through the real SDK with the journal on (the default).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { StepFlowRunner } from "@climpt/runner";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { loadChainAgent } from "./chain-agent.ts";

export interface MemoryInFlight {
  readonly runs: number;
  readonly stepsPerRun: number;
  readonly beforeMb: number;
  readonly peakMb: number;
  readonly afterMb: number;
  /** (peak − before) ÷ runs. */
  readonly perRunMb: number;
  readonly heapPeakMb: number;
  readonly wallMs: number;
}

const MB = 1024 * 1024;

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

/** Starts dist/chain-fake-server.mjs; resolves with its URL and a stop function. */
async function startFakeProcess(
  delayMs: number,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const script = path.join(import.meta.dirname, "chain-fake-server.mjs");
  const child = spawn(process.execPath, [script, String(delayMs)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the fake server exited with ${code}`)));
  });
  lines.close();
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin.end();
      }),
  };
}

export async function measureMemoryInFlight(
  runs: number,
  stepsPerRun: number,
  delayMs: number,
  parentDir: string,
): Promise<MemoryInFlight> {
  const agent = await loadChainAgent(stepsPerRun, parentDir);
  const fake = await startFakeProcess(delayMs);
  const cwd = mkdtempSync(path.join(tmpdir(), "climpt-bench-memory-"));
  try {
    const runner = new StepFlowRunner(agent, {
      modelClient: createAnthropicClient({ apiKey: "sk-bench", baseURL: fake.url, maxRetries: 0 }),
    });
    // One run first: module code, the JIT and the SDK's connection pool are not per-run memory.
    await runner.run({ cwd });
    collectGarbage();
    const before = process.memoryUsage();
    let peak = before.rss;
    let heapPeak = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss);
      heapPeak = Math.max(heapPeak, now.heapUsed);
    }, 2);
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: runs }, () => runner.run({ cwd })));
    const wallMs = performance.now() - started;
    clearInterval(sampler);
    const failed = results.filter((result) => !result.success);
    if (failed.length > 0) {
      throw new Error(`${failed.length} of ${runs} runs failed: ${failed[0]?.completionReason}`);
    }
    collectGarbage();
    const after = process.memoryUsage();
    return {
      runs,
      stepsPerRun,
      beforeMb: before.rss / MB,
      peakMb: peak / MB,
      afterMb: after.rss / MB,
      perRunMb: (peak - before.rss) / MB / runs,
      heapPeakMb: (heapPeak - before.heapUsed) / MB,
      wallMs,
    };
  } finally {
    await fake.stop();
    rmSync(cwd, { recursive: true, force: true });
  }
}
