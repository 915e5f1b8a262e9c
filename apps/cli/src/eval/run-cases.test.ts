import { describe, expect, it } from "vitest";
import type { CaseOptions, CaseReport } from "./eval-case.ts";
import type { EvalCase } from "./eval-suite.ts";
import { DEFAULT_EVAL_CONCURRENCY, runCases } from "./run-cases.ts";

function evalCase(name: string, cassette = `/cassettes/${name}.jsonl`): EvalCase {
  return { name, agent: "/agents/a", args: {}, cassette, expect: {} };
}

/**
 * A case runner whose cases end when the test says so: `finish(name)` ends that case. It records
 * how many ran at once and in which order they started.
 */
function controlledRunner() {
  const pending = new Map<string, () => void>();
  const started: string[] = [];
  let running = 0;
  let peak = 0;
  const run = (entry: EvalCase, _options: CaseOptions): Promise<CaseReport> => {
    started.push(entry.name);
    running++;
    peak = Math.max(peak, running);
    return new Promise((resolve) => {
      pending.set(entry.name, () => {
        running--;
        resolve({
          name: entry.name,
          status: "passed",
          details: [],
          steps: [],
          iterations: 1,
          costUsd: 0,
          durationMs: 0,
        });
      });
    });
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const finish = async (name: string): Promise<void> => {
    await settle();
    const end = pending.get(name);
    if (end === undefined) throw new Error(`${name} is not running`);
    pending.delete(name);
    end();
    await settle();
  };
  return {
    run,
    finish,
    started,
    peak: () => peak,
    running: () => [...pending.keys()],
    settle,
  };
}

describe("runCases: a suite's cases at once, reported in the suite's order", () => {
  it("runs at most --concurrency cases at a time and reports in suite order whatever order they end in", async () => {
    const runner = controlledRunner();
    const cases = ["a", "b", "c", "d", "e"].map((name) => evalCase(name));
    const told: string[] = [];
    const done = runCases(cases, {
      live: false,
      keep: false,
      concurrency: 3,
      run: runner.run,
      onReport: (report, index) => told.push(`${index}:${report.name}`),
    });
    await runner.settle();
    expect(runner.running()).toEqual(["a", "b", "c"]);
    // c ends first, then b: nothing can be told before a.
    await runner.finish("c");
    expect(runner.running()).toEqual(["a", "b", "d"]);
    await runner.finish("b");
    expect(told).toEqual([]);
    await runner.finish("a");
    expect(told).toEqual(["0:a", "1:b", "2:c"]);
    await runner.finish("e");
    await runner.finish("d");
    const reports = await done;
    expect(reports.map((report) => report.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(told).toEqual(["0:a", "1:b", "2:c", "3:d", "4:e"]);
    expect(runner.peak()).toBe(3);
  });

  it("runs one case at a time with --concurrency 1, in suite order", async () => {
    const runner = controlledRunner();
    const done = runCases([evalCase("a"), evalCase("b")], {
      live: false,
      keep: false,
      concurrency: 1,
      run: runner.run,
    });
    await runner.finish("a");
    await runner.finish("b");
    expect((await done).map((report) => report.name)).toEqual(["a", "b"]);
    expect(runner.started).toEqual(["a", "b"]);
    expect(runner.peak()).toBe(1);
  });

  it("with --live, runs the cases of one cassette one after another (a re-recording replaces it)", async () => {
    const runner = controlledRunner();
    const shared = "/cassettes/fix-bug.jsonl";
    const cases = [evalCase("a", shared), evalCase("b", shared), evalCase("c")];
    const done = runCases(cases, { live: true, keep: false, concurrency: 3, run: runner.run });
    await runner.settle();
    expect(runner.running()).toEqual(["a", "c"]);
    await runner.finish("a");
    expect(runner.running()).toEqual(["c", "b"]);
    await runner.finish("b");
    await runner.finish("c");
    expect((await done).map((report) => report.name)).toEqual(["a", "b", "c"]);
    expect(runner.peak()).toBe(2);
  });

  it("defaults to a small number: 2 to 4", () => {
    expect(DEFAULT_EVAL_CONCURRENCY).toBeGreaterThanOrEqual(2);
    expect(DEFAULT_EVAL_CONCURRENCY).toBeLessThanOrEqual(4);
  });
});
