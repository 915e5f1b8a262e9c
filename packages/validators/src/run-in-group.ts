import type { CommandLaunch } from "./command-launcher.ts";
import type { loadExeca } from "./lazy-execa.ts";
import type { CappedOutput } from "./output-capture.ts";

type Execa = Awaited<ReturnType<typeof loadExeca>>["execa"];

export interface GroupRunOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Time between SIGTERM and SIGKILL, and how long output may stay open after the group went. */
  readonly graceMs: number;
  readonly stdout: CappedOutput;
  readonly stderr: CappedOutput;
  readonly signal?: AbortSignal;
}

export interface GroupRun {
  /** execa's result (`reject: false`): exit code, signal, or why the shell did not start. */
  readonly result: {
    readonly exitCode?: number | undefined;
    readonly signal?: string | undefined;
    readonly shortMessage?: string | undefined;
  };
  readonly timedOut: boolean;
  readonly aborted: boolean;
}

// Process groups still running, killed if this process exits first: a validator's children are
// in their own group (detached), so nothing else would stop them.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const group of liveGroups) killGroup(group, "SIGKILL");
    });
  }
}

/**
 * Runs a launched command (`sh -c <launch.command>` with exactly `launch.env`) in its own process
 * group, reading both streams into their caps. The timeout and an abort stop the whole group
 * (SIGTERM, then SIGKILL after the grace period); when the shell exits, whatever it left in its
 * group goes too. A sandboxed launch is bubblewrap inside that group, so killing the group ends the
 * sandbox's PID namespace with everything in it. The launch is released once the command is done.
 */
export async function runInGroup(
  execa: Execa,
  launch: CommandLaunch,
  options: GroupRunOptions,
): Promise<GroupRun> {
  const timers: NodeJS.Timeout[] = [];
  let pid: number | undefined;
  let timedOut = false;
  let aborted = false;
  const onAbort = (): void => {
    aborted = true;
    stopGroup();
  };
  const { graceMs } = options;
  let subprocess: ReturnType<Execa> | undefined;
  // A process that left the group (setsid) can keep the pipes open after everything else is
  // gone; past the grace period the output is taken as complete and the pipes are closed.
  const stopWaitingForOutput = (): void => {
    const deadline = setTimeout(() => {
      subprocess?.stdout?.destroy();
      subprocess?.stderr?.destroy();
    }, graceMs);
    deadline.unref();
    timers.push(deadline);
  };
  const stopGroup = (): void => {
    if (pid === undefined) return;
    const group = pid;
    killGroup(group, "SIGTERM");
    const force = setTimeout(() => {
      killGroup(group, "SIGKILL");
      stopWaitingForOutput();
    }, graceMs);
    force.unref();
    timers.push(force);
  };
  try {
    const started = execa("sh", ["-c", launch.command], {
      cwd: options.cwd,
      env: { ...launch.env },
      extendEnv: false,
      stdin: "ignore",
      buffer: false,
      reject: false,
      // Its own process group, so a timeout can stop the shell and everything it started.
      detached: true,
      cleanup: false,
    });
    subprocess = started;
    pid = started.pid;
    if (pid !== undefined) {
      const group = pid;
      trackGroup(group);
      // Once the shell is gone, whatever it left running in its group (`cmd &`) is stopped too:
      // a validator checks, it does not launch daemons, and a leftover would hold the pipes open.
      started.once("exit", () => {
        killGroup(group, "SIGKILL");
        stopWaitingForOutput();
      });
    }
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stopGroup();
      }, options.timeoutMs),
    );
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const [result] = await Promise.all([
      started,
      options.stdout.attach(started.stdout),
      options.stderr.attach(started.stderr),
    ]);
    return { result, timedOut, aborted };
  } finally {
    for (const pending of timers) clearTimeout(pending);
    options.signal?.removeEventListener("abort", onAbort);
    if (pid !== undefined) {
      killGroup(pid, "SIGKILL");
      liveGroups.delete(pid);
    }
    await launch.release();
  }
}
