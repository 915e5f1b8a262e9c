/**
 * The journal's step_end stores the router's per-step totals as the entries the step changed
 * (format 2), so its lines do not grow with the run; resume rebuilds the totals by folding them,
 * and still reads a journal of format 1, where every step_end held the whole list.
 *
 * The agent loops through three work steps for ever; the fake model answers `repeat` on every
 * third iteration and `next` otherwise, as a function of the iteration named in the prompt, so a
 * run and a stopped-then-resumed run get the same answers. The iteration cap ends both
 * (AGENT_MAX_ITERATIONS, whose message names the step that ran most, from those totals).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RouterState, StepCount } from "@climpt/router";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { startFakeAnthropic } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { intentReply, writeTestAgent } from "./agents.test-helper.ts";
import { JOURNAL_FORMAT, StepEndFold } from "./journal/step-end-record.ts";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunEvent, StepEndEvent } from "./run-event.ts";
import type { HistoryEntry, RunResult } from "./run-result.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test took 5 s alone and up to 48 s at
// load 13–25 (when it still ran in a git repository).
vi.setConfig({ testTimeout: 210_000, hookTimeout: 210_000 });

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

async function loopAgent() {
  const step = (id: string, next: string) => ({
    intents: ["next", "repeat"] as const,
    transitions: { next: { target: next }, repeat: { target: id } },
    prompt: `Step ${id}, iteration {uv-iteration}.`,
  });
  const dir = writeTestAgent({
    name: "loop",
    entryStep: "initial.a",
    steps: {
      "initial.a": step("initial.a", "continuation.b"),
      "continuation.b": step("continuation.b", "continuation.c"),
      "continuation.c": {
        ...step("continuation.c", "initial.a"),
        intents: ["next", "repeat", "handoff"],
        transitions: {
          next: { target: "initial.a" },
          repeat: { target: "continuation.c" },
          handoff: { target: "closure.end" },
        },
      },
      "closure.end": { intents: ["closing"], transitions: { closing: { target: null } } },
    },
  });
  cleanup.push(path.dirname(dir));
  return loadAgentDefinition(dir);
}

/** A model whose answer depends only on the iteration its prompt names. */
async function loopModel() {
  const fake = await startFakeAnthropic();
  fake.setHandler((request) => {
    const iteration = /iteration (\d+)\./.exec(JSON.stringify(request.body))?.[1];
    if (iteration === undefined) return undefined;
    return intentReply(Number(iteration) % 3 === 0 ? "repeat" : "next");
  });
  return fake;
}

async function runLoop(options: { readonly cap: number; readonly resume?: string; cwd: string }) {
  const fake = await loopModel();
  try {
    const runner = new StepFlowRunner(await loopAgent(), {
      modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url }),
      // What is tested is the journal's content, not its durability nor the snapshots of the
      // working tree (the fork tests cover those; `runFolder()` is not a repository anyway).
      fsync: false,
      snapshots: false,
    });
    return await runner.run({
      cwd: options.cwd,
      maxIterations: options.cap,
      ...(options.resume === undefined ? {} : { resume: options.resume }),
    });
  } finally {
    await fake.close();
  }
}

/**
 * The folder a loop runs in: not a git repository, so no step takes a snapshot of the working
 * tree or records its changes (two git processes a step, ~4,000 in this file: most of its time).
 * What is tested is the journal's step_ends; the step changes have tests of their own.
 */
function runFolder(): string {
  const dir = tempDirForFile("climpt-journal-format-");
  cleanup.push(dir);
  return dir;
}

function stepEnds(events: readonly RunEvent[]): StepEndEvent[] {
  return events.filter((event): event is StepEndEvent => event.type === "step_end");
}

/** The router state a run of the loop agent starts from. */
const ENTRY_STATE: RouterState = {
  iteration: 1,
  stepId: "initial.a",
  previousStepId: null,
  lastIntent: null,
  visitExecutions: 0,
  stepCounts: [],
  checkRetries: 0,
  validationAttempts: {},
  closureLeadIn: {},
  lastWorkStepId: null,
  awaitingCheck: false,
};

/** The per-step totals a journal's step_ends fold to, as resume rebuilds them. */
function foldedCounts(events: readonly RunEvent[]): StepCount[] {
  const fold = new StepEndFold(ENTRY_STATE);
  let counts: readonly StepCount[] = [];
  for (const end of stepEnds(events)) counts = fold.apply(end).routerState.stepCounts;
  return [...counts];
}

/**
 * The totals counted from the run's history: an oracle independent of the journal's shape. The
 * execution the cap refused to route (transition `error`) is in the history but was not counted.
 */
function countedFromHistory(history: readonly HistoryEntry[]): StepCount[] {
  const counts = new Map<string, { executions: number; retries: number }>();
  for (const entry of history) {
    if (entry.transition === "error") continue;
    const count = counts.get(entry.stepId) ?? { executions: 0, retries: 0 };
    count.executions += 1;
    if (entry.intent === "repeat") count.retries += 1;
    counts.set(entry.stepId, count);
  }
  return [...counts].map(([stepId, count]) => ({ stepId, ...count }));
}

function expectCapped(result: RunResult, iterations: number): void {
  expect(result.success).toBe(false);
  expect(result.error?.code).toBe("AGENT_MAX_ITERATIONS");
  expect(result.iterations).toBe(iterations);
}

describe("the journal's step_end (format 2)", () => {
  // About 2,000 model calls through the SDK: on a loaded 2-core machine this takes minutes, so
  // the bound that catches a hang is wider than the shared one.
  it("a run resumed after 1,000 steps has the same per-step totals as one that never stopped", {
    timeout: 600_000,
  }, async () => {
    const whole = runFolder();
    const straight = await runLoop({ cap: 1_010, cwd: whole });
    expectCapped(straight, 1_010);

    const stopped = runFolder();
    const first = await runLoop({ cap: 1_000, cwd: stopped });
    expectCapped(first, 1_000);
    const resumed = await runLoop({ cap: 1_010, cwd: stopped, resume: first.runId });
    expectCapped(resumed, 1_010);

    // The cap's message names the step that ran most and how often, from the router's totals.
    expect(resumed.error?.message).toBe(straight.error?.message);
    expect(resumed.error?.message).toMatch(/ran \d+ times/);
    expect(resumed.state.history).toEqual(straight.state.history);

    const straightEvents = readJournal(straight.journalPath as string);
    const resumedEvents = readJournal(resumed.journalPath as string);
    const expected = countedFromHistory(straight.state.history);
    expect(expected.map((count) => count.stepId)).toEqual([
      "initial.a",
      "continuation.b",
      "continuation.c",
    ]);
    expect(foldedCounts(straightEvents)).toEqual(expected);
    expect(foldedCounts(resumedEvents)).toEqual(expected);

    // Every line is the same size at step 1,000 as at step 10: it holds what the step changed.
    const ends = stepEnds(straightEvents);
    for (const end of ends) {
      expect(end.routerState).not.toHaveProperty("stepCounts");
      // The execution the cap refused changed nothing.
      const changed = end.history.transition === "error" ? [] : [end.stepId];
      expect(end.stepCountChanges?.map((count) => count.stepId)).toEqual(changed);
    }
    const size = (end: StepEndEvent) => JSON.stringify(end).length;
    const early = size(ends[9] as StepEndEvent);
    const late = size(ends[999] as StepEndEvent);
    // A few more digits in the counters and the iteration, nothing per step already run.
    expect(late - early).toBeLessThan(40);
    const start = straightEvents[0];
    expect(start?.type === "run_start" && start.journalFormat).toBe(JOURNAL_FORMAT);
  });

  it("resume still reads a journal of format 1, whose step_ends hold the whole totals", async () => {
    const whole = runFolder();
    const straight = await runLoop({ cap: 40, cwd: whole });

    const stopped = runFolder();
    const first = await runLoop({ cap: 25, cwd: stopped });
    expectCapped(first, 25);
    // Rewrite the journal as format 1 wrote it: no journalFormat in run_start, each step_end's
    // routerState with the whole stepCounts list, no stepCountChanges.
    const file = first.journalPath as string;
    const events = readJournal(file);
    const lines: string[] = [];
    let counts: StepCount[] = [];
    const rebuild = new StepEndFold(ENTRY_STATE);
    for (const event of events) {
      if (event.type === "run_start") {
        const { journalFormat: _format, ...old } = event;
        lines.push(JSON.stringify(old));
      } else if (event.type === "step_end") {
        const full = rebuild.apply(event);
        counts = [...full.routerState.stepCounts];
        const { stepCountChanges: _changes, ...old } = event;
        lines.push(
          JSON.stringify({ ...old, routerState: { ...full.routerState, stepCounts: counts } }),
        );
      } else {
        lines.push(JSON.stringify(event));
      }
    }
    writeFileSync(file, `${lines.join("\n")}\n`);
    expect(readFileSync(file, "utf8")).not.toContain("stepCountChanges");
    expect(counts.length).toBe(3);

    const resumed = await runLoop({ cap: 40, cwd: stopped, resume: first.runId });
    expectCapped(resumed, 40);
    expect(resumed.error?.message).toBe(straight.error?.message);
    expect(resumed.state.history).toEqual(straight.state.history);
    // The resumed part is written in format 2 after the old lines, and the whole folds right.
    expect(foldedCounts(readJournal(file))).toEqual(countedFromHistory(straight.state.history));
  });
});
