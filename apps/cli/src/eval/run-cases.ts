import { availableParallelism } from "node:os";
import { type CaseOptions, type CaseReport, runCase } from "./eval-case.ts";
import type { EvalCase } from "./eval-suite.ts";

/**
 * Cases at once by default: a replayed case is mostly the runner's own work and git (no model
 * waits), so more than a few at once only competes for the cores; two at least, since a case
 * also waits on its validators' processes.
 */
export const DEFAULT_EVAL_CONCURRENCY: number = Math.max(2, Math.min(4, availableParallelism()));

export interface RunCasesOptions extends CaseOptions {
  /** Cases at once (at least 1). */
  readonly concurrency: number;
  /** Told of each report in the suite's order, as soon as every case before it is done. */
  readonly onReport?: (report: CaseReport, index: number) => void;
  /** The case runner (the real one by default; a test passes one that records its calls). */
  readonly run?: (evalCase: EvalCase, options: CaseOptions) => Promise<CaseReport>;
}

/**
 * Runs a suite's cases `concurrency` at a time and returns their reports in the suite's order,
 * whatever order they finish in, so every output made from them (table, JSON, JUnit, markdown)
 * is the same from one run to the next but for the timings. Each case works in folders of its
 * own. With `live` a case may write its cassette (the re-recording renamed over it), so cases
 * that share a cassette then run one after another, in the suite's order.
 */
export async function runCases(
  cases: readonly EvalCase[],
  options: RunCasesOptions,
): Promise<CaseReport[]> {
  const run = options.run ?? runCase;
  const caseOptions: CaseOptions = { live: options.live, keep: options.keep };
  const reports: (CaseReport | undefined)[] = cases.map(() => undefined);
  let told = 0;
  const tell = (): void => {
    for (; told < cases.length && reports[told] !== undefined; told++)
      options.onReport?.(reports[told] as CaseReport, told);
  };
  // --live: the cases of one cassette as one chain; otherwise each case on its own.
  const chains = new Map<string, number[]>();
  cases.forEach((evalCase, index) => {
    const key = options.live ? evalCase.cassette : String(index);
    chains.set(key, [...(chains.get(key) ?? []), index]);
  });
  const queue = [...chains.values()].sort((a, b) => (a[0] as number) - (b[0] as number));
  const worker = async (): Promise<void> => {
    for (let chain = queue.shift(); chain !== undefined; chain = queue.shift()) {
      for (const index of chain) {
        reports[index] = await run(cases[index] as EvalCase, caseOptions);
        tell();
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(options.concurrency), queue.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return reports as CaseReport[];
}
