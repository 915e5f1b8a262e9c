import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { waitFor } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { git } from "./project.test-helper.ts";
import { BIN, onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// Each test spawns the CLI two to four times, runs with a sandboxed tool call among them.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const temps: string[] = [];
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const child of servers) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A fresh repository with `climpt init my-agent` committed, as init's advice says. */
async function initProject(dialect: "gate" | "check" = "gate"): Promise<string> {
  const cwd = tempDir("mock");
  temps.push(cwd);
  git(cwd, "init", "-q", "-b", "main");
  const init = await spawnCli(["init", "my-agent", "--dialect", dialect], { cwd });
  expect(init.code).toBe(0);
  git(cwd, "add", ".agent/my-agent");
  git(cwd, "commit", "-qm", "Add the agent");
  return cwd;
}

const MOCK = ".agent/my-agent/mock.json";

/**
 * A folder outside the repository for the scripts a test writes: inside, they would be untracked
 * files, and the scaffold's git-clean validator would (rightly) refuse to finish.
 */
function scriptsDir(): string {
  const dir = tempDir("mock-scripts");
  temps.push(dir);
  return dir;
}

function scaffoldMock(cwd: string): { rules: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(path.join(cwd, MOCK), "utf8"));
}

function journalEvents(cwd: string): Record<string, unknown>[] {
  const dir = path.join(cwd, "tmp/climpt/logs/my-agent");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .flatMap((name) => readFileSync(path.join(dir, name), "utf8").trim().split("\n"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("climpt run --mock: an agent run offline from a mock script", () => {
  it("runs the scaffold to completion right after init, with the script init wrote", async () => {
    const cwd = await initProject();
    const run = await spawnCli(
      ["run", "my-agent", "--task", "list the docs", "--mock", MOCK, "--json"],
      { cwd },
    );
    expect(run.stderr).toContain("answered by the mock script .agent/my-agent/mock.json");
    expect(run.code, run.stderr).toBe(0);
    const result = onlyJson(run.stdout);
    expect(result).toMatchObject({ success: true, finalStepId: "closure.done", iterations: 3 });
    const events = journalEvents(cwd);
    // The tool call the script asked for ran for real, and its result went back to the mock.
    const toolResult = events.find((event) => event.type === "tool_result");
    expect(toolResult).toMatchObject({ call: { name: "Glob", input: { pattern: "**/*.md" } } });
    expect(JSON.stringify(toolResult)).toContain("prompts/system.md");
    expect(events.filter((event) => event.type === "validator")).toMatchObject([
      { validator: "git-clean", passed: true },
    ]);
  });

  it("runs the check-dialect scaffold to completion too: its steps and their checks answered", async () => {
    const cwd = await initProject("check");
    const run = await spawnCli(["run", "my-agent", "--task", "x", "--mock", MOCK, "--json"], {
      cwd,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/✓ check passed/g)).toHaveLength(2);
    expect(onlyJson(run.stdout)).toMatchObject({ success: true, iterations: 2 });
  });

  it("refuses a bad script before the run starts: AC-MOCK-002 with the file and JSON path", async () => {
    const cwd = await initProject();
    writeFileSync(
      path.join(cwd, "bad-mock.json"),
      JSON.stringify({ rules: [{ step: "initial.work", turns: [{}] }] }),
    );
    const run = await spawnCli(["run", "my-agent", "--task", "x", "--mock", "bad-mock.json"], {
      cwd,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^bad-mock\.json\n {2}error AC-MOCK-002 at \$\.rules\[0\]\.turns\[0\]: /,
    );
    expect(run.stderr).toContain("exactly one of output, text, toolCalls or error");
    // Nothing ran: no journal.
    expect(() => journalEvents(cwd)).toThrow(/ENOENT/);
  });

  it("fails a step no rule answers with AC-MOCK-003 naming it and the closest rule; fixed, the run resumes", async () => {
    const cwd = await initProject();
    const script = scaffoldMock(cwd);
    const misnamed = {
      ...script,
      rules: script.rules.map((rule) =>
        rule.step === "closure.done" ? { ...rule, step: "closure.don" } : rule,
      ),
    };
    const typo = path.join(scriptsDir(), "typo.json");
    writeFileSync(typo, JSON.stringify(misnamed));
    const failed = await spawnCli(["run", "my-agent", "--task", "x", "--mock", typo], { cwd });
    expect(failed.code).toBe(1);
    // Said before the run, and again at the step the typo leaves unanswered.
    expect(failed.stderr).toContain(
      'warning AC-MOCK-005 at $.rules[2].step: $.rules[2] names step "closure.don", which my-agent does not have; did you mean "closure.done"?',
    );
    expect(failed.stderr).toContain(`AC-MOCK-003 No rule of ${typo} answers step "closure.done"`);
    expect(failed.stderr).toContain('The closest rule is $.rules[2]: its step is "closure.don"');
    expect(failed.stderr).toContain(
      "Add or correct a rule, then resume the run with the same --mock",
    );
    const runId = /Resume: climpt resume (\S+) --mock (\S+)\n/.exec(failed.stderr);
    expect(runId?.[2], failed.stderr).toBe(typo);

    // The script fixed, the printed command resumes the run: the steps that were answered are
    // not asked again.
    writeFileSync(typo, JSON.stringify(script));
    const id = runId?.[1] as string;
    const resumed = await spawnCli(["resume", id, "--mock", typo, "--json"], { cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(onlyJson(resumed.stdout)).toMatchObject({ success: true, runId: id });
    const asked = journalEvents(cwd)
      .filter((event) => event.type === "model_request")
      .map((event) => event.stepId);
    expect(asked.filter((step) => step === "initial.work")).toHaveLength(1);
  });
});

/** `climpt mock --script FILE` as a user starts it: the URL is the first stdout line. */
async function serveMock(
  cwd: string,
  script: string,
): Promise<{ url: string; stderr: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, "mock", "--script", script], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  servers.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  await waitFor(() => stdout.includes("\n"), {
    what: "climpt mock to print its URL",
    failed: () => (child.exitCode === null ? undefined : `it exited ${child.exitCode}: ${stderr}`),
  });
  const url = /^ANTHROPIC_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)\n$/.exec(stdout)?.[1];
  expect(url, stdout).toBeDefined();
  return {
    url: url as string,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", (code) => resolve(code));
        child.kill("SIGINT");
      }),
  };
}

describe("climpt mock: the script served on its own, for any client", () => {
  it("adds latency, injects 529s the SDK retries, and stops after the retries run out", async () => {
    const cwd = await initProject();
    const script = scaffoldMock(cwd);
    const [initial, work, closure] = script.rules as [
      { reply: Record<string, unknown> },
      Record<string, unknown>,
      { reply: Record<string, unknown> },
    ];
    const edited = {
      rules: [
        { ...initial, reply: { ...initial.reply, delayMs: 1500 } },
        work,
        // Task B: three overloaded answers, one more than the SDK's two retries.
        {
          ...closure,
          prompt: "The task: B",
          reply: { ...closure.reply, failFirst: { status: 529, times: 3 } },
        },
        { ...closure, reply: { ...closure.reply, failFirst: { status: 529, times: 2 } } },
      ],
    };
    const file = path.join(scriptsDir(), "edited.json");
    writeFileSync(file, JSON.stringify(edited));
    const mock = await serveMock(cwd, file);
    const env = { ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: "sk-ant-not-a-real-key" };

    const a = await spawnCli(["run", "my-agent", "--task", "A", "--json"], { cwd, env });
    expect(a.code, a.stderr).toBe(0);
    const responses = journalEvents(cwd).filter((event) => event.type === "model_response");
    const first = responses.find((event) => event.stepId === "initial.work");
    expect(first?.durationMs as number).toBeGreaterThanOrEqual(1500);

    const b = await spawnCli(["run", "my-agent", "--task", "B", "--json"], { cwd, env });
    expect(b.code).toBe(1);
    const result = onlyJson(b.stdout) as { success: boolean; error?: { code?: string } };
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("AC-MODEL-003");

    expect(await mock.stop()).toBe(0);
    const lines = mock
      .stderr()
      .split("\n")
      .filter((line) => line.includes("step closure.done"));
    // A: two 529s, then the answer. B: the first try and two retries, all 529: three requests.
    expect(lines.map((line) => line.replace(/^#\d+ /, ""))).toEqual([
      "step closure.done, turn 0: $.rules[3] → error",
      "step closure.done, turn 0: $.rules[3] → error",
      "step closure.done, turn 0: $.rules[3] → output",
      "step closure.done, turn 0: $.rules[2] → error",
      "step closure.done, turn 0: $.rules[2] → error",
      "step closure.done, turn 0: $.rules[2] → error",
    ]);
    expect(mock.stderr()).not.toContain("sk-ant-not-a-real-key");
  });
});
