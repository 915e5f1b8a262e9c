import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

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
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    options.onSpawn?.(child);
  });
}

/** A fresh temporary folder (real path, so messages match what the CLI prints). */
export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), `climpt-cli-${prefix}-`)));
}

/** The one JSON object stdout must hold. */
export function onlyJson(stdout: string): Record<string, unknown> {
  const value: unknown = JSON.parse(stdout);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`stdout is not one JSON object: ${stdout.slice(0, 200)}`);
  }
  return value as Record<string, unknown>;
}
