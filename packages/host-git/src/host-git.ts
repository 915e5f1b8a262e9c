import { spawn, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import { HOST_GIT_CODES } from "./codes.ts";
import { type GitLayout, layoutDeparture } from "./git-layout.ts";
import { hostGitEnvironment } from "./host-git-env.ts";

/** A local git command's bound: a git waiting on a lock held elsewhere cannot hang a run. */
export const DEFAULT_HOST_GIT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export interface HostGitOptions {
  /** The caller's environment (identity, credential helpers, PATH). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where git runs (relative paths in `args` resolve here). Default: the layout's working tree. */
  readonly cwd?: string;
  /** Default 120 s; the process group is killed when it passes. */
  readonly timeoutMs?: number;
  /** What git reads on stdin; default nothing (stdin is closed). */
  readonly input?: string | Uint8Array | AsyncIterable<Uint8Array>;
  readonly signal?: AbortSignal;
  /** stdout and stderr are each kept up to this many bytes. Default 64 MiB. */
  readonly maxOutputBytes?: number;
  /** An index file other than the working tree's (`GIT_INDEX_FILE`), e.g. one to check. */
  readonly indexFile?: string;
}

export interface HostGitResult {
  readonly args: readonly string[];
  /**
   * Set when git was not run because the repository's git directory no longer matches the
   * layout (a `commondir` file appeared or changed: `layoutDeparture`).
   */
  readonly refused?: string;
  /** null when git did not exit by itself (timed out, aborted, killed, not started). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Why git could not be started (not installed, the folder is gone). */
  readonly spawnError?: string;
}

/**
 * A host git that did not succeed, as `GIT-HOST-002` (`GIT-HOST-004` when it was refused because
 * the git directory changed); `result` holds what it printed.
 */
export class HostGitError extends ClimptError {
  readonly result: HostGitResult;
  constructor(result: HostGitResult, where: string) {
    super(
      result.refused === undefined
        ? {
            code: HOST_GIT_CODES.commandFailed,
            message: `git ${result.args.join(" ")} ${describeFailure(result)} in ${where}${result.stderr.trim() === "" ? "" : `: ${result.stderr.trim()}`}.`,
            hint: "Run the same git command in that folder to see why; a held `.lock` file means another git is still running there.",
          }
        : {
            code: HOST_GIT_CODES.unexpectedLayout,
            message: `git ${result.args.join(" ")} was not run in ${where}: ${result.refused}`,
            hint: "Restore the file (remove a commondir in a repository's own .git; in a linked worktree's git directory it names the repository's common directory), then check the repository with `git fsck`.",
          },
    );
    this.name = "HostGitError";
    this.result = result;
  }
}

function environment(layout: GitLayout, options: HostGitOptions): Record<string, string> {
  const env = hostGitEnvironment(layout, options.env);
  return options.indexFile === undefined ? env : { ...env, GIT_INDEX_FILE: options.indexFile };
}

function describeFailure(result: HostGitResult): string {
  if (result.refused !== undefined) return `was not run (${result.refused})`;
  if (result.spawnError !== undefined) return `could not start (${result.spawnError})`;
  if (result.timedOut) return "timed out";
  if (result.aborted) return "was aborted";
  return `failed (exit ${result.exitCode ?? "by a signal"})`;
}

function collect(limit: number): { push(chunk: Buffer): void; text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk) {
      if (size >= limit) return;
      const kept = chunk.subarray(0, limit - size);
      chunks.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
}

async function feed(stdin: NodeJS.WritableStream, input: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of input) {
    if (!stdin.write(chunk)) {
      await new Promise<void>((resolve) => {
        stdin.once("drain", resolve);
        stdin.once("close", resolve);
      });
    }
  }
  stdin.end();
}

/**
 * Runs git on the host in `layout` with the fixed configuration of `hostGitEnvironment`, in its
 * own process group, which is killed on timeout or abort. Never rejects: the result says how git
 * ended (`hostGit` turns a failure into `GIT-HOST-002`).
 */
export function runHostGit(
  layout: GitLayout,
  args: readonly string[],
  options: HostGitOptions = {},
): Promise<HostGitResult> {
  const refused = layoutDeparture(layout);
  if (refused !== undefined) return Promise.resolve(refusedResult(args, refused));
  return spawnGit(args, options.cwd ?? layout.workTree, environment(layout, options), options);
}

function refusedResult(args: readonly string[], refused: string): HostGitResult {
  return { args, exitCode: null, stdout: "", stderr: "", timedOut: false, aborted: false, refused };
}

function spawnGit(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  options: HostGitOptions,
): Promise<HostGitResult> {
  const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stdout = collect(limit);
  const stderr = collect(limit);
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const child = spawn("git", [...args], {
      cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs ?? DEFAULT_HOST_GIT_TIMEOUT_MS);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    if (options.signal?.aborted === true) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (exitCode: number | null, spawnError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({
        args,
        exitCode: timedOut || aborted ? null : exitCode,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        aborted,
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    };
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => finish(null, error.message));
    child.on("close", (code) => finish(code));
    // git may exit before reading everything (a refused pack): that is its answer, not ours.
    child.stdin.on("error", () => undefined);
    const input = options.input;
    if (input === undefined) child.stdin.end();
    else if (typeof input === "string" || input instanceof Uint8Array) child.stdin.end(input);
    else feed(child.stdin, input).catch(() => child.stdin.destroy());
  });
}

/**
 * Runs git outside any repository (`git config --global --get user.name`): in the system's
 * temporary folder with discovery stopped above it, so no repository's files are read, under the
 * same fixed configuration and bounds.
 */
export function runGitOutsideRepository(
  args: readonly string[],
  options: Omit<HostGitOptions, "cwd" | "indexFile"> = {},
): Promise<HostGitResult> {
  const cwd = tmpdir();
  const nowhere: GitLayout = { workTree: cwd, gitDir: cwd, commonDir: cwd, dotGit: "directory" };
  const env = hostGitEnvironment(nowhere, options.env);
  for (const name of ["GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE"]) delete env[name];
  return spawnGit(args, cwd, { ...env, GIT_CEILING_DIRECTORIES: path.dirname(cwd) }, options);
}

/** `runHostGit` for callers that cannot wait asynchronously (checks made before a run starts). */
export function runHostGitSync(
  layout: GitLayout,
  args: readonly string[],
  options: Omit<HostGitOptions, "signal" | "input"> & { readonly input?: string } = {},
): HostGitResult {
  const refused = layoutDeparture(layout);
  if (refused !== undefined) return refusedResult(args, refused);
  const result = spawnSync("git", [...args], {
    cwd: options.cwd ?? layout.workTree,
    env: environment(layout, options),
    encoding: "utf8",
    timeout: options.timeoutMs ?? DEFAULT_HOST_GIT_TIMEOUT_MS,
    killSignal: "SIGKILL",
    maxBuffer: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    ...(options.input === undefined
      ? { stdio: ["ignore", "pipe", "pipe"] }
      : { input: options.input }),
  });
  const error = result.error as (Error & { code?: string }) | undefined;
  const timedOut = error?.code === "ETIMEDOUT";
  return {
    args,
    exitCode: timedOut ? null : result.status,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    timedOut,
    aborted: false,
    ...(error !== undefined && !timedOut ? { spawnError: error.message } : {}),
  };
}

function succeeded(result: HostGitResult): boolean {
  return result.exitCode === 0;
}

/** Runs host git and returns its stdout; anything but exit 0 throws `HostGitError` (`GIT-HOST-002`). */
export async function hostGit(
  layout: GitLayout,
  args: readonly string[],
  options: HostGitOptions = {},
): Promise<string> {
  const result = await runHostGit(layout, args, options);
  if (!succeeded(result)) throw new HostGitError(result, options.cwd ?? layout.workTree);
  return result.stdout;
}

/** `hostGit`, synchronously. */
export function hostGitSync(
  layout: GitLayout,
  args: readonly string[],
  options: Omit<HostGitOptions, "signal" | "input"> & { readonly input?: string } = {},
): string {
  const result = runHostGitSync(layout, args, options);
  if (!succeeded(result)) throw new HostGitError(result, options.cwd ?? layout.workTree);
  return result.stdout;
}
