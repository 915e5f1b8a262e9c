import { existsSync } from "node:fs";
import * as path from "node:path";
import type { Problem, StepExecutorName } from "@climpt/model";
import type { RunOptions } from "@climpt/runner";
import type { ParsedFlags } from "../args/parse-flags.ts";
import { CLI_CODES } from "../cli-codes.ts";
import type { CliIo } from "../cli-io.ts";
import { booleanValue, numberValue, stringValue } from "./command-line.ts";

/** The run options `climpt run` and `climpt resume` share, read from their flags. */
export interface FlagRunOptions {
  readonly options: Pick<
    RunOptions,
    "model" | "maxIterations" | "budgets" | "worktree" | "replay" | "record"
  >;
  /** A cassette that does not exist, or no way to reach the model. */
  readonly problems: readonly Problem[];
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
  if (
    executor === "messages" &&
    replay === undefined &&
    !io.env.ANTHROPIC_API_KEY &&
    !io.env.ANTHROPIC_AUTH_TOKEN
  ) {
    problems.push({
      code: CLI_CODES.noCredentials,
      severity: "error",
      message: "ANTHROPIC_API_KEY is not set, so climpt cannot reach the model.",
      hint: "export ANTHROPIC_API_KEY=… (ANTHROPIC_BASE_URL selects another endpoint), or pass --replay CASSETTE to run from a recording.",
    });
  }
  const maxTokens = numberValue(values, "maxTokens");
  const maxCostUsd = numberValue(values, "maxCost");
  const maxWallClockMs = numberValue(values, "maxTime");
  const model = stringValue(values, "model");
  const maxIterations = numberValue(values, "maxIterations");
  const worktree = booleanValue(values, "worktree");
  return {
    problems,
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
      ...(worktree === undefined ? {} : { worktree }),
      ...(replayPath === undefined ? {} : { replay: replayPath }),
      ...(record === undefined ? {} : { record: path.resolve(io.cwd, record) }),
    },
  };
}
