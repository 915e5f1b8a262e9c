/**
 * Row 3: time to first model request of `climpt run examples/agents/fix-bug` — from spawning the
 * process to the fake Messages API (in this process) receiving its first `POST /v1/messages` —
 * next to the wall time of `node -e 0`. Everything a user waits for before the model is asked:
 * Node's start, the CLI's imports, loading and checking the agent, the journal, the first prompt.
 * The run is killed once the request arrives; the reply does not matter.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { median } from "./stats.ts";

export interface FirstRequest {
  /** Median ms from spawn to the first model request. */
  readonly climptMs: number;
  /** Median ms of `node -e 0`, spawn to exit. */
  readonly nodeMs: number;
  readonly runs: number;
}

/** A hung CLI is a failure of the bench, not a wait without end. */
const LIMIT_MS = 120_000;

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

function sampleRepo(repoRoot: string, parentDir: string): string {
  const dir = mkdtempSync(path.join(parentDir, "first-request-"));
  cpSync(path.join(repoRoot, "examples/sample-repo"), dir, { recursive: true });
  const git = (...args: string[]): void => {
    execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  };
  git("init", "-q", "-b", "main");
  git("-c", "user.name=bench", "-c", "user.email=bench@climpt.invalid", "add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@climpt.invalid", "commit", "-qm", "initial");
  return dir;
}

export async function measureFirstRequest(
  repoRoot: string,
  parentDir: string,
  runs = 9,
): Promise<FirstRequest> {
  const cli = path.join(repoRoot, "apps/cli/dist/bin.mjs");
  const fake = await startFakeAnthropic();
  let arrived: (() => void) | undefined;
  fake.setHandler(() => {
    arrived?.();
    return reply.error(500);
  });
  const climpt: number[] = [];
  const bare: number[] = [];
  try {
    for (let run = 0; run <= runs; run++) {
      const repo = sampleRepo(repoRoot, parentDir);
      const first = new Promise<number>((resolve, reject) => {
        arrived = () => resolve(performance.now());
        setTimeout(() => reject(new Error("climpt run sent no model request")), LIMIT_MS).unref();
      });
      const started = performance.now();
      const child = spawn(
        process.execPath,
        [cli, "run", "examples/agents/fix-bug", "--cwd", repo, "--issue", "1", "--json"],
        {
          cwd: repoRoot,
          stdio: "ignore",
          env: { ...process.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "bench-key" },
        },
      );
      const ending = exited(child);
      try {
        const at = await Promise.race([
          first,
          ending.then((code) => {
            throw new Error(`climpt run exited (${code}) before any model request`);
          }),
        ]);
        if (run > 0) climpt.push(at - started);
      } finally {
        child.kill("SIGKILL");
        await ending;
        arrived = undefined;
        rmSync(repo, { recursive: true, force: true });
      }

      const nodeStarted = performance.now();
      const node = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
      await exited(node);
      if (run > 0) bare.push(performance.now() - nodeStarted);
    }
  } finally {
    await fake.close();
  }
  return { climptMs: median(climpt), nodeMs: median(bare), runs };
}
