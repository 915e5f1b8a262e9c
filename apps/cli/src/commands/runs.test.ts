import { rmSync } from "node:fs";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { CliIo } from "../cli-io.ts";
import { initFiles, makeProject } from "../e2e/project.test-helper.ts";
import { main } from "../main.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 10 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let fake: FakeAnthropic;
const projects: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
  // The SDK reads the endpoint and key from the process environment, as it does for users.
  process.env.ANTHROPIC_BASE_URL = fake.url;
  process.env.ANTHROPIC_API_KEY = "test-key";
});
afterEach(() => fake.reset());
afterAll(async () => {
  delete process.env.ANTHROPIC_BASE_URL;
  delete process.env.ANTHROPIC_API_KEY;
  await fake.close();
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function project(files = initFiles("my-agent")): string {
  const dir = makeProject("my-agent", files);
  projects.push(dir);
  return dir;
}

/** `climpt …` in process, in `cwd`, with its output collected. */
async function climpt(cwd: string, argv: readonly string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    stdout: { write: (text) => void stdout.push(text) },
    stderr: { write: (text) => void stderr.push(text), isTTY: false },
    env: { ANTHROPIC_API_KEY: "test-key" },
    cwd,
  };
  const code = await main(argv, io);
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
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

interface ListedRun {
  runId: string;
  agent: string;
  status: string;
  error: string | null;
  steps: number;
  tokens: number;
  resumable: boolean;
}

describe("climpt runs, show and resume", () => {
  it("lists the runs started here, shows one's history, and says when a resumed run had nothing left to do", async () => {
    const cwd = project();
    fake.enqueue(plan, handoff, closing);
    const done = await climpt(cwd, ["run", "my-agent", "--task", "notes", "--json"]);
    expect(done.code).toBe(0);
    const doneId = (JSON.parse(done.stdout) as { runId: string }).runId;
    fake.enqueue(plan);
    const capped = await climpt(cwd, [
      "run",
      "my-agent",
      "--task",
      "notes",
      "--max-iterations",
      "1",
      "--json",
    ]);
    expect(capped.code).toBe(1);
    const cappedId = (JSON.parse(capped.stdout) as { runId: string }).runId;

    const listed = await climpt(cwd, ["runs", "--json"]);
    expect(listed.code).toBe(0);
    const runs = (JSON.parse(listed.stdout) as { runs: ListedRun[] }).runs;
    expect(runs.map((run) => [run.runId, run.agent, run.status, run.error, run.steps])).toEqual([
      [doneId, "my-agent", "completed", null, 3],
      [cappedId, "my-agent", "failed", "AGENT_MAX_ITERATIONS", 1],
    ]);
    expect(runs.every((run) => run.tokens > 0)).toBe(true);
    const table = await climpt(cwd, ["runs"]);
    expect(table.stdout.split("\n")[0]).toMatch(
      /^RUN\s+AGENT\s+STATUS\s+STEPS\s+TOKENS\s+COST\s+STARTED \(UTC\)\s+DURATION$/,
    );
    expect(table.stdout).toContain(`${doneId}  my-agent  completed`);

    const shown = await climpt(cwd, ["show", cappedId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /^run\s+\S+\nagent\s+my-agent\nstatus\s+failed \(AGENT_MAX_ITERATIONS\)/,
    );
    expect(shown.stdout).toContain("\n[1] initial.work: ");
    expect(shown.stdout).toContain("ended: AGENT_MAX_ITERATIONS");
    expect(shown.stdout).toContain(`Resume: climpt resume ${cappedId}`);

    const requests = fake.messageRequests().length;
    const again = await climpt(cwd, ["resume", doneId]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Run ${doneId} had already completed; nothing ran.`);
    expect(fake.messageRequests()).toHaveLength(requests);

    const missing = await climpt(cwd, ["resume", "20260101T000000Z-nosuch"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("AC-CLI-013");
    expect(missing.stderr).toContain("climpt runs");
  });

  it("streams the events as JSON lines with --jsonl, and shows prompts and replies with --verbose", async () => {
    const cwd = project();
    fake.enqueue(plan, handoff, closing);
    const streamed = await climpt(cwd, ["run", "my-agent", "--task", "notes", "--jsonl"]);
    expect(streamed.code).toBe(0);
    const events = streamed.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; seq: number });
    expect(events[0]?.type).toBe("run_start");
    expect(events.at(-1)?.type).toBe("run_end");
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));

    fake.enqueue(plan, handoff, closing);
    const verbose = await climpt(cwd, ["run", "my-agent", "--task", "write notes", "--verbose"]);
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).toBe("");
    expect(verbose.stderr).toContain("  │ ");
    expect(verbose.stderr).toContain("The task: write notes");
    expect(verbose.stderr).toContain("Write notes.txt and commit it.");

    const both = await climpt(cwd, ["run", "my-agent", "--task", "x", "--json", "--jsonl"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("AC-CLI-011");
  });

  it("gives --resume to an agent parameter named resume, and keeps it as the resume flag otherwise", async () => {
    const files = { ...initFiles("my-agent") };
    const agent = JSON.parse(files["agent.json"] as string) as {
      parameters: Record<string, object>;
    };
    agent.parameters.resume = { type: "string", description: "Resume from", cli: "--resume" };
    const cwd = project({ ...files, "agent.json": agent });
    fake.enqueue(plan);
    const run = await climpt(cwd, [
      "run",
      "my-agent",
      "--task",
      "x",
      "--resume",
      "from-here",
      "--max-iterations",
      "1",
      "--jsonl",
    ]);
    const start = JSON.parse(run.stdout.split("\n")[0] as string) as { args: object };
    expect(start.args).toEqual({ task: "x", resume: "from-here" });

    const plain = project();
    const old = await climpt(plain, ["run", "my-agent", "--resume", "20260101T000000Z-nosuch"]);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain("RUN-JOURNAL-001");
  });

  it("refuses a --agent-dir that does not exist instead of listing nothing", async () => {
    const cwd = project();
    const listed = await climpt(cwd, ["list", "--agent-dir", "/nonexistent/agents"]);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toContain("AC-CLI-012");
    expect((await climpt(cwd, ["list"])).code).toBe(0);
  });
});

describe("climpt prompt", () => {
  it("prints a step's resolved prompt without calling the model, with its parameters filled", async () => {
    const cwd = project();
    const shown = await climpt(cwd, ["prompt", "my-agent", "continuation.work", "--task", "notes"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("notes");
    expect(shown.stdout).toContain("‹approach handed off by initial.work›");
    expect(shown.stderr).toMatch(/^continuation\.work: .*f_default\.md\n$/);
    expect(fake.messageRequests()).toHaveLength(0);

    const json = await climpt(cwd, ["prompt", "my-agent", "initial.work", "--task", "t", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      stepId: "initial.work",
      variables: { task: "t" },
    });

    const wrong = await climpt(cwd, ["prompt", "my-agent", "initial.wrk", "--task", "t"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("Did you mean initial.work?");
  });
});
