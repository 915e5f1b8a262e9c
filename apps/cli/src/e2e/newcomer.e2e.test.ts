/**
 * What a new user meets in a fresh repository of their own (issue 29's newcomer list), through
 * the built CLI: `climpt init`, a repository without a .gitignore, commands run from a subfolder.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, reply, startFakeAnthropic } from "@climpt/testing";
import { adaptJournal, loadDeclaredFlow, parseJournalLines } from "@climpt/viewer";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): a run with a sandboxed Bash call, a few CLI starts.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let fake: FakeAnthropic;
const temps: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  fake.reset();
});
afterAll(async () => {
  await fake.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function write(root: string, file: string, text = "x\n"): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

/**
 * A fresh repository as a new user has it: `climpt init hello` committed with a package.json,
 * and no .gitignore at all, so an `npm install` leaves node_modules/ untracked.
 */
async function freshRepository(): Promise<string> {
  const root = tempDir("newcomer");
  temps.push(root);
  git(root, "init", "-q", "-b", "main");
  const init = await spawnCli(["init", "hello"], { cwd: root });
  expect(init.code, init.stderr).toBe(0);
  write(root, "package.json", '{ "name": "app" }\n');
  git(root, "add", "-A");
  git(root, "commit", "-qm", "start");
  write(root, "node_modules/left-pad/index.js");
  return root;
}

/** The text of the user prompt of the n-th model request (0-based). */
function promptOf(index: number): string {
  const body = fake.messageRequests()[index]?.body as
    | { messages?: { content: unknown }[] }
    | undefined;
  const content = body?.messages?.[0]?.content;
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
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

describe("the git-clean trap: node_modules/ untracked in a fresh repository", () => {
  it("validate names it with the .gitignore fix; the run warns before the first model call and never asks to commit it", async () => {
    const root = await freshRepository();
    const validated = await spawnCli(["validate", "hello"], { cwd: root });
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stderr).toContain("warning RUN-CWD-004");
    expect(validated.stderr).toContain("node_modules/ (a dependency or build folder)");
    expect(validated.stderr).toContain("add node_modules/ to .gitignore");
    expect(validated.stderr).toContain("hello: valid, with warnings");

    fake.enqueue(
      plan,
      reply.toolUse({ name: "Write", input: { file_path: "notes.txt", content: "hello\n" } }),
      handoff,
      closing, // refused: notes.txt and node_modules/ are untracked
      reply.toolUse({
        name: "Bash",
        input: {
          command:
            "printf 'node_modules/\\n' > .gitignore && git add -A && git commit -qm 'Add notes'",
        },
      }),
      handoff,
      closing,
    );
    const run = await spawnCli(["run", "hello", "--task", "write notes"], {
      cwd: root,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
    });
    expect(run.code, run.stderr).toBe(0);
    const warning = run.stderr.indexOf("RUN-CWD-004");
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(warning).toBeLessThan(run.stderr.indexOf("[1] initial.work"));

    const retry = fake
      .messageRequests()
      .findIndex((request) => JSON.stringify(request.body).includes("Finishing was refused"));
    expect(retry).toBe(4);
    const prompt = promptOf(retry);
    expect(prompt).toContain("Not committed (changed or new):\n- notes.txt\n");
    // Each file once, and no dependency folder to commit.
    expect(prompt.split("notes.txt").length - 1).toBe(1);
    expect(prompt).not.toContain("- node_modules");
    expect(git(root, "status", "--porcelain")).toBe("");
  });
});

describe("commands from a subfolder of the repository", () => {
  it("validate, graph and list find the repository's .agent/ above; a wrong name lists its agents, never a nested init", async () => {
    const root = await freshRepository();
    const sub = path.join(root, "src", "lib");
    mkdirSync(sub, { recursive: true });
    const validated = await spawnCli(["validate", "hello"], { cwd: sub });
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stderr).not.toContain("SR-LOAD-001");
    expect(validated.stderr).toContain("hello: valid");
    const graph = await spawnCli(["graph", "hello"], { cwd: sub });
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toContain("closure.done");
    const list = await spawnCli(["list"], { cwd: sub });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("hello");

    const typo = await spawnCli(["validate", "helo"], { cwd: sub });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      `Did you mean "hello"? Agents in ${path.join(root, ".agent")}: hello.`,
    );
    expect(typo.stderr).not.toContain("Create one with `climpt init");
  });
});

/** `climpt validate hello` after `edit` changed one file of the scaffold (a path under the agent). */
async function validateEdited(file: string, edit: (text: string) => string) {
  const root = tempDir("typo");
  temps.push(root);
  git(root, "init", "-q", "-b", "main");
  expect((await spawnCli(["init", "hello"], { cwd: root })).code).toBe(0);
  const target = path.join(root, ".agent", "hello", file);
  const before = readFileSync(target, "utf8");
  const after = edit(before);
  expect(after).not.toBe(before);
  writeFileSync(target, after);
  git(root, "add", "-A");
  git(root, "commit", "-qm", "agent");
  const outcome = await spawnCli(["validate", "hello", "--json"], { cwd: root });
  type Reported = { code: string; message: string; hint?: string };
  const report = JSON.parse(outcome.stdout) as { problems: Reported[]; findings: Reported[] };
  return { ...outcome, all: [...report.problems, ...report.findings] };
}

describe("typos get a did-you-mean, and no cascade of follow-on errors", () => {
  it("a misspelt transition key: one error naming the intent, no 'has no transitions'", async () => {
    const { code, all } = await validateEdited("steps_registry.json", (text) =>
      text.replace('"handoff": {', '"handof": {'),
    );
    expect(code).toBe(2);
    expect(all.map((problem) => problem.code)).toEqual(["SR-TRANS-013"]);
    expect(all[0]).toMatchObject({
      message: expect.stringContaining('Did you mean "handoff"?'),
      hint: 'Rename the key to "handoff".',
    });
  });

  it("a misspelt target: one error naming the step it was meant to be, no unreachable steps behind it", async () => {
    const { code, all } = await validateEdited("steps_registry.json", (text) =>
      text.replace('"target": "continuation.work"', '"target": "continuation.wrk"'),
    );
    expect(code).toBe(2);
    expect(all.map((problem) => problem.code)).toEqual(["SR-TRANS-001"]);
    expect(all[0]?.message).toContain('Did you mean "continuation.work"?');
  });

  it("a handoff placeholder without its step: the handoff name, in the prompt and in uvVariables", async () => {
    const prompt = await validateEdited("prompts/steps/continuation/work/f_default.md", (text) =>
      text.replace("{uv-initial_work_approach}", "{uv-work_approach}"),
    );
    expect(prompt.code).toBe(2);
    expect(prompt.all.map((problem) => problem.code)).toEqual(["PR-RESOLVE-005"]);
    expect(prompt.all[0]?.hint).toContain(
      'Did you mean {uv-initial_work_approach}? (handed off by step "initial.work")',
    );
    const declared = await validateEdited("steps_registry.json", (text) =>
      text.replace('"initial_work_approach"', '"work_approach"'),
    );
    expect(declared.code).toBe(2);
    const undeclared = declared.all.find((problem) => problem.code === "SR-VALID-006");
    expect(undeclared?.hint).toContain(
      'Did you mean "initial_work_approach" (handed off by step "initial.work")?',
    );
  });
});

describe("a validator that is just a command", () => {
  it('{ "command": … } alone: exit 0 passes, a failure retries with the built-in text naming the command', async () => {
    const root = tempDir("command-only");
    temps.push(root);
    git(root, "init", "-q", "-b", "main");
    expect((await spawnCli(["init", "hello"], { cwd: root })).code).toBe(0);
    const registryFile = path.join(root, ".agent", "hello", "steps_registry.json");
    const registry = JSON.parse(readFileSync(registryFile, "utf8"));
    registry.validators.notes = { command: "test -f notes.txt" };
    registry.validationSteps["closure.done"].validationConditions.push({ validator: "notes" });
    writeFileSync(registryFile, `${JSON.stringify(registry, null, 2)}\n`);
    // Without the scaffold's f_failed.md, the built-in retry text is what the model gets.
    rmSync(path.join(root, ".agent", "hello", "prompts", "steps", "retry", "done", "f_failed.md"));
    git(root, "add", "-A");
    git(root, "commit", "-qm", "agent");

    const validated = await spawnCli(["validate", "hello"], { cwd: root });
    expect(validated.stderr).toBe("hello: valid (0 errors, 0 warnings)\n");
    expect(validated.code).toBe(0);

    fake.enqueue(
      plan,
      handoff,
      closing, // notes.txt is missing: `test -f` exits 1
      reply.toolUse({
        name: "Bash",
        input: { command: "echo hi > notes.txt && git add notes.txt && git commit -qm notes" },
      }),
      handoff,
      closing,
    );
    const run = await spawnCli(["run", "hello", "--task", "write notes"], {
      cwd: root,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("  ✗ notes");
    expect(run.stderr).toContain("  ✓ notes");
    const retry = fake
      .messageRequests()
      .findIndex((request) => JSON.stringify(request.body).includes("was refused"));
    expect(retry).toBe(3);
    const prompt = promptOf(retry);
    expect(prompt).toContain('validator "notes" failed');
    expect(prompt).toContain("- Command: `test -f notes.txt`");
    expect(prompt).toContain("exit code 1");
  });
});

describe("climpt show", () => {
  async function repository(): Promise<string> {
    const root = tempDir("show");
    temps.push(root);
    git(root, "init", "-q", "-b", "main");
    expect((await spawnCli(["init", "hello"], { cwd: root })).code).toBe(0);
    write(root, ".gitignore", "tmp/\n");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "agent");
    return root;
  }
  const env = () => ({
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: "test-key",
    ...GIT_IDENTITY,
  });

  it("prints the validators and the verdict under the closure step that ran them, and no 'closing → closing'", async () => {
    const root = await repository();
    fake.enqueue(plan, handoff, closing);
    const run = await spawnCli(["run", "hello", "--task", "t", "--json"], {
      cwd: root,
      env: env(),
    });
    expect(run.code, run.stderr).toBe(0);
    const runId = (JSON.parse(run.stdout) as { runId: string }).runId;
    const shown = await spawnCli(["show", runId], { cwd: root });
    expect(shown.code, shown.stderr).toBe(0);
    const lines = shown.stdout.split("\n");
    const closure = lines.findIndex((line) => line.startsWith("[3] closure.done"));
    const validator = lines.findIndex((line) => line.includes("validator git-clean"));
    expect(closure).toBeGreaterThan(-1);
    expect(validator).toBe(closure + 1);
    expect(lines[closure]).toBe("[3] closure.done: closing → completion chain");
    expect(shown.stdout).not.toContain("closing → closing");
  });

  it("says which step was in flight when the run was killed", async () => {
    const root = await repository();
    fake.enqueue(plan, reply.hang());
    const killed = await spawnCli(["run", "hello", "--task", "t"], {
      cwd: root,
      env: env(),
      onSpawn: (child) => {
        // Killed while its second model call (continuation.work) waits: no step_end, no run_end.
        const poll = setInterval(() => {
          if (fake.messageRequests().length >= 2) {
            clearInterval(poll);
            child.kill("SIGKILL");
          }
        }, 20);
      },
    });
    expect(killed.signal).toBe("SIGKILL");
    const runs = await spawnCli(["runs", "--json"], { cwd: root });
    const runId = (JSON.parse(runs.stdout) as { runs: { runId: string }[] }).runs[0]?.runId;
    expect(runId).toBeDefined();
    const shown = await spawnCli(["show", runId as string], { cwd: root });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      "[2] continuation.work: in flight when the journal ends (the run was killed or is still running)",
    );
  });
});

describe("climpt view of a run killed and then resumed to completion", () => {
  it("shows the killed attempt's spans as ended, none still 'running'", async () => {
    const root = tempDir("view-killed");
    temps.push(root);
    git(root, "init", "-q", "-b", "main");
    expect((await spawnCli(["init", "hello"], { cwd: root })).code).toBe(0);
    write(root, ".gitignore", "tmp/\n");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "agent");
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY };
    fake.enqueue(plan, reply.hang());
    const killed = await spawnCli(["run", "hello", "--task", "t"], {
      cwd: root,
      env,
      onSpawn: (child) => {
        // Killed while continuation.work's model call waits for its reply.
        const poll = setInterval(() => {
          if (fake.messageRequests().length >= 2) {
            clearInterval(poll);
            child.kill("SIGKILL");
          }
        }, 20);
      },
    });
    expect(killed.signal).toBe("SIGKILL");
    const runs = JSON.parse((await spawnCli(["runs", "--json"], { cwd: root })).stdout) as {
      runs: { runId: string }[];
    };
    const runId = runs.runs[0]?.runId as string;
    fake.reset();
    fake.enqueue(handoff, closing);
    const resumed = await spawnCli(["resume", runId], { cwd: root, env });
    expect(resumed.code, resumed.stderr).toBe(0);

    const journal = path.join(root, "tmp", "climpt", "logs", "hello", `${runId}.jsonl`);
    const { events } = parseJournalLines(readFileSync(journal, "utf8"));
    const flow = await loadDeclaredFlow(path.join(root, ".agent", "hello"));
    if (!flow.ok) throw new Error(flow.reason);
    const detail = adaptJournal(events, flow.flow, runId);
    expect(detail.summary.status).toBe("completed");
    const running = detail.spans.filter((span) => span.status === "running");
    expect(running.map((span) => `${span.kind} ${span.label}`)).toEqual([]);
    // The killed attempt's step ends where its journal ended, not at the resume.
    const resume = detail.spans.find((span) => span.kind === "resume");
    const killedStep = detail.spans.find(
      (span) =>
        span.kind === "step" && span.label.includes("continuation.work") && span.status === "error",
    );
    expect(resume).toBeDefined();
    expect(killedStep).toBeDefined();
    expect((killedStep?.startMs ?? 0) + (killedStep?.durationMs ?? 0)).toBeLessThanOrEqual(
      resume?.startMs ?? 0,
    );
  });
});

describe("resuming a run whose validator command was missing", () => {
  it("runs the validators again on the closure's journaled reply, without asking the model again", async () => {
    const root = tempDir("resume-127");
    temps.push(root);
    git(root, "init", "-q", "-b", "main");
    expect((await spawnCli(["init", "hello"], { cwd: root })).code).toBe(0);
    write(root, ".gitignore", "tmp/\n");
    const registryFile = path.join(root, ".agent", "hello", "steps_registry.json");
    const registry = JSON.parse(readFileSync(registryFile, "utf8"));
    registry.validators.tests = { command: "climpt-no-such-command" };
    registry.validationSteps["closure.done"].validationConditions.push({ validator: "tests" });
    writeFileSync(registryFile, `${JSON.stringify(registry, null, 2)}\n`);
    git(root, "add", "-A");
    git(root, "commit", "-qm", "agent");
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY };

    fake.enqueue(plan, handoff, closing);
    const failed = await spawnCli(["run", "hello", "--task", "t", "--json"], { cwd: root, env });
    expect(failed.code).toBe(1);
    const result = JSON.parse(failed.stdout) as { runId: string; error?: { code: string } };
    expect(failed.stderr).toContain("✗ tests: exit 127");
    expect(fake.messageRequests()).toHaveLength(3);

    // The command is installed now (here: the validator fixed to one that exists).
    registry.validators.tests = { command: "true" };
    writeFileSync(registryFile, `${JSON.stringify(registry, null, 2)}\n`);
    git(root, "commit", "-qam", "fix the validator");
    fake.reset();
    const resumed = await spawnCli(
      ["resume", result.runId, "--accept-changed-definition", "--json"],
      { cwd: root, env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain("✓ tests");
    expect(fake.messageRequests()).toHaveLength(0);
  });
});
