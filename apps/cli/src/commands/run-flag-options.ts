import { existsSync } from "node:fs";
import * as path from "node:path";
import type { AgentParameter, JsonValue, Problem, StepExecutorName } from "@climpt/model";
import { ownEntry } from "@climpt/model";
import type { RunOptions, WorktreeRunOptions } from "@climpt/runner";
import type { FlagSpec } from "../args/flag-spec.ts";
import type { ParsedFlags } from "../args/parse-flags.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { booleanValue, numberValue, stringValue } from "./command-line.ts";
import { modelWaitsFromFlags } from "./model-waits.ts";

/** The run options `climpt run` and `climpt resume` share, read from their flags. */
export interface FlagRunOptions {
  readonly options: Pick<
    RunOptions,
    "model" | "maxIterations" | "budgets" | "worktree" | "worktreeOptions" | "replay" | "record"
  >;
  /** A cassette that does not exist, or no way to reach the model. */
  readonly problems: readonly Problem[];
  /** `--mock`: the script's absolute path; the run is answered by it (executeRun serves it). */
  readonly mockScript?: string;
}

/**
 * `executor`: Claude Code also signs in with the user's Claude Code login, so only the default
 * executor needs a key up front.
 */
export function runOptionsFromFlags(
  values: ParsedFlags["values"],
  io: CliIo,
  executor: StepExecutorName = "messages",
): FlagRunOptions {
  const problems: Problem[] = [];
  const replay = stringValue(values, "replay");
  const record = stringValue(values, "record");
  const replayPath = replay === undefined ? undefined : path.resolve(io.cwd, replay);
  if (replayPath !== undefined && !existsSync(replayPath)) {
    problems.push({
      code: CLI_CODES.badValue,
      severity: "error",
      message: `--replay: no cassette at ${replayPath}.`,
      hint: "Record one first with --record CASSETTE, or check the path.",
    });
  }
  const mock = stringValue(values, "mock");
  const mockScript = mock === undefined ? undefined : path.resolve(io.cwd, mock);
  if (mockScript !== undefined && replay !== undefined) {
    problems.push({
      code: CLI_CODES.conflict,
      severity: "error",
      message: "--mock and --replay both answer the model calls; choose one.",
      hint: "--mock answers from a script of rules; --replay from a recorded cassette. (--record works with --mock.)",
    });
  }
  if (mockScript !== undefined && executor === "claude-code") {
    problems.push({
      code: CLI_CODES.conflict,
      severity: "error",
      message:
        "--mock cannot be used with the claude-code executor: Claude Code makes its own model requests.",
      hint: "Run with --executor messages, or drop --mock.",
    });
  }
  if (
    executor === "messages" &&
    replay === undefined &&
    mockScript === undefined &&
    !io.env.ANTHROPIC_API_KEY &&
    !io.env.ANTHROPIC_AUTH_TOKEN
  ) {
    problems.push({
      code: CLI_CODES.noCredentials,
      severity: "error",
      message: "ANTHROPIC_API_KEY is not set, so climpt cannot reach the model.",
      hint: "export ANTHROPIC_API_KEY=… (ANTHROPIC_BASE_URL selects another endpoint), pass --mock SCRIPT to answer from a mock script, or --replay CASSETTE to run from a recording.",
    });
  }
  const maxTokens = numberValue(values, "maxTokens");
  const maxCostUsd = numberValue(values, "maxCost");
  const maxWallClockMs = numberValue(values, "maxTime");
  const waits = modelWaitsFromFlags(values, io.env);
  problems.push(...waits.problems);
  const model = stringValue(values, "model");
  const maxIterations = numberValue(values, "maxIterations");
  const worktree = booleanValue(values, "worktree");
  const worktreeOptions = worktreeOptionsFromFlags(values);
  return {
    problems,
    ...(mockScript === undefined ? {} : { mockScript }),
    options: {
      ...(model === undefined ? {} : { model }),
      ...(maxIterations === undefined ? {} : { maxIterations }),
      ...(maxTokens === undefined && maxCostUsd === undefined && maxWallClockMs === undefined
        ? {}
        : {
            budgets: {
              ...(maxTokens === undefined ? {} : { maxTokens }),
              ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
              ...(maxWallClockMs === undefined ? {} : { maxWallClockMs }),
            },
          }),
      ...waits.waits,
      ...(worktree === undefined ? {} : { worktree }),
      ...(Object.keys(worktreeOptions).length === 0 ? {} : { worktreeOptions }),
      ...(replayPath === undefined ? {} : { replay: replayPath }),
      ...(record === undefined ? {} : { record: path.resolve(io.cwd, record) }),
    },
  };
}

/**
 * `--branch`, `--base-branch`, `--[no-]merge`, `--push`, `--push-remote`, `--create-pr`,
 * `--pr-target`: each given one overrides agent.json's `worktree` section. A flag an agent
 * parameter has taken (the original's agents declare `--base-branch`) is read by `climpt run`
 * from that parameter instead.
 */
export function worktreeOptionsFromFlags(values: ParsedFlags["values"]): WorktreeRunOptions {
  const branch = stringValue(values, "branch");
  const baseBranch = stringValue(values, "baseBranch");
  const merge = booleanValue(values, "merge");
  const push = booleanValue(values, "push");
  const remote = stringValue(values, "pushRemote");
  const createPr = booleanValue(values, "createPr");
  const prTarget = stringValue(values, "prTarget");
  return {
    ...(branch === undefined ? {} : { branch }),
    ...(baseBranch === undefined ? {} : { baseBranch }),
    ...(merge === undefined ? {} : { merge }),
    ...(push === undefined ? {} : { push }),
    ...(remote === undefined ? {} : { remote }),
    ...(createPr === undefined ? {} : { createPr }),
    ...(prTarget === undefined ? {} : { prTarget }),
  };
}

/** Run flags an agent parameter of the same flag name takes over. */
export const YIELDING_FLAG_KEYS: ReadonlySet<string> = new Set(["resume", "branch", "baseBranch"]);

/**
 * `--branch` / `--base-branch` given to a parameter that took the flag: the parameter's value
 * also names the worktree's branch, as in the original runtime.
 */
export function branchesFromParameters(
  parameters: Readonly<Record<string, AgentParameter>>,
  args: Readonly<Record<string, JsonValue>>,
  runFlags: readonly FlagSpec[],
): { branch?: string; baseBranch?: string } {
  const out: { branch?: string; baseBranch?: string } = {};
  for (const [key, flag] of [
    ["branch", "branch"],
    ["baseBranch", "base-branch"],
  ] as const) {
    if (runFlags.some((spec) => spec.key === key)) continue;
    const parameter = Object.values(parameters).find(
      (candidate) => candidate.cli.replace(/^-+/, "") === flag,
    );
    const value = parameter === undefined ? undefined : ownEntry(args, parameter.name);
    if (typeof value === "string" && value !== "") out[key] = value;
  }
  return out;
}
