import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type {
  SandboxManager as SandboxManagerApi,
  SandboxRuntimeConfig,
} from "@anthropic-ai/sandbox-runtime";
import { loadSandboxRuntime } from "../lazy-modules.ts";
import { bindToProcessLife, type ReleaseBinding } from "../lifetime/process-life.ts";
import { runShell } from "../run-shell.ts";
import { bindRuntimeHelpers } from "./runtime-helpers.ts";
import {
  probeRemembered,
  rememberProbe,
  sandboxFingerprint,
  sandboxProbeCacheFile,
} from "./sandbox-probe-cache.ts";
import { locateSandboxPrograms, missingProgramsText, retryLookupMiss } from "./sandbox-programs.ts";

/** What one sandboxed command may touch. Every path is absolute (the library's `.` is process.cwd()). */
export interface SandboxPolicy {
  /** Directories the command may write (the working directory, its private HOME, …). */
  readonly writable: readonly string[];
  /** Paths inside `writable` that stay read-only (`.git/config`, `.git/hooks`). */
  readonly readOnly: readonly string[];
  /** Paths hidden from the command (the user's home directory, gh's config). */
  readonly hidden: readonly string[];
  /** Paths under `hidden` the command may read again (toolchains, the working directory). */
  readonly readable: readonly string[];
  /** Host names the command may reach through the sandbox's proxy. Empty: no network. */
  readonly networkAllow: readonly string[];
}

export type SandboxProbe = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** A command wrapped for the sandbox: run `command` with `sh -c`, then call `release` once. */
export interface WrappedCommand {
  readonly command: string;
  release(): void;
}

/** How long the proxies stay up after the last sandboxed command, for the next one. */
const IDLE_RESET_MS = 1000;
const PROBE_TIMEOUT_MS = 30_000;

let initialized: Promise<void> | undefined;
let resetting: Promise<void> | undefined;
let active = 0;
let idleTimer: NodeJS.Timeout | undefined;
const allowCounts = new Map<string, number>();
let probe: Promise<SandboxProbe> | undefined;
/** Ends the binding of the runtime's bridges and sockets to this process's life (after reset). */
let unbindHelpers: ReleaseBinding | undefined;
/** The library, once loaded (it is imported on first use, see lazy-modules.ts). */
let manager: typeof SandboxManagerApi | undefined;

async function loadManager(): Promise<typeof SandboxManagerApi> {
  manager ??= (await loadSandboxRuntime()).SandboxManager;
  return manager;
}

/** The library where it must already be loaded: after `ensureInitialized`. */
function loadedManager(): typeof SandboxManagerApi {
  if (manager === undefined) throw new Error("The sandbox runtime was used before it was loaded.");
  return manager;
}

/**
 * bubblewrap and socat as found on PATH when the runtime last started: given their paths, the
 * runtime checks that they are executable instead of running `which` for them
 * (sandbox-programs.ts says why). Looked up once per start, not per command.
 */
let programPaths: { readonly bwrap?: string; readonly socat?: string } = {};

function runtimeConfig(networkAllow: readonly string[]): SandboxRuntimeConfig {
  const paths = programPaths;
  return {
    // The proxies only ever allow what a running command's policy allows; nothing asks a user.
    network: { allowedDomains: [...networkAllow], deniedDomains: [], strictAllowlist: true },
    filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] },
    ...(paths.bwrap === undefined ? {} : { bwrapPath: paths.bwrap }),
    ...(paths.socat === undefined ? {} : { socatPath: paths.socat }),
  };
}

async function ensureInitialized(): Promise<void> {
  const SandboxManager = await loadManager();
  if (idleTimer !== undefined) {
    clearTimeout(idleTimer);
    idleTimer = undefined;
  }
  if (resetting !== undefined) await resetting;
  if (initialized === undefined) {
    const before = {
      SIGINT: new Set(process.listeners("SIGINT")),
      SIGTERM: new Set(process.listeners("SIGTERM")),
    };
    programPaths = locateSandboxPrograms().paths;
    // The runtime checks its programs again here, ripgrep by its own `which`.
    initialized = retryLookupMiss(() =>
      SandboxManager.initialize(runtimeConfig([...allowCounts.keys()])),
    )
      .then(() => {
        // Its socat bridges and sockets outlive a `kill -9` of this process unless bound.
        unbindHelpers = bindRuntimeHelpers(SandboxManager);
        // The library stops its proxies on SIGINT/SIGTERM with a listener of its own, and a
        // listener replaces Node's default "exit on Ctrl-C". The caller decides what a signal
        // does; the proxies are stopped on exit (the library's exit hook) or when idle.
        for (const signal of ["SIGINT", "SIGTERM"] as const) {
          for (const listener of process.listeners(signal)) {
            if (!before[signal].has(listener)) process.removeListener(signal, listener);
          }
        }
      })
      .catch((error: unknown) => {
        initialized = undefined;
        throw error;
      });
  }
  await initialized;
}

function updateNetwork(): void {
  loadedManager().updateConfig(runtimeConfig([...allowCounts.keys()]));
}

function scheduleIdleReset(): void {
  if (active > 0 || initialized === undefined) return;
  idleTimer = setTimeout(() => {
    idleTimer = undefined;
    if (active > 0) return;
    initialized = undefined;
    const unbind = unbindHelpers;
    unbindHelpers = undefined;
    resetting = loadedManager()
      .reset()
      .catch(() => undefined)
      .finally(() => {
        resetting = undefined;
        unbind?.();
      });
  }, IDLE_RESET_MS);
  idleTimer.unref();
}

/**
 * Inside the sandbox the runtime starts its two proxy bridges (`socat` listening on 3128 for HTTP
 * and 1080 for SOCKS) in the background and runs the command at once, without waiting for them to
 * listen: on a busy machine a command's first request then finds nothing on 3128 ("Failed to
 * connect to localhost port 3128") although its host is allowed. A command that may use the network
 * first waits, bounded, until both ports listen in its network namespace (`/proc/net/tcp`: local
 * port in hex, state 0A = LISTEN). If they never do (10 s), it runs anyway and fails as before.
 */
const PROXY_READY_WAIT = [
  "__climpt_wait=0",
  "while [ $__climpt_wait -lt 1000 ] && ! { grep -q ':0C38 00000000:0000 0A' /proc/net/tcp && grep -q ':0438 00000000:0000 0A' /proc/net/tcp; } 2>/dev/null; do sleep 0.01; __climpt_wait=$((__climpt_wait + 1)); done",
  "unset __climpt_wait",
].join("\n");

/** The command as the sandbox runs it: after the proxy bridges listen when it may use the network. */
export function withProxyReadyWait(command: string, networkAllow: readonly string[]): string {
  return networkAllow.length === 0 ? command : `${PROXY_READY_WAIT}\n${command}`;
}

/**
 * Wraps a shell command for the OS sandbox (bubblewrap on Linux, through
 * `@anthropic-ai/sandbox-runtime`). The library keeps one set of proxies per process; the
 * network allow list they enforce is the union of the lists of the commands running at that
 * moment, so two concurrent commands with different lists each reach the other's hosts. A command
 * has no network interface of its own (a separate network namespace): it reaches hosts only
 * through the proxy, which refuses every host not on the list.
 */
export async function wrapForSandbox(
  command: string,
  policy: SandboxPolicy,
  options: { readonly commandId: string; readonly signal?: AbortSignal },
): Promise<WrappedCommand> {
  active++;
  for (const host of policy.networkAllow) allowCounts.set(host, (allowCounts.get(host) ?? 0) + 1);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    active--;
    for (const host of policy.networkAllow) {
      const count = (allowCounts.get(host) ?? 1) - 1;
      if (count <= 0) allowCounts.delete(host);
      else allowCounts.set(host, count);
    }
    if (initialized !== undefined) {
      loadedManager().cleanupAfterCommand();
      updateNetwork();
    }
    scheduleIdleReset();
  };
  try {
    await ensureInitialized();
    if (policy.networkAllow.length > 0) updateNetwork();
    // The runtime looks the shell up with its own `which` at every wrap.
    const wrapped = await retryLookupMiss(() =>
      withNeutralCwd(() =>
        loadedManager().wrapWithSandbox(
          withProxyReadyWait(command, policy.networkAllow),
          "sh",
          {
            network: { allowedDomains: [...policy.networkAllow], deniedDomains: [] },
            filesystem: {
              denyRead: [...policy.hidden],
              allowRead: [...policy.readable],
              allowWrite: [...policy.writable],
              denyWrite: [...policy.readOnly],
            },
          },
          options.signal,
          { commandId: options.commandId },
        ),
      ),
    );
    return { command: wrapped, release };
  } catch (error) {
    release();
    throw error;
  }
}

let neutralDir: string | undefined;
let wrapQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs the library's wrap with `process.cwd()` reporting an empty private directory. The library
 * adds write protection for shell and editor files (`.bashrc`, `.gitconfig`, `.mcp.json`, …)
 * found relative to `process.cwd()`, and for the absent ones bubblewrap creates `/dev/null`
 * placeholders in the host directory while the command runs: when climpt runs in the working
 * directory, `git add -A` inside then fails on a character device named `.bash_profile`. This
 * package passes every path it protects explicitly (`.git/config`, `.git/hooks`), so the
 * library's guess from the process's directory is pointed at a directory nobody writes. Only
 * `process.cwd` is replaced (the real working directory is not changed), wraps are serialised,
 * and the replacement lasts for the wrap alone; relative paths resolved elsewhere in the process
 * during those milliseconds would resolve against the empty directory.
 */
async function withNeutralCwd<T>(wrap: () => Promise<T>): Promise<T> {
  if (neutralDir === undefined) {
    const made = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-sandbox-cwd-")));
    neutralDir = made;
    // Removed by the watchdog when this process ends any other way (kill -9).
    bindToProcessLife({ kind: "path", path: made });
    // One directory per process, kept for every wrap; without this each `climpt run` that ran a
    // command left one behind in the temporary folder. An `exit` handler must be synchronous,
    // and a failure to tidy up must not change how the process ends.
    process.once("exit", () => {
      try {
        rmSync(made, { recursive: true, force: true });
      } catch {
        // left behind, as before
      }
    });
  }
  const dir = neutralDir;
  const run = wrapQueue.then(async () => {
    const original = process.cwd;
    process.cwd = () => dir;
    try {
      return await wrap();
    } finally {
      process.cwd = original;
    }
  });
  wrapQueue = run.catch(() => undefined);
  return run;
}

/**
 * Whether the sandbox can run here: its programs are installed and a trivial command runs inside
 * it (user namespaces allowed). Checked once per process, and a success is remembered across
 * processes for as long as the machine's fingerprint holds (sandbox-probe-cache.ts).
 */
export function probeSandbox(): Promise<SandboxProbe> {
  probe ??= probeOrRemember();
  return probe;
}

async function probeOrRemember(): Promise<SandboxProbe> {
  const fingerprint = sandboxFingerprint();
  const cacheFile = sandboxProbeCacheFile();
  if (fingerprint !== undefined && probeRemembered(fingerprint, cacheFile)) return { ok: true };
  const result = await runProbe();
  if (result.ok && fingerprint !== undefined) rememberProbe(fingerprint, cacheFile);
  return result;
}

async function runProbe(): Promise<SandboxProbe> {
  const SandboxManager = await loadManager();
  if (!SandboxManager.isSupportedPlatform()) {
    return {
      ok: false,
      reason: `the OS sandbox does not support this platform (${process.platform}).`,
    };
  }
  // Whether the programs are there is decided by a look at PATH, never by the runtime's own
  // `which` with its one-second bound: under load that said "bwrap not installed" of a present
  // bubblewrap. The runtime's other checks run when it starts, in the wrap below.
  const { missing } = locateSandboxPrograms();
  if (missing.length > 0) {
    return { ok: false, reason: `${missingProgramsText(missing)}.` };
  }
  let wrapped: WrappedCommand;
  try {
    wrapped = await wrapForSandbox(
      "true",
      { writable: [], readOnly: [], hidden: [], readable: [], networkAllow: [] },
      { commandId: "climpt-sandbox-probe" },
    );
  } catch (error) {
    return { ok: false, reason: `the sandbox could not start: ${(error as Error).message}` };
  }
  try {
    const run = await runShell(wrapped.command, {
      cwd: "/",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      timeoutMs: PROBE_TIMEOUT_MS,
      outputCapBytes: 4000,
    });
    if (run.exitCode === 0) return { ok: true };
    const output = run.output.trim();
    return {
      ok: false,
      reason: `a test command in the sandbox failed (${run.timedOut ? "timed out" : `exit ${run.exitCode ?? run.signal}`})${output === "" ? "" : `: ${output}`}`,
    };
  } finally {
    wrapped.release();
  }
}

/**
 * Forgets the probe result, so the next `probeSandbox()` checks the machine again (tests that
 * change the machine between checks, e.g. a `PATH` without `bwrap`: the library looks the
 * programs up on `PATH` when the probe runs).
 * A success remembered on disk still counts while the machine's fingerprint (PATH's `bwrap`
 * included) is unchanged.
 */
export function resetSandboxProbe(): void {
  probe = undefined;
}
