import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { WATCHDOG_MARKER, WATCHDOG_SOURCE } from "./watchdog-source.ts";

/**
 * Something this process started that must not outlive it: a process group (a Bash command and
 * everything it started), one process (a helper the sandbox library spawned), or a path (a
 * folder made for one command).
 */
export type LifeBoundResource =
  | { readonly kind: "process-group"; readonly pgid: number }
  | { readonly kind: "process"; readonly pid: number }
  | { readonly kind: "path"; readonly path: string };

/** Ends the binding: the resource is gone (or now the caller's to keep). Idempotent. */
export type ReleaseBinding = () => void;

interface Registration {
  readonly kind: "group" | "process" | "path";
  readonly id: number | string;
  readonly start?: string | undefined;
}

/** The registrations in force, so a watchdog started again can be told all of them. */
const live = new Map<number, Registration>();
let nextKey = 0;
let watchdog: ChildProcess | undefined;

/**
 * Binds a resource to this process's life: whatever way the process ends — a normal exit, an
 * uncaught error, Ctrl-C, or `kill -9`, which no handler of its own survives — the resource
 * goes with it: a process group or process is killed (SIGKILL), a path removed (recursively,
 * never following links). Returns the release to call once the resource is gone by itself.
 *
 * The guarantee is a watchdog: one small Node process per process that binds anything, started
 * on first use in a session of its own (so a signal to this process's group or terminal does
 * not reach it), holding a pipe from this process and nothing else. The kernel closes the pipe
 * when this process ends, however it ends; the watchdog then acts and exits. Cost per binding:
 * one line written to the pipe. Linux and macOS; elsewhere (no process groups) nothing is bound.
 */
export function bindToProcessLife(resource: LifeBoundResource): ReleaseBinding {
  if (process.platform === "win32") return () => undefined;
  const registration = registrationOf(resource);
  const key = nextKey++;
  // Started (and told what is already bound) before this one joins the list, so it is sent once.
  ensureWatchdog();
  live.set(key, registration);
  send("add", registration);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    live.delete(key);
    send("drop", registration);
  };
}

/** The watchdog's pid while it runs (for tests and diagnostics). */
export function processLifeWatchdogPid(): number | undefined {
  return watchdog?.exitCode === null ? watchdog.pid : undefined;
}

function registrationOf(resource: LifeBoundResource): Registration {
  switch (resource.kind) {
    case "process-group":
      return { kind: "group", id: resource.pgid, start: startTimeOf(resource.pgid) };
    case "process":
      return { kind: "process", id: resource.pid, start: startTimeOf(resource.pid) };
    case "path":
      return { kind: "path", id: resource.path };
  }
}

/**
 * A process's start time since boot in clock ticks (/proc/<pid>/stat field 22), or undefined
 * without /proc. With it the watchdog tells our process from a later one given the same pid.
 */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function send(op: "add" | "drop", registration: Registration): void {
  const running = ensureWatchdog();
  if (running === undefined) return;
  // A write to a pipe whose reader is alive is in the kernel's buffer when this returns (Node
  // writes to a pipe at once when nothing is queued), so a registration made just before a
  // kill -9 still reaches the watchdog.
  running.stdin?.write(`${JSON.stringify({ op, ...registration })}\n`);
}

function ensureWatchdog(): ChildProcess | undefined {
  if (watchdog !== undefined && watchdog.exitCode === null && watchdog.signalCode === null) {
    return watchdog;
  }
  let started: ChildProcess;
  try {
    started = spawn(process.execPath, ["-e", WATCHDOG_SOURCE, WATCHDOG_MARKER, `${process.pid}`], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      // Nothing of ours: no credentials in its environment, no folder of ours held open.
      env: {},
      cwd: "/",
    });
  } catch {
    return undefined;
  }
  watchdog = started;
  started.unref();
  const stdin = started.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null;
  stdin?.unref?.();
  // A watchdog that died (killed on its own) is started again at the next binding, and told
  // every binding still in force then; meanwhile writes to its pipe fail quietly.
  stdin?.on("error", () => undefined);
  started.on("error", () => undefined);
  for (const registration of live.values()) {
    stdin?.write(`${JSON.stringify({ op: "add", ...registration })}\n`);
  }
  return started;
}
