/**
 * A check-dialect agent and a resumed run through `climpt run --executor claude-code`: the built
 * CLI, the real Claude Agent SDK and its Claude Code binary, the fake Messages API on 127.0.0.1.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeRequest, reply } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  CLAUDE_CODE_HANG_LIMIT_MS,
  carriesToolResult,
  useFakeApiPerTest,
} from "./claude-code-script.test-helper.ts";
import { checkAgentFiles } from "./flows.test-helper.ts";
import { GIT_IDENTITY, git, initFiles, makeProject } from "./project.test-helper.ts";
import { killTree, onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

vi.setConfig({ testTimeout: CLAUDE_CODE_HANG_LIMIT_MS });

const fakeApi = useFakeApiPerTest();
const dirs: string[] = [];

afterAll(() => {
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
    ANTHROPIC_BASE_URL: fakeApi().url,
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
  // The review's fallback to the work step on a failed check is the runner's routing, the same
  // for every executor: flows.e2e.test.ts runs it. Here each phase is a Claude Code session,
  // so the flow is the shortest that still fails a check: a work step retried, then a review.
  it("retries a step whose check fails and completes after the review's check", async () => {
    const fake = fakeApi();
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
      `${review} OK → complete`,
    ]);
    expect(work).not.toBe(review);
    expect(result.iterations).toBe(3);
    expect(run.stderr).toContain("  ✗ check failed: tests still fail");
    expect(run.stderr).toContain("  ✓ check passed: ready");
    // One session per phase, one call each: six requests, nothing else.
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(6).fill("POST /v1/messages"),
    );
  });
});

/**
 * Calls `then` once the fake has received a model request that `matches`, unless `child` exits
 * first.
 */
function whenRequest(
  child: ChildProcess,
  requests: () => readonly FakeRequest[],
  matches: (request: FakeRequest) => boolean,
  then: () => void,
): void {
  const timer = setInterval(() => {
    if (requests().some(matches)) {
      clearInterval(timer);
      then();
    }
  }, 10);
  child.once("close", () => clearInterval(timer));
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
      id: "toolu_write_and_commit",
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
    // Killed while continuation.work waits for its second call, the one that carries the Bash
    // call's result: the commit is made.
    const fake = fakeApi();
    fake.enqueue(plan, writeAndCommit, reply.hang());
    const args = ["run", "my-agent", "--executor", "claude-code", "--json"];
    const killed = await spawnCli([...args, "--task", "write notes"], {
      cwd,
      env: env(),
      onSpawn: (child) =>
        whenRequest(
          child,
          () => fake.messageRequests(),
          (request) => carriesToolResult(request, "toolu_write_and_commit"),
          () => killTree(child.pid),
        ),
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
