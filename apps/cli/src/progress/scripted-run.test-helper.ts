import type { RunEvent, RunResult, RunUsage } from "@climpt/runner";
import { ESC } from "./format.ts";

/** An event before the runner stamps it with runId, time and seq. */
type RunEventInput = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, "runId" | "time" | "seq">
    : never
  : never;

const RUN_ID = "20261122T000000Z-abc123";

function totals(inputTokens: number, outputTokens: number, costUsd: number): RunUsage {
  return {
    inputTokens,
    outputTokens,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    costUsd,
  };
}

const USAGE = {
  inputTokens: 1200,
  outputTokens: 300,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
};

/** A run result as the runner returns it. */
export function scriptedResult(overrides: Partial<RunResult> = {}): RunResult {
  return {
    runId: RUN_ID,
    success: true,
    finalStepId: "closure.fix",
    completionReason: "closure.fix said closing and every validator passed",
    iterations: 4,
    state: { history: [], handoff: {} },
    usage: totals(5400, 1300, 0.0351),
    journalPath: "/repo/tmp/climpt/logs/fix-bug/20261122T000000Z-abc123.jsonl",
    resumable: false,
    durationMs: 62_000,
    ...overrides,
  };
}

/**
 * The events of a fix-bug run: analyse, implement (with tool calls, one failing), verify,
 * closure whose git-clean validator fails, the retry back to implement, then a clean closure.
 */
export function scriptedEvents(result: RunResult = scriptedResult()): RunEvent[] {
  const inputs: RunEventInput[] = [
    {
      type: "run_start",
      agent: "fix-bug",
      agentDir: "/repo/.agent/fix-bug",
      cwd: "/repo",
      originCwd: "/repo",
      args: { issue: 7 },
      entryStepId: "initial.analyze",
      dialect: "gate",
      verdictType: "detect:graph",
      registryVersion: "1.0.0",
      modelOverride: null,
      iterationCap: 100,
      worktree: null,
    },
    {
      type: "step_start",
      iteration: 1,
      stepId: "initial.analyze",
      stepKind: "work",
      model: "claude-sonnet",
      phase: "step",
      retry: false,
    },
    {
      type: "model_request",
      iteration: 1,
      stepId: "initial.analyze",
      phase: "step",
      call: 1,
      model: "claude-sonnet",
      repair: false,
    },
    {
      type: "model_response",
      iteration: 1,
      stepId: "initial.analyze",
      phase: "step",
      call: 1,
      model: "claude-sonnet",
      stopReason: "tool_use",
      usage: USAGE,
      costUsd: 0.0081,
      requestId: "req_1",
      durationMs: 900,
      content: [],
      totals: totals(1200, 300, 0.0081),
    },
    {
      type: "tool_call",
      iteration: 1,
      stepId: "initial.analyze",
      call: { id: "t1", name: "Read", input: { file_path: "src/slugify.js" } },
    },
    {
      type: "tool_result",
      iteration: 1,
      stepId: "initial.analyze",
      call: { id: "t1", name: "Read", input: { file_path: "src/slugify.js" } },
      result: { content: "1\texport function slugify", isError: false },
      durationMs: 3,
    },
    {
      type: "tool_call",
      iteration: 1,
      stepId: "initial.analyze",
      call: { id: "t2", name: "Bash", input: { command: "node test/run.js" } },
    },
    {
      type: "tool_result",
      iteration: 1,
      stepId: "initial.analyze",
      call: { id: "t2", name: "Bash", input: { command: "node test/run.js" } },
      result: { content: "not ok 2 - slugify collapses dashes\nexit 1", isError: true },
      durationMs: 120,
    },
    {
      type: "tool_refused",
      iteration: 1,
      stepId: "initial.analyze",
      tool: "Bash",
      reason: "gh issue close is a boundary action",
    },
    {
      type: "gate",
      iteration: 1,
      stepId: "initial.analyze",
      intent: "next",
      usedFallback: false,
      reason: null,
      target: null,
      handoff: {},
    },
    {
      type: "route",
      iteration: 1,
      from: "initial.analyze",
      decision: "step",
      to: "continuation.implement",
      via: "next",
    },
    {
      type: "step_start",
      iteration: 2,
      stepId: "closure.fix",
      stepKind: "closure",
      model: "claude-sonnet",
      phase: "step",
      retry: false,
    },
    {
      type: "gate",
      iteration: 2,
      stepId: "closure.fix",
      intent: "closing",
      usedFallback: false,
      reason: null,
      target: null,
      handoff: {},
    },
    {
      type: "route",
      iteration: 2,
      from: "closure.fix",
      decision: "closing",
      to: null,
      via: null,
    },
    {
      type: "validator",
      iteration: 2,
      stepId: "closure.fix",
      validator: "git-clean",
      passed: false,
      command: "git status --porcelain",
      exitCode: 0,
      timedOut: false,
      durationMs: 15,
      output: " M src/slugify.js",
    },
    {
      type: "verdict",
      iteration: 2,
      stepId: "closure.fix",
      outcome: "retry",
      reason: "git-clean failed",
      returnStepId: "continuation.implement",
      failurePattern: "git-dirty",
    },
    {
      type: "step_start",
      iteration: 3,
      stepId: "continuation.implement",
      stepKind: "work",
      model: "claude-sonnet",
      phase: "step",
      retry: true,
    },
    {
      type: "step_end",
      iteration: 3,
      stepId: "continuation.implement",
      history: {
        iteration: 3,
        stepId: "continuation.implement",
        intent: "next",
        transition: "closure.fix",
        checkResult: null,
      },
      routerState: {} as never,
      output: {},
      handoff: {},
      handoffPaths: {},
      pendingRetry: null,
      consecutiveSchemaFailures: 0,
      totals: totals(4000, 1000, 0.027),
      final: false,
    },
    {
      type: "step_start",
      iteration: 4,
      stepId: "closure.fix",
      stepKind: "closure",
      model: "claude-sonnet",
      phase: "step",
      retry: false,
    },
    {
      type: "validator",
      iteration: 4,
      stepId: "closure.fix",
      validator: "git-clean",
      passed: true,
      command: "git status --porcelain",
      exitCode: 0,
      timedOut: false,
      durationMs: 12,
      output: "",
    },
    {
      type: "verdict",
      iteration: 4,
      stepId: "closure.fix",
      outcome: "done",
      reason: "all validators passed",
      returnStepId: null,
      failurePattern: null,
    },
    { type: "notice", level: "warning", message: "step closure.fix ran without tool calls" },
    { type: "run_end", result },
  ];
  return inputs.map(
    (input, index) =>
      ({ ...input, runId: RUN_ID, time: "2026-11-22T00:00:00.000Z", seq: index + 1 }) as RunEvent,
  );
}

/**
 * What a terminal shows after `output`: `\r` returns to column 0, `ESC[2K` clears the line,
 * `\n` starts a new one, other escape sequences take no room. Lines are returned top to bottom.
 */
const SEQUENCE = new RegExp(`^${ESC}\\[([0-9;?]*)([A-Za-z])`);

export function renderTerminal(output: string): string[] {
  const lines: string[] = [""];
  let column = 0;
  for (let index = 0; index < output.length; index++) {
    const char = output[index] as string;
    if (char === "\x1b") {
      const match = SEQUENCE.exec(output.slice(index));
      if (match) {
        if (match[2] === "K" && match[1] === "2") lines[lines.length - 1] = "";
        index += match[0].length - 1;
        continue;
      }
    }
    if (char === "\r") {
      column = 0;
      continue;
    }
    if (char === "\n") {
      lines.push("");
      column = 0;
      continue;
    }
    const line = lines[lines.length - 1] as string;
    lines[lines.length - 1] = line.slice(0, column) + char + line.slice(column + 1);
    column++;
  }
  return lines;
}
