/**
 * `climpt init --workflow issue-to-pr` in a sample Node project, through the built CLI: the files
 * it writes, each agent validated with no warning and run offline with its own mock script (the
 * completion chain running the project's real test, type-check and lint commands), the workflow
 * loaded by the orchestrator with no problem, and the refusals (existing files, no test command).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseWorkflow } from "@climpt/orchestrator";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { CliIo } from "../cli-io.ts";
import { STARTER_AGENTS } from "../init/write-starter.ts";
import { main } from "../main.ts";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { onlyJson, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";
import { sampleProject } from "./starter.test-helper.ts";

// Four mock runs, each with the project's three checks in the sandbox: a minute alone on a busy
// machine. The limit detects a hang.
vi.setConfig({ testTimeout: 300_000 });

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function project(options: { broken?: boolean } = {}): string {
  const cwd = sampleProject("starter", options);
  temps.push(cwd);
  return cwd;
}

/** Every file under `dir` (but .git) with a hash of its content. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      if (name === ".git") continue;
      const file = path.join(folder, name);
      if (statSync(file).isDirectory()) walk(file);
      else
        files[path.relative(dir, file)] = createHash("sha256")
          .update(readFileSync(file))
          .digest("hex");
    }
  };
  walk(dir);
  return files;
}

async function inProcess(cwd: string, argv: readonly string[], answers?: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const asked: string[] = [];
  const io: CliIo = {
    stdout: { write: (text) => void stdout.push(text) },
    stderr: { write: (text) => void stderr.push(text), isTTY: false },
    env: {},
    cwd,
    ...(answers === undefined
      ? {}
      : {
          ask: async (question: string) => {
            asked.push(question);
            return answers.shift() ?? "";
          },
        }),
  };
  const code = await main(argv, io);
  return { code, stdout: stdout.join(""), stderr: stderr.join(""), asked };
}

describe("climpt init --workflow issue-to-pr", () => {
  it("writes the workflow, four agents with mock scripts and the Actions file; each agent validates with no warning and runs offline", async () => {
    const cwd = project();
    const init = await spawnCli(["init", "--workflow", "issue-to-pr", "--json"], { cwd });
    expect(init.code, init.stderr).toBe(0);
    const written = onlyJson(init.stdout) as {
      files: string[];
      checks: { kind: string; command: string; source: string }[];
    };
    expect(written.checks).toEqual([
      { kind: "test", command: "npm run test", source: "package.json scripts.test" },
      { kind: "typecheck", command: "npm run typecheck", source: "package.json scripts.typecheck" },
      { kind: "lint", command: "npm run lint", source: "package.json scripts.lint" },
    ]);
    expect(written.files).toContain(".agent/workflow.json");
    expect(written.files).toContain(".github/workflows/climpt.yml");
    for (const agent of STARTER_AGENTS)
      expect(written.files).toContain(`.agent/${agent}/mock.json`);

    // The orchestrator loads the workflow with no error and no warning (the ci phase's `checks`
    // included).
    const workflow = parseWorkflow(
      readFileSync(path.join(cwd, ".agent", "workflow.json"), "utf8"),
      ".agent/workflow.json",
    );
    expect(workflow.ok ? workflow.value.warnings : workflow.issues).toEqual([]);
    // The implementer's completion chain names the project's own commands.
    const registry = JSON.parse(
      readFileSync(path.join(cwd, ".agent", "implement", "steps_registry.json"), "utf8"),
    );
    expect(
      Object.values(registry.validators as Record<string, { command: string }>).map(
        (validator) => validator.command,
      ),
    ).toEqual(["git status --porcelain", "npm run test", "npm run typecheck", "npm run lint"]);

    // The steps init prints under "Next:" are followed as printed, in their order, up to the
    // push (the rest talks to GitHub): a commit placed after the offline runs made implement's
    // git-clean check refuse its close-out.
    const next = init.stderr
      .slice(init.stderr.indexOf("Next:\n") + "Next:\n".length)
      .split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim());
    const offline = next.slice(0, next.indexOf("git push"));
    expect(offline).toEqual([
      'git add -A && git commit -m "climpt: the issue-to-pr workflow"',
      ...STARTER_AGENTS.map(
        (agent) => `climpt run ${agent} --issue 1 --mock .agent/${agent}/mock.json`,
      ),
    ]);
    const runs = new Map<string, Awaited<ReturnType<typeof spawnCli>>>();
    for (const line of offline) {
      if (line.startsWith("git ")) {
        // As a user's shell runs it.
        execFileSync("sh", ["-c", line], { cwd, env: { ...process.env, ...GIT_IDENTITY } });
        continue;
      }
      const argv = line.split(" ").slice(1);
      runs.set(argv[1] ?? "", await spawnCli(argv, { cwd }));
    }
    for (const agent of STARTER_AGENTS) {
      const validate = await spawnCli(["validate", agent, "--json"], { cwd });
      expect(validate.code, `${agent}: ${validate.stdout}`).toBe(0);
      expect(onlyJson(validate.stdout), agent).toMatchObject({ problems: [], findings: [] });
    }
    for (const agent of STARTER_AGENTS) {
      const run = runs.get(agent);
      if (run === undefined) throw new Error(`init printed no offline run of ${agent}`);
      expect(run.code, `${agent}: ${run.stderr}`).toBe(0);
      expect(run.stderr, agent).toContain("✓ completed");
      if (agent === "implement" || agent === "ci-fixer") {
        for (const check of ["git-clean", "test", "typecheck", "lint"])
          expect(run.stderr, `${agent} ${check}`).toContain(`✓ ${check}`);
      }
    }
    expect(git(cwd, "status", "--porcelain")).toBe("");
  });

  it("the code-changing agents' completion chain runs the real checks: a failing test refuses the close-out", async () => {
    const cwd = project({ broken: true });
    expect((await spawnCli(["init", "--workflow", "issue-to-pr"], { cwd })).code).toBe(0);
    git(cwd, "add", "-A");
    git(cwd, "commit", "-qm", "climpt: the issue-to-pr workflow");
    const run = await spawnCli(
      ["run", "implement", "--issue", "1", "--mock", ".agent/implement/mock.json"],
      { cwd },
    );
    // The mock changes nothing, so the test fails on every attempt and the run ends refused.
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("✗ test");
    expect(run.stderr).toContain("AGENT_VALIDATION_ABORT");
  });

  it("never overwrites: any file of the set already there refuses the whole set, and nothing is written", async () => {
    const cwd = project();
    mkdirSync(path.join(cwd, ".github", "workflows"), { recursive: true });
    writeFileSync(path.join(cwd, ".github", "workflows", "climpt.yml"), "name: mine\n");
    mkdirSync(path.join(cwd, ".agent", "review"), { recursive: true });
    const before = snapshot(cwd);
    const refused = await spawnCli(["init", "--workflow", "issue-to-pr", "--json"], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("AC-CLI-010");
    expect(refused.stderr).toContain(".github/workflows/climpt.yml already exists");
    expect(refused.stderr).toContain(".agent/review already exists");
    expect(snapshot(cwd)).toEqual(before);

    const fresh = project();
    expect((await spawnCli(["init", "--workflow", "issue-to-pr"], { cwd: fresh })).code).toBe(0);
    const written = snapshot(fresh);
    const again = await spawnCli(["init", "--workflow", "issue-to-pr"], { cwd: fresh });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(".agent/workflow.json already exists");
    expect(snapshot(fresh)).toEqual(written);
  });

  it("with no test command found: AC-CLI-015 naming --test-command when nobody can be asked; the flags, or the answers at a terminal, instead", async () => {
    const cwd = tempDir("starter-bare");
    temps.push(cwd);
    git(cwd, "init", "-q", "-b", "main");
    const refused = await inProcess(cwd, ["init", "--workflow", "issue-to-pr"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("AC-CLI-015");
    expect(refused.stderr).toContain('--test-command "npm test"');
    expect(readdirSync(cwd)).toEqual([".git"]);

    const flagged = await inProcess(cwd, [
      "init",
      "--workflow",
      "issue-to-pr",
      "--test-command",
      "./check.sh",
      "--json",
    ]);
    expect(flagged.code, flagged.stderr).toBe(0);
    expect((onlyJson(flagged.stdout) as { checks: unknown[] }).checks).toEqual([
      { kind: "test", command: "./check.sh", source: "--test-command" },
    ]);

    const asked = tempDir("starter-ask");
    temps.push(asked);
    const answered = await inProcess(
      asked,
      ["init", "--workflow", "issue-to-pr", "--json"],
      ["cargo test", "", "cargo clippy"],
    );
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.asked).toEqual([
      "The repository's test command (empty: none): ",
      "The repository's type-check command (empty: none): ",
      "The repository's lint command (empty: none): ",
    ]);
    expect(
      (onlyJson(answered.stdout) as { checks: { command: string }[] }).checks.map(
        (check) => check.command,
      ),
    ).toEqual(["cargo test", "cargo clippy"]);
  });

  it("refuses --workflow with an agent name, and the command flags without --workflow", async () => {
    const cwd = project();
    const both = await inProcess(cwd, ["init", "my-agent", "--workflow", "issue-to-pr"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("AC-CLI-011");
    const stray = await inProcess(cwd, ["init", "my-agent", "--test-command", "npm test"]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain("AC-CLI-011");
    const neither = await inProcess(cwd, ["init"]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("AC-CLI-006");
  });
});
