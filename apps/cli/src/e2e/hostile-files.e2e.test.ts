/**
 * Files an agent's own commands could have written, read back by climpt: a FIFO in place of a
 * definition file, a cassette or a workflow, and a journal line nested 100,000 levels deep. Each
 * command answers at once with a code that names the file (and the line); none waits for a
 * writer, and none crashes (exit 3). A command that would wait shows as this file's time limit.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { writeWorkflowScenario } from "@climpt/testing";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { REPO_ROOT, spawnCli, stopRunningClis, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 10 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const dirs: string[] = [];
afterEach(stopRunningClis);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const CASSETTE = path.join(REPO_ROOT, "examples", "cassettes", "fix-bug.jsonl");

/** A git copy of the sample repository with the fix-bug agent under `.agent/fix-bug`. */
function project(): string {
  const dir = tempDir("hostile");
  dirs.push(dir);
  cpSync(path.join(REPO_ROOT, "examples", "sample-repo"), dir, { recursive: true });
  cpSync(
    path.join(REPO_ROOT, "examples", "agents", "fix-bug"),
    path.join(dir, ".agent", "fix-bug"),
    {
      recursive: true,
    },
  );
  writeFileSync(path.join(dir, ".gitignore"), "tmp/\n");
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "initial");
  return dir;
}

function fifoAt(file: string): void {
  rmSync(file, { force: true });
  execFileSync("mkfifo", [file]);
}

describe("a FIFO in place of a definition file", () => {
  for (const file of ["agent.json", "steps_registry.json", "schemas/fix-bug.schema.json"]) {
    it(`climpt validate and climpt run answer SR-LOAD-014 at once for ${file}`, async () => {
      const cwd = project();
      fifoAt(path.join(cwd, ".agent", "fix-bug", file));
      const validate = await spawnCli(["validate", "fix-bug"], { cwd });
      expect(validate.code, validate.stderr).toBe(2);
      expect(validate.stderr).toContain("SR-LOAD-014");
      expect(validate.stderr).toContain("FIFO");
      const run = await spawnCli(["run", "fix-bug", "--issue", "1", "--replay", CASSETTE], {
        cwd,
        env: GIT_IDENTITY,
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain("SR-LOAD-014");
    });
  }

  it("climpt run --replay answers AC-REPLAY-002 at once for a FIFO cassette", async () => {
    const cwd = project();
    const cassette = path.join(cwd, "replies.jsonl");
    fifoAt(cassette);
    const run = await spawnCli(["run", "fix-bug", "--issue", "1", "--replay", cassette], {
      cwd,
      env: GIT_IDENTITY,
    });
    expect(run.code).not.toBe(3);
    expect(run.stderr).toContain("AC-REPLAY-002");
    expect(run.stderr).toContain("not a regular file");
  });

  it("climpt orchestrate --dry-run answers at once for a FIFO workflow.json", async () => {
    const scenario = writeWorkflowScenario();
    try {
      // --dry-run reads the workflow and the issues, not the agents.
      fifoAt(path.join(scenario.repoDir, ".agent", "workflow.json"));
      const plan = await spawnCli(["orchestrate", "--dry-run"], {
        cwd: scenario.repoDir,
        env: { ...scenario.gh.env, ANTHROPIC_API_KEY: "sk-test-key" },
      });
      expect(plan.code, plan.stderr).toBe(2);
      expect(plan.stderr).toMatch(/workflow\.json cannot be read: it is a FIFO/);
    } finally {
      scenario.remove();
    }
  });
});

describe("a journal line nested 100,000 levels deep", () => {
  it("show, runs and view leave it out naming the line; resume refuses with the code", async () => {
    const cwd = project();
    const run = await spawnCli(["run", "fix-bug", "--issue", "1", "--replay", CASSETTE], {
      cwd,
      env: GIT_IDENTITY,
    });
    expect(run.code, run.stderr).toBe(0);
    const logs = path.join(cwd, "tmp", "climpt", "logs", "fix-bug");
    const name = readdirSync(logs).find((entry) => entry.endsWith(".jsonl")) as string;
    const runId = name.slice(0, -".jsonl".length);
    const journal = path.join(logs, name);
    const lines = readFileSync(journal, "utf8").trimEnd().split("\n");
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    // Into a step_end, whose handoff `climpt show --json` prints and `climpt view` scrubs.
    const at = lines.findIndex((line) => line.startsWith('{"type":"step_end"'));
    lines[at] = (lines[at] as string).replace('"handoff":', `"handoff":${deep},"was":`);
    writeFileSync(journal, `${lines.join("\n")}\n`);
    const line = `line ${at + 1}`;

    const show = await spawnCli(["show", runId], { cwd });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stderr).toContain(`RUN-JOURNAL-004 at ${line}`);
    expect(show.stdout).toContain("completed: closure step");

    const json = await spawnCli(["show", runId, "--json"], { cwd });
    expect(json.code, json.stderr).toBe(0);
    const shown = JSON.parse(json.stdout) as { events: unknown[]; problems: { path: string }[] };
    expect(shown.events).toHaveLength(lines.length - 1);
    expect(shown.problems.map((problem) => problem.path)).toEqual([line]);

    const runs = await spawnCli(["runs"], { cwd });
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toContain(runId);
    expect(runs.stderr).toContain("RUN-JOURNAL-004");

    const page = path.join(cwd, "page.html");
    const view = await spawnCli(["view", runId, "--out", page], { cwd });
    expect(view.code, view.stderr).toBe(0);
    expect(readFileSync(page, "utf8")).toContain("RUN-JOURNAL-004");

    const resume = await spawnCli(["resume", runId, "--replay", CASSETTE], {
      cwd,
      env: GIT_IDENTITY,
    });
    expect(resume.code, resume.stderr).toBe(2);
    expect(resume.stderr).toContain(`RUN-JOURNAL-004 at ${line}`);
  });
});
