/**
 * The agent's command boundary hook (`boundaryHook.command`, docs/design.md#the-boundary-hook):
 * one shell command after validated completion. It is the agent author's command, but it runs in
 * the working directory after the model's steps, so it runs what the model left there
 * (`npm run deploy` runs the model's `package.json`, `./scripts/release.sh` a script the model may
 * have rewritten). The runner therefore passes a launcher — the OS sandbox Bash and the validators
 * run in, with a closure step's `gh` rights through the broker and only the secret variables the
 * hook declares (`env`); without one (the agent turned the sandbox off) it runs on the host.
 */
import type { CommandBoundaryHook } from "@climpt/model";
import type { CommandLaunch, LaunchRequest } from "@climpt/validators";
import {
  type CommandOutcome,
  type CommandRunner,
  createExecaCommandRunner,
} from "../command-runner.ts";
import type { BoundaryRequest } from "./boundary-request.ts";

/** A command prepared for the sandbox, and what its `gh` calls recorded. */
export interface HookCommandLaunch extends CommandLaunch {
  /**
   * The closes, merges and label changes the command's `gh` calls recorded (a closure step's
   * rights), complete once the command has ended; the hook performs them when it exits 0.
   */
  boundaryRequests(): readonly BoundaryRequest[];
}

/**
 * Prepares the hook's command (`sh -c launch.command` with exactly `launch.env`). May throw when
 * it cannot (the sandbox cannot start): the hook then fails as a command that could not start.
 */
export type HookCommandLauncher = (
  command: string,
  request: LaunchRequest,
) => Promise<HookCommandLaunch>;

export interface CommandHookOptions {
  readonly cwd: string;
  /** The hook's own variables (`CLIMPT_RUN_ID`, `CLIMPT_RESULT_JSON`, …): not secret. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Runs the command on the host when there is no launcher. */
  readonly runner: CommandRunner;
  readonly launch?: HookCommandLauncher | undefined;
}

export interface CommandHookRun {
  readonly outcome: CommandOutcome;
  /** What the command's `gh` calls recorded; none on the host, where gh acts at once. */
  readonly boundaryRequests: readonly BoundaryRequest[];
}

/** Runs a launch with exactly its environment: nothing of this process's leaks into bubblewrap. */
const runWithLaunchEnv = createExecaCommandRunner({ env: {} });

export async function runCommandHook(
  hook: CommandBoundaryHook,
  options: CommandHookOptions,
): Promise<CommandHookRun> {
  const run = {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  if (options.launch === undefined) {
    const outcome = await options.runner("sh", ["-c", hook.command], { ...run, env: options.env });
    return { outcome, boundaryRequests: [] };
  }
  let launch: HookCommandLaunch;
  try {
    launch = await options.launch(hook.command, {
      cwd: options.cwd,
      declaredEnv: hook.env ?? [],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      outcome: {
        exitCode: 1,
        stdout: "",
        stderr: `The command did not run: it runs inside the OS sandbox, and ${why}`,
      },
      boundaryRequests: [],
    };
  }
  try {
    const outcome = await runWithLaunchEnv("sh", ["-c", launch.command], {
      ...run,
      env: { ...launch.env, ...options.env },
    });
    return { outcome, boundaryRequests: launch.boundaryRequests() };
  } finally {
    await launch.release();
  }
}
