import { readdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git, initFiles, makeProject } from "./project.test-helper.ts";
import { onlyJson, spawnCli } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 22 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let fake: FakeAnthropic;
const projects: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  fake.reset();
});
afterAll(async () => {
  await fake.close();
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = makeProject("my-agent", initFiles("my-agent"));
  projects.push(dir);
  return dir;
}

const ENV = () => ({
  ANTHROPIC_BASE_URL: fake.url,
  ANTHROPIC_API_KEY: "test-key",
  ...GIT_IDENTITY,
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

interface ResultJson {
  runId: string;
  success: boolean;
  finalStepId: string | null;
  iterations: number;
  resumable: boolean;
  error?: { code: string };
  state: { history: { stepId: string; intent: string | null; transition: string }[] };
}

const plan = reply.json({
  stepId: "initial.work",
  summary: "Read the repository.",
  plan: { approach: "Write notes.txt and commit it." },
  next_action: { action: "next", reason: "planned" },
});
const writeAndCommit = reply.toolUse({
  name: "Bash",
  input: { command: "echo hello > notes.txt && git add -A && git commit -qm 'Add notes'" },
});
const handoff = reply.json({
  stepId: "continuation.work",
  summary: "Wrote and committed notes.txt.",
  work: { description: "Add notes.txt", files: ["notes.txt"] },
  next_action: { action: "handoff", reason: "done" },
});
const closing = reply.json({
  stepId: "closure.done",
  summary: "Finished.",
  closure: { committed: true, report: "notes.txt added" },
  next_action: { action: "closing", reason: "complete" },
});

function outline(result: ResultJson) {
  return {
    success: result.success,
    finalStepId: result.finalStepId,
    iterations: result.iterations,
    history: result.state.history.map(
      (entry) => `${entry.stepId} ${entry.intent} → ${entry.transition}`,
    ),
  };
}

describe("Ctrl-C during climpt run", () => {
  it("stops cleanly, exits 1, says how to resume, and --resume finishes without repeating a completed call", async () => {
    const cwd = project();
    fake.enqueue(plan, reply.hang());
    const stopped = await spawnCli(["run", "my-agent", "--task", "write notes", "--json"], {
      cwd,
      env: ENV(),
      onSpawn: (child) => whenRequests(2, () => child.kill("SIGINT")),
    });
    expect(stopped.code).toBe(1);
    const interrupted = onlyJson(stopped.stdout) as unknown as ResultJson;
    expect(interrupted.error?.code).toBe("AGENT_INTERRUPTED");
    expect(interrupted.resumable).toBe(true);
    expect(stopped.stderr).toContain("Ctrl-C: stopping the run; the journal is kept.");
    expect(stopped.stderr).toContain(`Resume: climpt resume ${interrupted.runId}`);

    fake.reset();
    fake.enqueue(handoff, closing);
    // The command the hint printed.
    const resumed = await spawnCli(["resume", interrupted.runId, "--json"], {
      cwd,
      env: ENV(),
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const result = onlyJson(resumed.stdout) as unknown as ResultJson;
    expect(result.runId).toBe(interrupted.runId);
    expect(outline(result)).toEqual({
      success: true,
      finalStepId: "closure.done",
      iterations: 3,
      history: [
        "initial.work next → continuation.work",
        "continuation.work handoff → closure.done",
        "closure.done closing → closing",
      ],
    });
    // The planning call had completed before Ctrl-C: the resumed run did not send it again.
    const prompts = fake.messageRequests().map((request) => JSON.stringify(request.body));
    expect(prompts).toHaveLength(2);
    expect(prompts.some((text) => text.includes("Step: plan the work"))).toBe(false);
  });

  it("refuses parameters together with --resume", async () => {
    const cwd = project();
    const { code, stderr } = await spawnCli(["run", "my-agent", "--resume", "x", "--task", "y"], {
      cwd,
      env: ENV(),
    });
    expect(code).toBe(2);
    expect(stderr).toContain("AC-CLI-011");
  });
});

describe("kill -9 in the middle of a step, then --resume", () => {
  it("ends with the same result as an uninterrupted run, repeating no completed model call or tool", async () => {
    // The uninterrupted run, for reference.
    const reference = project();
    fake.enqueue(plan, writeAndCommit, handoff, closing);
    const straight = await spawnCli(["run", "my-agent", "--task", "write notes", "--json"], {
      cwd: reference,
      env: ENV(),
    });
    expect(straight.code, straight.stderr).toBe(0);
    const expected = outline(onlyJson(straight.stdout) as unknown as ResultJson);
    expect(fake.messageRequests()).toHaveLength(4);

    // The same run, killed while continuation.work waits for its second model call: its first
    // call (the Bash tool_use) and the tool's result are already in the journal.
    fake.reset();
    const cwd = project();
    fake.enqueue(plan, writeAndCommit, reply.hang());
    const killed = await spawnCli(["run", "my-agent", "--task", "write notes", "--json"], {
      cwd,
      env: ENV(),
      onSpawn: (child) => whenRequests(3, () => child.kill("SIGKILL")),
    });
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.stdout).toBe("");
    const runId = /run (\S+)\)/.exec(killed.stderr)?.[1] as string;
    expect(readdirSync(path.join(cwd, "tmp/climpt/logs/my-agent"))).toContain(`${runId}.jsonl`);

    fake.reset();
    fake.enqueue(handoff, closing);
    const resumed = await spawnCli(["run", "my-agent", "--resume", runId, "--json"], {
      cwd,
      env: ENV(),
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming run \S+ at continuation\.work/);
    expect(outline(onlyJson(resumed.stdout) as unknown as ResultJson)).toEqual(expected);

    // Only the call that never completed was sent again: it continues the step's conversation
    // (prompt, the journaled tool_use, its journaled result), then closure.
    const requests = fake.messageRequests();
    expect(requests).toHaveLength(2);
    const first = requests[0]?.body as { messages: { role: string; content: unknown }[] };
    expect(first.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(first.messages[2]?.content)).toContain("tool_result");
    // The Bash tool ran once: one commit, a clean tree.
    expect(git(cwd, "log", "--format=%s")).toBe("Add notes\nagent");
    expect(git(cwd, "status", "--porcelain")).toBe("");
  });
});
