/**
 * The `bounds` section of `pnpm soak`: how long the real `climpt` CLI takes to exit after a stop
 * in each wait a model or an agent can make hang (`HANG_CASES` of @climpt/testing: a Write into a
 * FIFO, a Bash call whose `setsid` child holds the pipe, a backtracking Grep, an exploding Glob,
 * a backtracking `matches:` validator). Each case runs once stopped by `--max-time 3s` and once by
 * one SIGINT sent when the case's wait has started. The bound is 2,000 ms from the signal (or the
 * deadline) to the process's exit (docs/design.md#tools-and-their-boundary).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  HANG_CASES,
  type HangCase,
  reply,
  type ScaffoldRegistry,
  startFakeAnthropic,
} from "@climpt/testing";

/** The longest a stop may take to end the process. */
export const STOP_BOUND_MS = 2000;
const MAX_TIME_MS = 3000;

export interface BoundMeasure {
  readonly caseId: HangCase["id"];
  readonly stopBy: "max-time" | "SIGINT";
  /** Milliseconds from the signal (or the deadline) to the process's exit; null: not measured. */
  readonly ms: number | null;
  /** The error code the run ended with (its last `--jsonl` line). */
  readonly code: string | null;
  /** Whether the case's wait had started when the stop came. */
  readonly reached: boolean;
  readonly note?: string;
}

const IDENTITY = {
  GIT_AUTHOR_NAME: "climpt-soak",
  GIT_AUTHOR_EMAIL: "soak@climpt.invalid",
  GIT_COMMITTER_NAME: "climpt-soak",
  GIT_COMMITTER_EMAIL: "soak@climpt.invalid",
};

function cliBin(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("climpt/package.json")), "dist", "bin.mjs");
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("ANTHROPIC_")) env[key] = value;
  }
  return { ...env, ...IDENTITY, ...extra };
}

/** A git project holding the agent `climpt init` scaffolds, with the case's changes. */
function makeProject(bin: string, hang: HangCase, scratch: string): string {
  const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-bounds-")));
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd, env: cleanEnv({}), stdio: "ignore" });
  git("init", "-q", "-b", "main");
  execFileSync(process.execPath, [bin, "init", "my-agent"], { cwd, stdio: "ignore" });
  if (hang.editRegistry !== undefined) {
    const file = path.join(cwd, ".agent", "my-agent", "steps_registry.json");
    const registry = JSON.parse(readFileSync(file, "utf8")) as ScaffoldRegistry;
    hang.editRegistry(registry, scratch);
    writeFileSync(file, `${JSON.stringify(registry, null, 2)}\n`);
  }
  writeFileSync(path.join(cwd, ".gitignore"), "tmp/\n");
  git("add", "-A");
  git("commit", "-qm", "agent");
  hang.prepare?.(cwd);
  return cwd;
}

function lastCode(stdout: string): string | null {
  const lines = stdout.trim().split("\n");
  try {
    const end = JSON.parse(lines.at(-1) ?? "") as {
      type?: string;
      result?: { error?: { code?: string } };
    };
    return end.type === "run_end" ? (end.result?.error?.code ?? "success") : null;
  } catch {
    return null;
  }
}

async function measure(
  bin: string,
  hang: HangCase,
  stopBy: "max-time" | "SIGINT",
): Promise<BoundMeasure> {
  const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-bounds-scratch-")));
  const cwd = makeProject(bin, hang, scratch);
  const fake = await startFakeAnthropic();
  fake.enqueue(...hang.replies(), reply.hang());
  const args = [bin, "run", "my-agent", "--task", "wait", "--jsonl"];
  if (stopBy === "max-time") args.push("--max-time", `${MAX_TIME_MS}ms`);
  try {
    const child = spawn(process.execPath, args, {
      cwd,
      env: cleanEnv({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "soak-bounds-key" }),
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    let stoppedAt: number | undefined;
    let reached = false;
    const started = (): boolean => {
      const requests = fake.messageRequests().length;
      return requests >= hang.replies().length && hang.started({ cwd, scratch, stdout, requests });
    };
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      // The wall clock starts when the run has started (its first event): the deadline is
      // counted from the moment this process sees that event.
      if (stopBy === "max-time" && stoppedAt === undefined && stdout === "") {
        stoppedAt = performance.now() + MAX_TIME_MS;
        const check = setTimeout(() => {
          reached = started();
        }, MAX_TIME_MS - 50);
        child.on("exit", () => clearTimeout(check));
      }
      stdout += chunk;
    });
    const timer =
      stopBy === "SIGINT"
        ? setInterval(() => {
            if (!started()) return;
            clearInterval(timer);
            reached = true;
            stoppedAt = performance.now();
            child.kill("SIGINT");
          }, 5)
        : undefined;
    const exitedAt = await exitTime(child);
    if (timer !== undefined) clearInterval(timer);
    return {
      caseId: hang.id,
      stopBy,
      ms: stoppedAt === undefined ? null : Math.round(exitedAt - stoppedAt),
      code: lastCode(stdout),
      reached,
    };
  } finally {
    await fake.close();
    rmSync(cwd, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** When the process exited; a hang is ended after a minute (and reported as such). */
function exitTime(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", () => {
      clearTimeout(guard);
      resolve(performance.now());
    });
  });
}

/** Runs every case once per stop, one at a time (so the numbers are not each other's load). */
export async function measureBounds(): Promise<BoundMeasure[]> {
  const bin = cliBin();
  const measures: BoundMeasure[] = [];
  for (const hang of HANG_CASES) {
    for (const stopBy of ["max-time", "SIGINT"] as const) {
      measures.push(await measure(bin, hang, stopBy));
    }
  }
  return measures;
}

/** Whether a measure holds: the run ended with the stop's code within the bound. */
export function boundHolds(measure: BoundMeasure): boolean {
  const expected = measure.stopBy === "SIGINT" ? "AGENT_INTERRUPTED" : "AGENT_BUDGET_EXCEEDED";
  return measure.ms !== null && measure.ms <= STOP_BOUND_MS && measure.code === expected;
}
