/**
 * Warm start through `climpt run --executor claude-code`: the next step's Claude Code session
 * starts before the step before it has ended, and nothing it started outlives a killed CLI. The
 * built CLI, the real Claude Agent SDK and its Claude Code binary, the fake Messages API. Session
 * starts are seen from outside: a SessionStart hook in the temporary HOME's Claude Code settings
 * logs the time of each (Claude Code runs it when the process starts, before any prompt).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { reply, waitFor } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { CLAUDE_CODE_HANG_LIMIT_MS, useFakeApiPerTest } from "./claude-code-script.test-helper.ts";
import { GIT_IDENTITY, initFiles, makeProject } from "./project.test-helper.ts";
import { onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

vi.setConfig({ testTimeout: CLAUDE_CODE_HANG_LIMIT_MS });

const fakeApi = useFakeApiPerTest();
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Home {
  readonly env: Record<string, string>;
  /** Each Claude Code session start so far: when (ms since the epoch) and its session id. */
  readonly starts: () => { at: number; session: string }[];
  /** Live processes started with this HOME's Claude Code config (Claude Code, its sandbox). */
  readonly processes: () => number[];
}

function home(): Home {
  const dir = tempDir("cc-home");
  dirs.push(dir);
  const config = path.join(dir, ".claude");
  mkdirSync(config);
  const log = path.join(dir, "session-starts.log");
  writeFileSync(log, "");
  // The hook reads its input (JSON with the session id) from stdin.
  const command = `printf '%s %s\\n' "$(date +%s%3N)" "$(sed -n 's/.*"session_id": *"\\([^"]*\\)".*/\\1/p')" >> '${log}'`;
  writeFileSync(
    path.join(config, "settings.json"),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command }] }] } }),
  );
  const marker = `CLAUDE_CONFIG_DIR=${config}`;
  return {
    env: {
      HOME: dir,
      CLAUDE_CONFIG_DIR: config,
      ANTHROPIC_BASE_URL: fakeApi().url,
      ANTHROPIC_API_KEY: "sk-ant-climpt-test-0123456789",
      ...GIT_IDENTITY,
    },
    starts: () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => {
          const [at, session] = line.split(" ");
          return { at: Number(at), session: session ?? "" };
        }),
    processes: () => {
      const pids: number[] = [];
      for (const entry of readdirSync("/proc")) {
        if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
        try {
          const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
          const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
          if (environ.includes(marker) && state !== "Z") pids.push(Number(entry));
        } catch {
          // gone meanwhile, or not ours
        }
      }
      return pids;
    },
  };
}

/**
 * The project, as a repository Claude Code has worked in before: its sandbox leaves an empty
 * `.git/config.worktree` (the placeholder it binds /dev/null over) on its first session, which
 * changes the read-only paths once; a session guessed before that would be discarded.
 */
function project(): string {
  const cwd = makeProject("my-agent", initFiles("my-agent"));
  dirs.push(cwd);
  writeFileSync(path.join(cwd, ".git", "config.worktree"), "");
  return cwd;
}

/** The model's answer of a step: Claude Code's structured-output tool. */
const output = (value: object) => reply.toolUse({ name: "StructuredOutput", input: value });
const plan = output({
  stepId: "initial.work",
  summary: "Read the repository.",
  plan: { approach: "Nothing to change." },
  next_action: { action: "next", reason: "planned" },
});
const handoff = output({
  stepId: "continuation.work",
  summary: "Nothing needed changing.",
  work: { description: "checked", files: [] },
  next_action: { action: "handoff", reason: "done" },
});
const closing = output({
  stepId: "closure.done",
  summary: "Finished.",
  closure: { committed: false, report: "nothing to do" },
  next_action: { action: "closing", reason: "complete" },
});

interface JournalLine {
  readonly type: string;
  readonly stepId?: string;
  readonly time: string;
  /** prompt_resolved: the prompt the step was sent. */
  readonly text?: string;
}

function journal(cwd: string, runId: string): JournalLine[] {
  const file = path.join(cwd, "tmp/climpt/logs/my-agent", `${runId}.jsonl`);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as JournalLine);
}

describe("warm start of Claude Code steps", () => {
  it("starts each next step's session while the step before it runs, and the step runs in it", async () => {
    const cwd = project();
    const user = home();
    const fake = fakeApi();
    // The model answers initial.work once a second session has started, and continuation.work
    // once a third has (bounded: without warm start they never come before the answer, and the
    // order checks below fail).
    const answers = [plan, handoff, closing];
    fake.setHandler(async (request) => {
      const call = fake.messageRequests().findIndex((sent) => sent.index === request.index);
      if (call < 2) {
        await waitFor(() => user.starts().length >= call + 2, {
          what: "the next step's session to start",
          limitMs: 60_000,
        }).catch(() => undefined);
      }
      return answers[call];
    });
    const run = await spawnCli(
      ["run", "my-agent", "--task", "look around", "--executor", "claude-code", "--json"],
      { cwd, env: user.env },
    );
    expect(run.code, run.stderr).toBe(0);
    const result = onlyJson(run.stdout) as { runId: string; success: boolean };
    expect(result.success).toBe(true);

    const requests = fake.messageRequests();
    expect(requests).toHaveLength(3);
    const stepStarts = journal(cwd, result.runId)
      .filter((line) => line.type === "step_start")
      .map((line) => ({ stepId: line.stepId, at: Date.parse(line.time) }));
    expect(stepStarts.map((start) => start.stepId)).toEqual([
      "initial.work",
      "continuation.work",
      "closure.done",
    ]);
    // The session each request came from (Claude Code names it in a header), and when it
    // started. A cold session starts after its step_start (the runner journals the step, then
    // hands it over); these started before: while the step before them ran.
    const starts = user.starts();
    const startOf = (index: number) => {
      const session = requests[index]?.headers["x-claude-code-session-id"];
      return starts.find((start) => start.session === session)?.at;
    };
    expect(startOf(0)).toBeDefined();
    expect(startOf(1)).toBeLessThan(stepStarts[1]?.at as number);
    expect(startOf(2)).toBeLessThan(stepStarts[2]?.at as number);
    // Each step got its own prompt (as the journal resolved it) in the session started for it.
    const prompts = journal(cwd, result.runId)
      .filter((line) => line.type === "prompt_resolved")
      .map((line) => line.text?.trim().split("\n")[0] ?? "");
    expect(new Set(prompts).size).toBe(3);
    requests.forEach((request, index) => {
      const body = request.body as { messages?: unknown[] } | undefined;
      expect(JSON.stringify(body?.messages?.[0])).toContain(
        JSON.stringify(prompts[index]).slice(1, -1),
      );
    });
    // One session per step: none was started and left unused.
    expect(starts).toHaveLength(3);
    expect(user.processes()).toEqual([]);
  });

  it("a kill -9 of the CLI leaves no Claude Code process behind, the one started ahead included", async () => {
    const cwd = project();
    const user = home();
    const fake = fakeApi();
    let cli: number | undefined;
    // continuation.work's call: once closure.done's session has started ahead (and waits),
    // the CLI alone is killed (not what it started); then the call is answered, so the
    // session in flight ends its turn.
    const answers = [plan, handoff];
    fake.setHandler(async (request) => {
      const call = fake.messageRequests().findIndex((sent) => sent.index === request.index);
      if (call === 1) {
        await waitFor(() => user.starts().length >= 3, {
          what: "closure.done's session to start ahead",
          limitMs: 60_000,
        });
        process.kill(cli as number, "SIGKILL");
      }
      return answers[call];
    });
    const killed = await spawnCli(
      ["run", "my-agent", "--task", "look around", "--executor", "claude-code", "--json"],
      {
        cwd,
        env: user.env,
        onSpawn: (child) => {
          cli = child.pid;
        },
      },
    );
    expect(killed.signal).toBe("SIGKILL");
    expect(user.starts()).toHaveLength(3);
    // The waiting session's stdin closed with the CLI: it ends by itself, as does the one
    // whose turn ended.
    await waitFor(() => user.processes().length === 0, {
      what: "every Claude Code process of the killed CLI to end",
      limitMs: 60_000,
    });
  });
});
