/**
 * A check-dialect agent and a resumed run through `climpt run --executor claude-code`: the built
 * CLI, the real Claude Agent SDK and its Claude Code binary, the fake Messages API on 127.0.0.1.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkAgentFiles } from "./flows.test-helper.ts";
import { GIT_IDENTITY, git, initFiles, makeProject } from "./project.test-helper.ts";
import { onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

let fake: FakeAnthropic;
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  fake.reset();
});
afterAll(async () => {
  await fake.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string | object>): string {
  const dir = makeProject(name, files);
  dirs.push(dir);
  return dir;
}

function env(): Record<string, string> {
  const home = tempDir("cc-home");
  dirs.push(home);
  mkdirSync(path.join(home, ".claude"));
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: "sk-ant-climpt-test-0123456789",
    ...GIT_IDENTITY,
  };
}

/** The model's answer of a step or a check: Claude Code's structured-output tool. */
const output = (value: object) => reply.toolUse({ name: "StructuredOutput", input: value });

interface ResultJson {
  runId: string;
  success: boolean;
  finalStepId: string | null;
  iterations: number;
  state: {
    history: {
      stepId: string;
      intent: string | null;
      transition: string;
      checkResult: { passed: boolean } | null;
    }[];
  };
}

function outline(result: ResultJson): string[] {
  return result.state.history.map(
    (entry) =>
      `${entry.stepId} ${entry.checkResult === null ? (entry.intent ?? "-") : entry.checkResult.passed ? "OK" : "NG"} → ${entry.transition}`,
  );
}

describe("a check-dialect agent through Claude Code", () => {
  it("retries a step whose check fails, falls back from a failed review, and completes", async () => {
    const cwd = project("reviewer", checkAgentFiles("reviewer"));
    // The scaffold's steps declare no output: a step ends on its text; a check is structured.
    const step = (summary: string) => reply.text(summary);
    const check = (result: "ok" | "ng", message: string) => output({ result, message });
    fake.enqueue(
      step("first try"),
      check("ng", "tests still fail"),
      step("second try"),
      check("ok", "done"),
      step("reviewed"),
      check("ng", "a leftover debug line"),
      step("removed the debug line"),
      check("ok", "clean"),
      step("reviewed again"),
      check("ok", "ready"),
    );
    const run = await spawnCli(
      ["run", "reviewer", "--task", "tidy up", "--executor", "claude-code", "--json"],
      { cwd, env: env() },
    );
    expect(run.code, run.stderr).toBe(0);
    const result = onlyJson(run.stdout) as unknown as ResultJson;
    const history = outline(result);
    const [work, review] = [history[0]?.split(" ")[0], history[2]?.split(" ")[0]];
    expect(history).toEqual([
      `${work} NG → ${work}`,
      `${work} OK → ${review}`,
      `${review} NG → ${work}`,
      `${work} OK → ${review}`,
      `${review} OK → complete`,
    ]);
    expect(result.iterations).toBe(5);
    expect(run.stderr).toContain("  ✗ check failed: tests still fail");
    expect(run.stderr).toContain("  ✓ check passed: ready");
    // One session per phase, one call each: ten requests, nothing else.
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(10).fill("POST /v1/messages"),
    );
  });
});

/** Calls `then` once the fake has received `count` model requests. */
function whenRequests(count: number, then: () => void): void {
  const timer = setInterval(() => {
    if (fake.messageRequests().length >= count) {
      clearInterval(timer);
      then();
    }
  }, 10);
}

/** A process's descendants (Linux /proc), so a crash can take Claude Code down with the CLI. */
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

/** kill -9 of the CLI and everything it started, as a crash of the machine's session would. */
function crash(pid: number | undefined): void {
  if (pid === undefined) return;
  const tree = descendants(pid);
  process.kill(pid, "SIGKILL");
  for (const child of tree) {
    try {
      process.kill(child, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

describe("kill -9 in the middle of a Claude Code step, then --resume", () => {
  it("asks the interrupted step again from its start and repeats no completed step", async () => {
    const cwd = project("my-agent", initFiles("my-agent"));
    const plan = output({
      stepId: "initial.work",
      summary: "Read the repository.",
      plan: { approach: "Write notes.txt and commit it." },
      next_action: { action: "next", reason: "planned" },
    });
    const writeAndCommit = reply.toolUse({
      name: "Bash",
      input: {
        command: "echo hello > notes.txt && git add notes.txt && git commit -qm 'Add notes'",
        description: "write and commit",
      },
    });
    const handoff = output({
      stepId: "continuation.work",
      summary: "notes.txt is written and committed.",
      work: { description: "Add notes.txt", files: ["notes.txt"] },
      next_action: { action: "handoff", reason: "done" },
    });
    const closing = output({
      stepId: "closure.done",
      summary: "Finished.",
      closure: { committed: true, report: "notes.txt added" },
      next_action: { action: "closing", reason: "complete" },
    });
    // Killed while continuation.work waits for its second call; its Bash call already ran.
    fake.enqueue(plan, writeAndCommit, reply.hang());
    const args = ["run", "my-agent", "--executor", "claude-code", "--json"];
    const killed = await spawnCli([...args, "--task", "write notes"], {
      cwd,
      env: env(),
      onSpawn: (child) => whenRequests(3, () => crash(child.pid)),
    });
    expect(killed.signal).toBe("SIGKILL");
    const runId = /run (\S+)\)/.exec(killed.stderr)?.[1] as string;
    expect(readdirSync(path.join(cwd, "tmp/climpt/logs/my-agent"))).toContain(`${runId}.jsonl`);
    expect(git(cwd, "log", "--format=%s")).toBe("Add notes\nagent");

    fake.reset();
    fake.enqueue(handoff, closing);
    const resumed = await spawnCli([...args, "--resume", runId], { cwd, env: env() });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming run \S+ at continuation\.work/);
    const result = onlyJson(resumed.stdout) as unknown as ResultJson;
    expect(result).toMatchObject({ success: true, finalStepId: "closure.done" });
    expect(outline(result)).toEqual([
      "initial.work next → continuation.work",
      "continuation.work handoff → closure.done",
      "closure.done closing → closing",
    ]);

    // initial.work was not asked again; continuation.work was, from its prompt in a fresh
    // session (no assistant turn: Claude Code cannot be fed the journal's replies), then closure.
    const requests = fake.messageRequests();
    expect(requests).toHaveLength(2);
    const first = requests[0]?.body as { messages: { role: string }[] };
    expect(first.messages.some((message) => message.role === "assistant")).toBe(false);
    // The step's effects stayed: one commit, a clean tree.
    expect(git(cwd, "log", "--format=%s")).toBe("Add notes\nagent");
    expect(git(cwd, "status", "--porcelain")).toBe("");
  });
});

describe("choosing the executor", () => {
  it("reads runner.flow.executor from agent.json, and --executor messages overrides it", async () => {
    const files = initFiles("picky");
    const agent = JSON.parse(files["agent.json"] as string) as {
      runner: { flow: Record<string, unknown> };
    };
    agent.runner.flow.executor = "claude-code";
    const cwd = project("picky", { ...files, "agent.json": agent });
    // Claude Code cannot replay a cassette: agent.json's choice is what refuses --replay here.
    const chosen = await spawnCli(["run", "picky", "--task", "x", "--replay", "none.jsonl"], {
      cwd,
      env: env(),
    });
    expect(chosen.code).toBe(2);
    expect(chosen.stderr).toContain("AC-CLI-011");
    expect(chosen.stderr).toContain("--replay cannot be used with the claude-code executor");

    const overridden = await spawnCli(
      ["run", "picky", "--task", "x", "--executor", "messages", "--replay", "none.jsonl"],
      { cwd, env: env() },
    );
    expect(overridden.stderr).not.toContain("AC-CLI-011");
    expect(overridden.stderr).toContain("--replay: no cassette");
  });

  it("reports a misspelt runner.flow.executor with the name it most likely meant", async () => {
    const files = initFiles("typo");
    const agent = JSON.parse(files["agent.json"] as string) as {
      runner: { flow: Record<string, unknown> };
    };
    agent.runner.flow.executor = "claude_code";
    const cwd = project("typo", { ...files, "agent.json": agent });
    const run = await spawnCli(["validate", "typo"], { cwd, env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("$.runner.flow.executor");
    expect(run.stderr).toContain('Did you mean "claude-code"?');
  });
});
