import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isInterruption } from "@climpt/orchestrator";
import { type RunStatus, runStatusOf } from "@climpt/protocol";
import { parseJournalLines, summarizeJournal } from "@climpt/viewer";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIo } from "../cli-io.ts";
import { initFiles, makeProject } from "../e2e/project.test-helper.ts";
import { main } from "../main.ts";
import { journaledAgents } from "./find-run.ts";

// The same four journals read by every tool that reads runs: `climpt runs`, `climpt show`,
// `climpt view`'s data and the orchestrator's outcome must give each run the same status.
const cwd = makeProject("my-agent", initFiles("my-agent"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const usage = {
  inputTokens: 10,
  outputTokens: 5,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  costUsd: 0.01,
};

function journal(runId: string, minute: number, ending: object | null): string[] {
  const time = (second: number) =>
    `2026-11-28T06:${String(minute).padStart(2, "0")}:0${second}.000Z`;
  const base = (seq: number, second: number) => ({ runId, seq, time: time(second) });
  const lines: object[] = [
    { type: "run_start", ...base(1, 0), agent: "my-agent", agentDir: ".", cwd, originCwd: cwd },
    { type: "step_start", ...base(2, 1), iteration: 1, stepId: "initial.work", phase: "step" },
    { type: "model_response", ...base(3, 2), iteration: 1, stepId: "initial.work", totals: usage },
    {
      type: "step_end",
      ...base(4, 3),
      iteration: 1,
      stepId: "initial.work",
      history: { iteration: 1, stepId: "initial.work", intent: "next", transition: "x" },
      routerState: { iteration: 2, stepId: "continuation.work" },
      output: { summary: "planned" },
    },
  ];
  if (ending !== null) {
    lines.push({
      type: "run_end",
      ...base(5, 4),
      result: { runId, iterations: 1, usage, journalPath: null, durationMs: 4000, ...ending },
    });
  }
  return lines.map((line) => JSON.stringify(line));
}

const RUNS: Record<string, { readonly ending: object | null; readonly status: RunStatus }> = {
  "run-completed": { ending: { success: true, resumable: false }, status: "completed" },
  "run-failed": {
    ending: {
      success: false,
      resumable: true,
      error: { code: "AGENT_MAX_ITERATIONS", severity: "error", message: "cap" },
    },
    status: "failed",
  },
  "run-interrupted": {
    ending: {
      success: false,
      resumable: true,
      error: {
        code: "RUN-SIGNAL-001",
        family: "AGENT_INTERRUPTED",
        severity: "error",
        message: "The run was stopped (SIGINT).",
      },
    },
    status: "interrupted",
  },
  // Killed mid-run: no run_end, and a last line cut off by the crash.
  "run-crashed": { ending: null, status: "unfinished" },
};

async function climpt(argv: readonly string[]) {
  const out: string[] = [];
  const io: CliIo = {
    stdout: { write: (text) => void out.push(text) },
    stderr: { write: () => undefined, isTTY: false },
    env: {},
    cwd,
  };
  const code = await main(argv, io);
  return { code, stdout: out.join("") };
}

describe("one status per run, whoever reads its journal", async () => {
  const [agent] = await journaledAgents({ cwd });
  if (agent === undefined) throw new Error("the scaffolded agent does not load");
  mkdirSync(agent.dir, { recursive: true });
  const files: Record<string, string> = {};
  let minute = 10;
  for (const [runId, run] of Object.entries(RUNS)) {
    const lines = journal(runId, minute++, run.ending);
    const text = `${lines.join("\n")}\n${run.ending === null ? '{"type":"step_st' : ""}`;
    files[runId] = path.join(agent.dir, `${runId}.jsonl`);
    writeFileSync(files[runId], text);
  }

  it("climpt runs", async () => {
    const listed = await climpt(["runs", "--json"]);
    expect(listed.code).toBe(0);
    const runs = (JSON.parse(listed.stdout) as { runs: { runId: string; status: string }[] }).runs;
    expect(Object.fromEntries(runs.map((run) => [run.runId, run.status]))).toEqual(
      Object.fromEntries(Object.entries(RUNS).map(([id, run]) => [id, run.status])),
    );
  });

  it.each(Object.entries(RUNS))("climpt show %s", async (runId, run) => {
    const shown = await climpt(["show", runId, "--json"]);
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { run: { status: string } }).run.status).toBe(run.status);
  });

  it.each(Object.entries(RUNS))("climpt view's data for %s", async (runId, run) => {
    const parsed = parseJournalLines(readFileSync(files[runId] as string, "utf8"));
    expect(summarizeJournal(parsed.events, runId).status).toBe(run.status);
  });

  it.each(Object.entries(RUNS))("the orchestrator's outcome of %s", (_runId, run) => {
    const result = run.ending as {
      success: boolean;
      error?: { code: string; family?: string; message: string };
    };
    if (run.ending === null) {
      // No run_end: the orchestrator resumes the run (it has no outcome yet), as `unfinished` says.
      expect(run.status).toBe("unfinished");
      return;
    }
    expect(runStatusOf(result)).toBe(run.status);
    // The orchestrator takes the run up again for an interruption, and only then.
    expect(!result.success && isInterruption(result.error)).toBe(run.status === "interrupted");
    expect(result.success).toBe(run.status === "completed");
  });
});
