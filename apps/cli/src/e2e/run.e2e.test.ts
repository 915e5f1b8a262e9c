import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git, initFiles, makeProject } from "./project.test-helper.ts";
import { onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 19 s at load 13–25.
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

function project(name: string, files = initFiles(name)): string {
  const dir = makeProject(name, files);
  projects.push(dir);
  return dir;
}

/** `climpt run …` in `cwd` against the fake Messages API, through the real SDK. */
function run(cwd: string, args: readonly string[]) {
  return spawnCli(["run", ...args], {
    cwd,
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
  });
}

/** The text of the user prompt of the n-th model request (0-based). */
function promptOf(index: number): string {
  const body = fake.messageRequests()[index]?.body as
    | { messages?: { content: unknown }[] }
    | undefined;
  const content = body?.messages?.[0]?.content;
  if (typeof content === "string") return content;
  return JSON.stringify(content ?? "");
}

// Structured outputs of the scaffolded gate agent (climpt init).
const plan = reply.json({
  stepId: "initial.work",
  summary: "Read the repository.",
  plan: { approach: "Write notes.txt and commit it." },
  next_action: { action: "next", reason: "planned" },
});
const handoff = reply.json({
  stepId: "continuation.work",
  summary: "Wrote notes.txt.",
  work: { description: "Add notes.txt", files: ["notes.txt"] },
  next_action: { action: "handoff", reason: "done" },
});
const closing = reply.json({
  stepId: "closure.done",
  summary: "Finished.",
  closure: { committed: true, report: "notes.txt added" },
  next_action: { action: "closing", reason: "complete" },
});

describe("climpt run on what climpt init writes", () => {
  it("walks initial → continuation → closure, passes git-clean, exits 0 and prints the result with --json", async () => {
    const cwd = project("my-agent");
    fake.enqueue(plan, handoff, closing);
    const { code, stdout, stderr } = await run(cwd, [
      "my-agent",
      "--task",
      "write notes",
      "--json",
    ]);
    expect(stderr).not.toContain("\x1b");
    expect(code).toBe(0);
    const result = onlyJson(stdout);
    expect(result).toMatchObject({ success: true, finalStepId: "closure.done", iterations: 3 });
    expect(
      (result.state as { history: { stepId: string; transition: string }[] }).history.map(
        (entry) => `${entry.stepId} → ${entry.transition}`,
      ),
    ).toEqual([
      "initial.work → continuation.work",
      "continuation.work → closure.done",
      "closure.done → closing",
    ]);
    // The parameter reached the prompt, and the plan was handed forward.
    expect(promptOf(0)).toContain("The task: write notes");
    expect(promptOf(1)).toContain("Your plan: Write notes.txt and commit it.");
    // Plain progress lines on a non-terminal stderr.
    expect(stderr).toContain("[1] initial.work (work, ");
    expect(stderr).toContain("  next → continuation.work");
    expect(stderr).toContain("  ✓ git-clean");
    expect(stderr).toContain("✓ completed 3 iterations");
    expect(stderr).not.toContain("test-key");
  });

  it("runs the model's command in the sandbox and leaves nothing of its own in the temporary folder", async () => {
    const cwd = project("my-agent");
    const temp = tempDir("tmpdir");
    projects.push(temp);
    fake.enqueue(
      reply.toolUse({
        name: "Bash",
        input: { command: "echo hello > notes.txt && git add notes.txt && git commit -qm notes" },
      }),
      plan,
      handoff,
      closing,
    );
    const { code, stderr } = await spawnCli(["run", "my-agent", "--task", "write notes"], {
      cwd,
      env: {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "test-key",
        TMPDIR: temp,
        ...GIT_IDENTITY,
      },
    });
    expect(code, stderr).toBe(0);
    expect(git(cwd, "log", "--format=%s", "-1")).toBe("notes");
    // The sandbox's private working directory (one per process) is gone with the process.
    expect(readdirSync(temp).filter((name) => name.startsWith("climpt-"))).toEqual([]);
  });

  it("sends the git-dirty retry prompt, naming the uncommitted file, when closing leaves the tree dirty", async () => {
    const cwd = project("my-agent");
    fake.enqueue(
      plan,
      reply.toolUse({ name: "Write", input: { file_path: "notes.txt", content: "hello\n" } }),
      handoff,
      closing, // git status shows notes.txt: refused, back to continuation.work with the retry prompt
      reply.toolUse({
        name: "Bash",
        input: { command: "git add -A && git commit -qm 'Add notes'" },
      }),
      handoff,
      closing,
    );
    const { code, stdout, stderr } = await run(cwd, [
      "my-agent",
      "--task",
      "write notes",
      "--json",
    ]);
    expect(code, stderr).toBe(0);
    const result = onlyJson(stdout);
    expect(result.iterations).toBe(5);
    expect(stderr).toContain("  ✗ git-clean");
    expect(stderr).toContain("verdict: retry (git-dirty) → continuation.work");
    expect(stderr).toContain("(work, ");
    expect(stderr).toMatch(/\[4\] continuation\.work \(work, [^)]*retry prompt\)/);

    // The prompt the model actually received after the refusal.
    const retryIndex = fake
      .messageRequests()
      .findIndex((request) => JSON.stringify(request.body).includes("Finishing was refused"));
    expect(retryIndex).toBe(4);
    const retryPrompt = promptOf(retryIndex);
    expect(retryPrompt).toContain("Finishing was refused: `git status --porcelain` is not empty");
    expect(retryPrompt).toContain("Not committed (changed or new):\n- notes.txt\n");
    expect(retryPrompt).toContain("The task: write notes");

    expect(git(cwd, "status", "--porcelain")).toBe("");
    expect(git(cwd, "log", "--format=%s", "-1")).toBe("Add notes");
    expect(readFileSync(path.join(cwd, "notes.txt"), "utf8")).toBe("hello\n");
  });
});

describe("climpt run --record / --replay", () => {
  it("replays a recorded run offline, with no API key, to the same result", async () => {
    const recorded = project("my-agent");
    // Under tmp/, which the project's git ignores: the git-clean validator must not see it.
    const cassette = path.join(recorded, "tmp", "run.cassette.json");
    fake.enqueue(plan, handoff, closing);
    const first = await run(recorded, [
      "my-agent",
      "--task",
      "write notes",
      "--record",
      cassette,
      "--json",
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(cassette, "utf8")).not.toContain("test-key");
    fake.reset();

    const fresh = project("my-agent");
    const replayed = await spawnCli(
      ["run", "my-agent", "--task", "write notes", "--replay", cassette, "--json"],
      { cwd: fresh, env: GIT_IDENTITY },
    );
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(fake.messageRequests()).toHaveLength(0);
    const history = (text: string) => (onlyJson(text).state as { history: unknown }).history;
    expect(history(replayed.stdout)).toEqual(history(first.stdout));
  });
});

describe("usage errors of climpt run", () => {
  it("suggests the closest parameter flag for a typo, and exits 2 before any model call", async () => {
    const cwd = project("my-agent");
    // The agent may come after the flags: climpt finds it before it knows the agent's flags.
    const { code, stderr } = await run(cwd, ["--tsk", "x", "my-agent"]);
    expect(code).toBe(2);
    expect(stderr).toContain("AC-CLI-002: Unknown flag --tsk. Fix: Did you mean --task?");
    expect(fake.messageRequests()).toHaveLength(0);
  });

  it("lists every missing required parameter, and with --json prints one JSON object", async () => {
    const cwd = project("my-agent");
    const { code, stdout, stderr } = await run(cwd, ["my-agent", "--json"]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'RUN-ARGS-003 at $.parameters.task.required: Agent "my-agent" needs parameter "task" (--task, string): What the agent should do.',
    );
    expect(onlyJson(stdout)).toMatchObject({ ok: false, error: { code: "RUN-ARGS-003" } });
    expect(fake.messageRequests()).toHaveLength(0);
  });

  it("shows the agent's parameters in --help", async () => {
    const cwd = project("my-agent");
    const { code, stdout } = await run(cwd, ["my-agent", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Parameters of my-agent:");
    expect(stdout).toMatch(/--task VALUE\s+What the agent should do \(required\)/);
  });

  it("needs an API key unless it replays a cassette, and never prints the key", async () => {
    const cwd = project("my-agent");
    const { code, stderr } = await spawnCli(["run", "my-agent", "--task", "x"], { cwd });
    expect(code).toBe(2);
    expect(stderr).toContain("AC-CLI-009: ANTHROPIC_API_KEY is not set");
    const missingCassette = await spawnCli(
      ["run", "my-agent", "--task", "x", "--replay", "nope.json"],
      { cwd },
    );
    expect(missingCassette.code).toBe(2);
    expect(missingCassette.stderr).toContain("--replay: no cassette at");
    expect(existsSync(path.join(cwd, "tmp"))).toBe(false);
  });
});
