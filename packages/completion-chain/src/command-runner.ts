import { loadExeca } from "./lazy-execa.ts";

export interface CommandRunOptions {
  readonly cwd: string;
  /** Added to (or, with `undefined`, removed from) the runner's base environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
  /**
   * Stop the command after this long; the outcome then has `timedOut: true`. Default: the
   * runner's `defaultTimeoutMs`, so no command (a `gh` that waits on a dead network, the
   * verdict's poll) waits forever.
   */
  readonly timeoutMs?: number;
}

export interface CommandOutcome {
  /** 127 when the program was not found, 126 when it could not be executed. */
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut?: boolean;
}

/**
 * How the verdicts and the boundary hook run external programs (`gh`, `sh -c …`). An argv
 * array, never a shell string, so issue numbers and labels cannot inject commands. Injected
 * so tests and embedders can use a fake `gh` or route calls elsewhere.
 */
export type CommandRunner = (
  command: string,
  args: readonly string[],
  options: CommandRunOptions,
) => Promise<CommandOutcome>;

export interface ExecaCommandRunnerOptions {
  /**
   * The environment every command starts from; default `process.env`. `ANTHROPIC_API_KEY` and
   * `ANTHROPIC_AUTH_TOKEN` are never passed on: a boundary command has no use for the model's
   * credentials, and a hook that prints its environment would leak them into the journal.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Bytes kept per stream; default 1 MiB (execa's `maxBuffer`). */
  readonly maxBufferBytes?: number;
  /** The bound of a command whose caller gives none. Default `DEFAULT_COMMAND_TIMEOUT_MS`. */
  readonly defaultTimeoutMs?: number;
}

/**
 * How long a command runs when its caller sets no timeout: five minutes, the validators' own
 * default. The callers that set none are `gh` calls (the `poll:state` verdict, the boundary
 * hook's close and label actions), which take seconds when the network answers at all.
 */
export const DEFAULT_COMMAND_TIMEOUT_MS: number = 5 * 60 * 1000;

const WITHHELD_ENV = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

function mergeEnv(
  base: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !WITHHELD_ENV.includes(key)) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

const KILL_GRACE_MS = 2000;

/**
 * The default `CommandRunner`, on execa: no shell of its own, no stdin, never rejects for an
 * exit code. Each command gets its own process group, so a timeout or an abort stops whatever
 * it started too (`sh -c "sleep 60"` would otherwise keep the output pipes open).
 */
export function createExecaCommandRunner(options: ExecaCommandRunnerOptions = {}): CommandRunner {
  return async (command, args, run) => {
    const { execa } = await loadExeca();
    const subprocess = execa(command, [...args], {
      cwd: run.cwd,
      env: mergeEnv(options.env ?? process.env, run.env),
      extendEnv: false,
      stdin: "ignore",
      reject: false,
      stripFinalNewline: false,
      maxBuffer: options.maxBufferBytes ?? 1024 * 1024,
      detached: true,
      cleanup: false,
    });
    const pid = subprocess.pid;
    let timedOut = false;
    const timers: NodeJS.Timeout[] = [];
    const stop = (): void => {
      if (pid === undefined) return;
      killGroup(pid, "SIGTERM");
      const force = setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS);
      force.unref();
      timers.push(force);
    };
    const timeoutMs = run.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, timeoutMs),
    );
    run.signal?.addEventListener("abort", stop, { once: true });
    // Once the program is gone, stop what it left behind in its group: a leftover holding the
    // pipes would keep this call from returning.
    if (pid !== undefined) subprocess.once("exit", () => killGroup(pid, "SIGKILL"));
    if (run.signal?.aborted) stop();
    const result = await subprocess;
    for (const timer of timers) clearTimeout(timer);
    run.signal?.removeEventListener("abort", stop);

    const stdout = typeof result.stdout === "string" ? result.stdout : "";
    const stderr = typeof result.stderr === "string" ? result.stderr : "";
    if (typeof result.exitCode === "number" && !timedOut) {
      return { exitCode: result.exitCode, stdout, stderr };
    }
    if (timedOut) {
      const note = `${command} timed out after ${timeoutMs} ms and was stopped`;
      return {
        exitCode: result.exitCode ?? 124,
        stdout,
        stderr: stderr === "" ? note : `${stderr}\n${note}`,
        timedOut: true,
      };
    }
    // No exit code: the program did not start (ENOENT, EACCES) or was killed. Report it the way
    // a shell would, so callers handle one shape.
    const errno = (result.cause as NodeJS.ErrnoException | undefined)?.code;
    const exitCode = errno === "ENOENT" ? 127 : errno === "EACCES" ? 126 : 1;
    const reason = result.shortMessage ?? `${command} did not run`;
    return { exitCode, stdout, stderr: stderr === "" ? reason : `${stderr}\n${reason}` };
  };
}
