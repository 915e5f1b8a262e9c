import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunEvent, RunResult } from "@climpt/runner";
import { runnerModule } from "../runner-module.ts";
import type { CaseExpectations, EvalCase } from "./eval-suite.ts";

/** The replay client's code for a request the cassette does not hold (by its fingerprint). */
const REPLAY_MISS = "AC-REPLAY-001";

export type CaseStatus = "passed" | "failed" | "needs-live" | "error";

/** What one case came to. */
export interface CaseReport {
  readonly name: string;
  readonly status: CaseStatus;
  /** needs-live (and a --live re-record): the first step whose request the cassette lacks. */
  readonly fromStep?: string;
  /** The expectations that failed, or why the case could not run, one line each. */
  readonly details: readonly string[];
  readonly steps: readonly string[];
  readonly iterations: number;
  readonly costUsd: number;
  readonly durationMs: number;
  /** --live: the cassette was recorded again (from `fromStep` on) and the case passes with it. */
  readonly rerecorded?: boolean;
  /** --keep: the case's working folders (repository and journal), left in place. */
  readonly kept?: readonly string[];
}

export interface CaseOptions {
  /** Re-record the cassette from the first changed request on (the model is asked from there). */
  readonly live: boolean;
  /** Keep each case's working folder (with its journal) instead of removing it. */
  readonly keep: boolean;
}

/**
 * A fresh git repository for one case: a copy of `repo` (or nothing), committed, with an identity
 * of its own so an agent that commits works on any machine. Nothing a model did has run here yet,
 * so the host's plain git is safe (no hooks or configuration of the work to distrust).
 */
function caseRepository(repo: string | undefined): string {
  const dir = mkdtempSync(path.join(tmpdir(), "climpt-eval-"));
  if (repo !== undefined) cpSync(repo, dir, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "climpt eval");
  git("config", "user.email", "eval@climpt.invalid");
  git("add", "-A");
  git("commit", "-q", "--allow-empty", "-m", "eval: initial");
  return dir;
}

interface CaseRun {
  readonly result: RunResult;
  readonly events: readonly RunEvent[];
  readonly cwd: string;
}

async function runOnce(
  evalCase: EvalCase,
  folders: string[],
  options: { readonly record?: string },
): Promise<CaseRun> {
  const { loadAgentDefinition, StepFlowRunner } = await runnerModule();
  const cwd = caseRepository(evalCase.repo);
  folders.push(cwd);
  const events: RunEvent[] = [];
  const loaded = await loadAgentDefinition(evalCase.agent);
  const result = await new StepFlowRunner(loaded, {
    onEvent: (event) => events.push(event),
  }).run({
    args: evalCase.args,
    cwd,
    replay: evalCase.cassette,
    ...(options.record === undefined ? {} : { record: options.record }),
    ...(evalCase.maxIterations === undefined ? {} : { maxIterations: evalCase.maxIterations }),
  });
  return { result, events, cwd };
}

/** The step that was running when the run ended: the last one the journal says started. */
function lastStartedStep(events: readonly RunEvent[], result: RunResult): string {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === "step_start") return event.stepId;
  }
  return result.finalStepId ?? "(before the first step)";
}

/** Every expectation the run misses, one line each; none: the case passes. */
export function unmetExpectations(
  expect: CaseExpectations,
  result: RunResult,
  events: readonly RunEvent[],
): string[] {
  const misses: string[] = [];
  const steps = result.state.history.map((entry) => entry.stepId);
  if (expect.success !== undefined && result.success !== expect.success) {
    misses.push(
      `expected ${expect.success ? "success" : "a failure"}, got ${result.success ? "success" : `failure ${result.error?.code ?? ""}: ${result.error?.message ?? ""}`.trim()}`,
    );
  }
  if (expect.finalStep !== undefined && result.finalStepId !== expect.finalStep) {
    misses.push(`expected final step ${expect.finalStep}, got ${result.finalStepId ?? "none"}`);
  }
  if (expect.steps !== undefined && steps.join(" ") !== expect.steps.join(" ")) {
    misses.push(`expected steps ${expect.steps.join(" → ")}, got ${steps.join(" → ") || "none"}`);
  }
  if (expect.errorCode !== undefined) {
    const codes = [result.error?.code, result.error?.family];
    if (!codes.includes(expect.errorCode)) {
      misses.push(`expected error ${expect.errorCode}, got ${result.error?.code ?? "none"}`);
    }
  }
  if (expect.validatorsPassed !== undefined) {
    const last = new Map<string, boolean>();
    for (const event of events)
      if (event.type === "validator") last.set(event.validator, event.passed);
    for (const name of expect.validatorsPassed) {
      if (last.get(name) !== true) {
        misses.push(
          `expected validator ${name} to pass, ${last.has(name) ? "it failed last" : "it never ran"}`,
        );
      }
    }
  }
  if (expect.maxCostUsd !== undefined && result.usage.costUsd > expect.maxCostUsd) {
    misses.push(`expected at most $${expect.maxCostUsd}, cost $${result.usage.costUsd.toFixed(4)}`);
  }
  if (expect.maxIterations !== undefined && result.iterations > expect.maxIterations) {
    misses.push(`expected at most ${expect.maxIterations} iterations, ran ${result.iterations}`);
  }
  return misses;
}

function report(
  evalCase: EvalCase,
  run: CaseRun,
  startedAt: number,
  outcome: Pick<CaseReport, "status" | "details" | "fromStep" | "rerecorded">,
): CaseReport {
  return {
    name: evalCase.name,
    ...outcome,
    steps: run.result.state.history.map((entry) => entry.stepId),
    iterations: run.result.iterations,
    costUsd: run.result.usage.costUsd,
    durationMs: Date.now() - startedAt,
  };
}

/**
 * Replays one case offline and judges it. A request the cassette does not hold (its fingerprint
 * differs: a prompt, schema, registry or earlier tool output changed since it was recorded) ends
 * the replay at the step that sent it; every step before it was served, so that is the first
 * step whose request changed: the case "needs a live run from" there. With `live`, the case is
 * then run again with the cassette serving what it holds and the model answering from that step
 * on, recorded; the new cassette replaces the old one only when the case passes with it.
 */
export async function runCase(evalCase: EvalCase, options: CaseOptions): Promise<CaseReport> {
  const folders: string[] = [];
  try {
    const report = await judgeCase(evalCase, options, folders);
    return options.keep ? { ...report, kept: folders } : report;
  } finally {
    if (!options.keep) for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  }
}

async function judgeCase(
  evalCase: EvalCase,
  options: CaseOptions,
  folders: string[],
): Promise<CaseReport> {
  const startedAt = Date.now();
  try {
    const offline = await runOnce(evalCase, folders, {});
    const { result, events } = offline;
    if (result.error?.code !== REPLAY_MISS) {
      const misses = unmetExpectations(evalCase.expect, result, events);
      return report(evalCase, offline, startedAt, {
        status: misses.length === 0 ? "passed" : "failed",
        details: misses,
      });
    }
    const fromStep = lastStartedStep(events, result);
    const why = result.error.message.split("\n").slice(0, 3).join(" ");
    if (!options.live) {
      return report(evalCase, offline, startedAt, {
        status: "needs-live",
        fromStep,
        details: [`needs a live run from ${fromStep}: ${why}`],
      });
    }
    const recording = `${evalCase.cassette}.recording-${process.pid}`;
    const live = await runOnce(evalCase, folders, { record: recording });
    const misses = unmetExpectations(evalCase.expect, live.result, live.events);
    if (misses.length > 0 || live.result.error?.code === REPLAY_MISS) {
      rmSync(recording, { force: true });
      return report(evalCase, live, startedAt, {
        status: "failed",
        fromStep,
        details: [`re-recorded from ${fromStep}, but the cassette was kept:`, ...misses],
      });
    }
    renameSync(recording, evalCase.cassette);
    return report(evalCase, live, startedAt, {
      status: "passed",
      fromStep,
      rerecorded: true,
      details: [`re-recorded from ${fromStep}`],
    });
  } catch (error) {
    return {
      name: evalCase.name,
      status: "error",
      details: [error instanceof Error ? error.message : String(error)],
      steps: [],
      iterations: 0,
      costUsd: 0,
      durationMs: Date.now() - startedAt,
    };
  }
}
