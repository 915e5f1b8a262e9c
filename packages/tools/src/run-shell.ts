import { loadExeca } from "./lazy-modules.ts";
import { bindToProcessLife, type ReleaseBinding } from "./lifetime/process-life.ts";
import { tailBytes, trimIncompleteEnd } from "./text-cap.ts";

export interface ShellRunOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly outputCapBytes: number;
  readonly signal?: AbortSignal;
  /** After SIGTERM, how long the process group gets before SIGKILL. */
  readonly killGraceMs?: number;
}

export interface ShellRun {
  /** stdout and stderr interleaved, capped (start and end kept). */
  readonly output: string;
  readonly omittedBytes: number;
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Set when `sh` itself could not be started. */
  readonly spawnError?: string;
}

/** Process groups still running, killed if this process exits while a command runs. */
const activeGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Runs `sh -c command` in its own process group, so everything it starts (pipelines, background
 * jobs, `sh -c` inside `sh -c`) can be killed at once: on timeout, on abort, and when the shell
 * exits while children it left behind still run. A child that moves itself to another session
 * (`setsid`) escapes the group and may keep the output pipes open: once the shell is gone (or
 * the group was killed) the output gets `killGraceMs` more to drain, then the pipes are closed
 * and the call returns. Inside the sandbox such a child dies with the sandbox's PID namespace.
 */
export async function runShell(command: string, options: ShellRunOptions): Promise<ShellRun> {
  const { execa } = await loadExeca();
  if (options.signal?.aborted) {
    return {
      output: "",
      omittedBytes: 0,
      exitCode: undefined,
      signal: undefined,
      timedOut: false,
      aborted: true,
    };
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const pgid of activeGroups) killGroup(pgid, "SIGKILL");
    });
  }

  const subprocess = execa("sh", ["-c", command], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    detached: true,
    stdin: "ignore",
    all: true,
    buffer: false,
    reject: false,
    encoding: "buffer",
  });

  const collector = new OutputCollector(options.outputCapBytes);
  subprocess.all?.on("data", (chunk: Buffer | string) => collector.add(chunk));

  const pid = subprocess.pid;
  // Bound to this process's life at once: a climpt killed by `kill -9` while the command runs
  // takes the command's group with it (the exit hook above covers every other way out).
  const unbind: ReleaseBinding | undefined =
    pid === undefined ? undefined : bindToProcessLife({ kind: "process-group", pgid: pid });
  let timedOut = false;
  let aborted = false;
  const graceMs = options.killGraceMs ?? 2000;
  const timers: NodeJS.Timeout[] = [];
  let escalation: NodeJS.Timeout | undefined;
  let closing: NodeJS.Timeout | undefined;
  // Output still open after the shell is gone belongs to an escaped process: stop waiting for it.
  const stopWaitingForOutput = (): void => {
    closing ??= setTimeout(() => {
      subprocess.all?.destroy();
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
    }, graceMs);
    timers.push(closing);
  };
  const terminate = (): void => {
    if (pid === undefined) return;
    killGroup(pid, "SIGTERM");
    if (escalation === undefined) {
      escalation = setTimeout(() => {
        killGroup(pid, "SIGKILL");
        stopWaitingForOutput();
      }, graceMs);
      timers.push(escalation);
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    terminate();
  }, options.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    terminate();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (pid !== undefined) {
    activeGroups.add(pid);
    // The shell is done; whatever it left running in its group goes too, so its pipes close.
    subprocess.once("exit", () => {
      terminate();
      stopWaitingForOutput();
    });
  }

  try {
    const result = await subprocess;
    const { text, omittedBytes } = collector.result();
    const spawnFailed =
      pid === undefined || (result.failed && result.exitCode === undefined && !result.isTerminated);
    return {
      output: text,
      omittedBytes,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut,
      aborted,
      ...(spawnFailed ? { spawnError: result.shortMessage } : {}),
    };
  } finally {
    clearTimeout(timer);
    for (const pending of timers) clearTimeout(pending);
    options.signal?.removeEventListener("abort", onAbort);
    if (pid !== undefined) {
      activeGroups.delete(pid);
      // The command is over: anything of its group still there (a child that ignored SIGTERM
      // while the escalation timer was cleared above) goes now, before the binding does.
      killGroup(pid, "SIGKILL");
    }
    unbind?.();
  }
}

/** Keeps the first 40% and the last 60% of the cap; counts what falls in between. */
class OutputCollector {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly capBytes: number) {}

  add(chunk: Buffer | string): void {
    let buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    this.total += buffer.length;
    const headRoom = Math.floor(this.capBytes * 0.4) - this.headBytes;
    if (headRoom > 0) {
      const part = buffer.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      buffer = buffer.subarray(part.length);
    }
    if (buffer.length === 0) return;
    this.tail.push(buffer);
    this.tailBytes += buffer.length;
    // Drop whole chunks from the front while the rest still fills the tail budget.
    const tailBudget = this.capBytes - Math.floor(this.capBytes * 0.4);
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0]?.length ?? 0) >= tailBudget) {
      this.tailBytes -= this.tail.shift()?.length ?? 0;
    }
  }

  result(): { text: string; omittedBytes: number } {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (this.total <= this.capBytes) {
      return { text: Buffer.concat([head, tail]).toString("utf8"), omittedBytes: 0 };
    }
    const keptHead = trimIncompleteEnd(head);
    const keptTail = tailBytes(tail, this.capBytes - keptHead.length);
    const omittedBytes = this.total - keptHead.length - keptTail.length;
    return {
      text: `${keptHead.toString("utf8")}\n[… ${omittedBytes} bytes of output omitted …]\n${keptTail.toString("utf8")}`,
      omittedBytes,
    };
  }
}
