import { resetStatBuffer } from "@climpt/host-git";
import { ClimptError, type Problem, type Step, type StepExecutorName } from "@climpt/model";
import type { StepExecutor } from "@climpt/runner";
import { CLI_CODES } from "./cli-codes.ts";
import { installCommand } from "./install-command.ts";

/** The executor a run uses: `--executor` wins over agent.json's `runner.flow.executor`. */
export function chooseExecutor(
  flag: string | undefined,
  fromAgent: StepExecutorName | undefined,
): StepExecutorName {
  if (flag === "messages" || flag === "claude-code") return flag;
  return fromAgent ?? "messages";
}

/** Why a chosen executor cannot run with the other flags (record and replay need the default). */
export function executorConflicts(
  executor: StepExecutorName,
  flags: { readonly replay: boolean; readonly record: boolean },
): Problem[] {
  if (executor !== "claude-code") return [];
  const given = [flags.replay ? "--replay" : undefined, flags.record ? "--record" : undefined]
    .filter((flag): flag is string => flag !== undefined)
    .join(" and ");
  if (given === "") return [];
  return [
    {
      code: CLI_CODES.conflict,
      severity: "error",
      message: `${given} cannot be used with the claude-code executor: Claude Code makes its own model requests, which a cassette cannot record or serve.`,
      hint: `Drop ${given}, or run with --executor messages.`,
    },
  ];
}

/** The run's step executor, and how to let go of what it holds between steps. */
export type RunStepExecutor = StepExecutor & { close?(): void };

export type LoadedExecutor =
  | { readonly ok: true; readonly executor: RunStepExecutor | undefined }
  | { readonly ok: false; readonly problem: Problem };

function isModuleMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/**
 * The step executor for the run: undefined for `messages` (the runner's default), else the
 * Claude Code executor. @climpt/claude-code (the Agent SDK and its Claude Code binary) is
 * imported only here, only when chosen, so a default run never loads it. A missing package or
 * binary is a coded problem before the run starts, not a failed first step. With the run's
 * `steps`, the Claude Code executor starts the next step's session while the runner checks and
 * routes (its README, "Warm start"); the caller closes it when the run is over.
 */
export async function loadStepExecutor(
  executor: StepExecutorName,
  env: Readonly<Record<string, string | undefined>>,
  onStderr?: (text: string) => void,
  cwd: string = process.cwd(),
  steps?: Readonly<Record<string, Step>>,
): Promise<LoadedExecutor> {
  if (executor === "messages") return { ok: true, executor: undefined };
  let claudeCode: typeof import("@climpt/claude-code");
  try {
    // In the same tick as the import's resolution (@climpt/host-git's stat-buffer.ts says why).
    resetStatBuffer();
    claudeCode = await import("@climpt/claude-code");
  } catch (error) {
    if (!isModuleMissing(error)) throw error;
    return {
      ok: false,
      problem: {
        code: CLI_CODES.executorMissing,
        severity: "error",
        message: "The claude-code executor needs @climpt/claude-code, which is not installed.",
        hint: `Install @climpt/claude-code next to climpt (it brings the Claude Agent SDK and its Claude Code binary; run: ${installCommand(["@climpt/claude-code"], cwd, env)}), or run with --executor messages.`,
      },
    };
  }
  try {
    claudeCode.findClaudeCodeBinary();
  } catch (error) {
    if (!ClimptError.isInstance(error)) throw error;
    return { ok: false, problem: error.toProblem() };
  }
  return {
    ok: true,
    executor: claudeCode.createClaudeCodeStepExecutor(
      { env, ...(onStderr === undefined ? {} : { onStderr }) },
      steps === undefined ? {} : { steps },
    ),
  };
}
