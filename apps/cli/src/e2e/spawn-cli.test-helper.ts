import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "@climpt/testing";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The built executable the tests spawn (test/build-once.ts builds it). */
export const BIN = path.resolve(here, "../../dist/bin.mjs");
export const REPO_ROOT = path.resolve(here, "../../../..");
export const EXAMPLES = path.join(REPO_ROOT, "examples", "agents");

export interface CliOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface SpawnCliOptions {
  readonly cwd?: string;
  /** Added to a clean environment (no ANTHROPIC_* from the caller's shell). */
  readonly env?: Readonly<Record<string, string>>;
  /** Called once the process runs, e.g. to send it signals. */
  readonly onSpawn?: (child: ChildProcess) => void;
}

function cleanEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("ANTHROPIC_") || key === "FORCE_COLOR" || key === "NO_COLOR") continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** CLIs spawned by `spawnCli` that have not exited yet. */
const running = new Set<ChildProcess>();

/** Runs `node dist/bin.mjs …args` and collects its exit code and output. */
export function spawnCli(
  args: readonly string[],
  options: SpawnCliOptions = {},
): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: cleanEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    running.add(child);
    child.on("error", (error) => {
      running.delete(child);
      reject(error);
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** A fresh temporary folder (real path, so messages match what the CLI prints). */
export function tempDir(prefix: string): string {
  return makeTempDir(`climpt-cli-${prefix}-`);
}

/** The one JSON object stdout must hold. */
export function onlyJson(stdout: string): Record<string, unknown> {
  const value: unknown = JSON.parse(stdout);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`stdout is not one JSON object: ${stdout.slice(0, 200)}`);
  }
  return value as Record<string, unknown>;
}

/** A process's descendants (Linux /proc), deepest last. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter((word) => word !== "")
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** kill -9 of a process and everything it started, as a crash of the machine's session would. */
export function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  const tree = descendants(pid);
  for (const target of [pid, ...tree]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Kills every CLI a test started that is still running, with what it started. For an
 * `afterEach`: a test that timed out leaves its CLI (and the Claude Code processes under it)
 * running, and they would go on calling the fake API while the next test runs.
 */
export function stopRunningClis(): void {
  for (const child of running) killTree(child.pid);
  running.clear();
}
