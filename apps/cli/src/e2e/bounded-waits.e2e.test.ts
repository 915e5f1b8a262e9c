/**
 * `--max-time` and a first Ctrl-C end a run in every wait a model or an agent can make hang
 * (docs/design.md#tools-and-their-boundary): the cases of `HANG_CASES` (@climpt/testing) — a
 * Write into a FIFO, a Bash call whose `setsid` child keeps the output pipe open, a backtracking
 * Grep, an exploding Glob brace pattern, a closure validator whose `matches:` check backtracks.
 *
 * Each case is built so that nothing but the stop under test can end it (a ten-minute Bash
 * timeout, patterns that backtrack far longer than the test's time limit, a model that never
 * answers the request after the tool). A stop that does not reach the waiting tool shows as a
 * hang (the test's time limit) or as the tool ending by its own deadline, which the journal would
 * then hold (asserted absent). No elapsed time is asserted: the `bounds` section of `pnpm soak`
 * measures it.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import {
  type FakeAnthropic,
  HANG_CASES,
  type HangCase,
  OWN_DEADLINE_TEXT,
  reply,
  type ScaffoldRegistry,
  startFakeAnthropic,
} from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, initFiles, makeProject } from "./project.test-helper.ts";
import { spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 8 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const fakes: FakeAnthropic[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Line {
  readonly type: string;
  readonly result?: { resumable: boolean; error?: { code: string } };
}

/** The run's journal, one parsed event per line. */
function journal(cwd: string): Line[] {
  const dir = path.join(cwd, "tmp/climpt/logs/my-agent");
  const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
  expect(files).toHaveLength(1);
  return readFileSync(path.join(dir, files[0] as string), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
}

/** The scaffolded agent with the case's registry changes. */
function agentFiles(hang: HangCase, scratch: string): Record<string, string | object> {
  const files: Record<string, string | object> = { ...initFiles("my-agent") };
  if (hang.editRegistry !== undefined) {
    const written = files["steps_registry.json"];
    const registry = (
      typeof written === "string" ? JSON.parse(written) : structuredClone(written)
    ) as ScaffoldRegistry;
    hang.editRegistry(registry, scratch);
    files["steps_registry.json"] = registry;
  }
  return files;
}

async function runCase(hang: HangCase, stopBy: "max-time" | "SIGINT") {
  const fake = await startFakeAnthropic();
  fakes.push(fake);
  const scratch = tempDir("bounded");
  const cwd = makeProject("my-agent", agentFiles(hang, scratch));
  dirs.push(cwd, scratch);
  hang.prepare?.(cwd);
  fake.enqueue(...hang.replies(), reply.hang());
  const args = ["run", "my-agent", "--task", "wait", "--jsonl"];
  if (stopBy === "max-time") args.push("--max-time", "3s");
  let stdout = "";
  const outcome = await spawnCli(args, {
    cwd,
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
    onSpawn: (child) => {
      if (stopBy !== "SIGINT") return;
      child.stdout?.on("data", (chunk: Buffer | string) => {
        stdout += chunk.toString();
      });
      // Ctrl-C once the run waits where the case makes it wait, never on a guess of when.
      const timer = setInterval(() => {
        const requests = fake.messageRequests().length;
        if (requests < hang.replies().length) return;
        if (!hang.started({ cwd, scratch, stdout, requests })) return;
        clearInterval(timer);
        child.kill("SIGINT");
      }, 10);
      child.on("close", () => clearInterval(timer));
    },
  });
  const events = outcome.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
  const end = events.at(-1);
  expect(end?.type, outcome.stderr).toBe("run_end");
  return { code: outcome.code, result: end?.result, lines: journal(cwd) };
}

describe.concurrent("every hang ends at --max-time and at the first Ctrl-C", () => {
  for (const hang of HANG_CASES) {
    it(`${hang.name}: --max-time 3s ends it as a resumable budget failure`, async () => {
      const { code, result, lines } = await runCase(hang, "max-time");
      expect(code).toBe(1);
      expect(result?.error?.code).toBe("AGENT_BUDGET_EXCEEDED");
      expect(result?.resumable).toBe(true);
      expect(lines.at(-1)?.type).toBe("run_end");
      expect(JSON.stringify(lines)).not.toMatch(OWN_DEADLINE_TEXT);
    });

    it(`${hang.name}: one Ctrl-C ends it as a resumable interruption`, async () => {
      const { code, result, lines } = await runCase(hang, "SIGINT");
      expect(code).toBe(1);
      expect(result?.error?.code).toBe("AGENT_INTERRUPTED");
      expect(result?.resumable).toBe(true);
      expect(lines.at(-1)?.type).toBe("run_end");
      expect(JSON.stringify(lines)).not.toMatch(OWN_DEADLINE_TEXT);
    });
  }
});
