import { execFile } from "node:child_process";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  type FakeAnthropic,
  type FakeGh,
  installFakeGh,
  loadFakeScript,
  startFakeAnthropic,
} from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { onlyJson, REPO_ROOT, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// The demo run (the replayed cassette), then verify runs the real validators in the sandbox
// several times over: the file's three tests took 137 s together in the full CLI run at load.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const repos: string[] = [];
const closers: Array<() => Promise<void> | void> = [];
/** The demo's agent lives in the examples, not under the sample's .agent/. */
const AGENTS = ["--agent-dir", path.join(REPO_ROOT, "examples", "agents")];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  for (const dir of repos) rmSync(dir, { recursive: true, force: true });
});

function sampleRepo(): string {
  const dir = tempDir("verify-sample");
  repos.push(dir);
  cpSync(path.join(REPO_ROOT, "examples", "sample-repo"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.name", "climpt-test");
  git(dir, "config", "user.email", "test@climpt.invalid");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "textkit: initial");
  return dir;
}

describe("climpt verify on the demo's run", () => {
  it("finds the ledger holding on its commit, failing on the buggy one, and stale once the branch moves", async () => {
    const repo = sampleRepo();
    const initial = git(repo, "rev-parse", "HEAD");
    const ran = await spawnCli(
      [
        "run",
        "examples/agents/fix-bug",
        "--cwd",
        repo,
        "--issue",
        "1",
        "--replay",
        "examples/cassettes/fix-bug.jsonl",
        "--json",
      ],
      { env: GIT_IDENTITY },
    );
    expect(ran.code, ran.stderr).toBe(0);
    const result = onlyJson(ran.stdout) as {
      runId: string;
      ledger: { passed: boolean; commit: { sha: string; clean: boolean } }[];
    };
    const head = git(repo, "rev-parse", "HEAD");
    expect(result.ledger.at(-1)).toMatchObject({
      passed: true,
      commit: { sha: head, clean: true },
    });

    // climpt show prints the ledger, with the commit and the command that re-checks it.
    const shown = await spawnCli(["show", result.runId, "--cwd", repo, "--ledger", ...AGENTS]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      `closure.fix attempt 2 at ${head.slice(0, 12)} on main (clean): passed`,
    );
    expect(shown.stdout).toMatch(/✗ git-clean\s+exit 0/);
    expect(shown.stdout).toContain("changedFiles: src/slugify.js");
    expect(shown.stdout).toContain(`climpt verify ${result.runId}`);

    // On its own commit every validator still holds.
    const held = await spawnCli(["verify", result.runId, "--cwd", repo, ...AGENTS]);
    expect(held.code, held.stderr + held.stdout).toBe(0);
    expect(held.stdout).toMatch(/✓ git-clean\s+holds/);
    expect(held.stdout).toMatch(/✓ tests\s+holds/);
    expect(held.stdout).toContain("The ledger holds.");
    // The scratch worktree is gone again.
    expect(git(repo, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);

    // On the commit before the fix the tests fail: the result does not hold there.
    const buggy = await spawnCli([
      "verify",
      result.runId,
      "--cwd",
      repo,
      "--at",
      initial,
      "--json",
      ...AGENTS,
    ]);
    expect(buggy.code, buggy.stderr).toBe(1);
    const report = (onlyJson(buggy.stdout) as { report: Record<string, unknown> }).report as {
      sha: string;
      holds: boolean;
      validators: { validator: string; holds: boolean; now: { exitCode: number } }[];
    };
    expect(report.sha).toBe(initial);
    expect(report.holds).toBe(false);
    expect(report.validators.map((item) => `${item.validator}:${item.holds}`)).toEqual([
      "git-clean:true",
      "tests:false",
    ]);

    // A commit after verification: the branch moved past the verified commit, so it is stale.
    writeFileSync(path.join(repo, "NOTES.md"), "later\n");
    git(repo, "add", "NOTES.md");
    git(repo, "commit", "-qm", "later work");
    const stale = await spawnCli(["verify", result.runId, "--cwd", repo, ...AGENTS]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain(`stale: the run's branch main moved past ${head.slice(0, 12)}`);
    expect(stale.stdout).toContain("The ledger does not hold.");

    // A run id with no ledger is a coded error.
    const unknown = await spawnCli(["verify", "no-such-run", "--cwd", repo, ...AGENTS]);
    expect(unknown.code).not.toBe(0);
  });
});

describe("the ledger on GitHub: a worktree run that opens a pull request", () => {
  it("puts the ledger table in the PR body, sets climpt/verified on the verified commit, and marks the moved head stale", async () => {
    const repo = sampleRepo();
    const bare = tempDir("verify-origin");
    repos.push(bare);
    git(bare, "init", "-q", "--bare");
    git(repo, "remote", "add", "origin", bare);
    git(repo, "push", "-q", "origin", "main");
    const gh: FakeGh = installFakeGh({ repo: "climpt-test/sample" });
    closers.push(() => gh.remove());
    const fake: FakeAnthropic = await startFakeAnthropic();
    closers.push(() => fake.close());
    const script = await loadFakeScript(path.join(REPO_ROOT, "examples/fake-models/fix-bug.json"));
    fake.enqueue(...script.replies);
    const env = {
      ...GIT_IDENTITY,
      ...gh.env,
      GH_REPO: "climpt-test/sample",
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "test-key",
    };
    const ran = await spawnCli(
      [
        "run",
        "examples/agents/fix-bug",
        "--cwd",
        repo,
        "--issue",
        "1",
        "--worktree",
        "--create-pr",
        "--pr-target",
        "main",
        "--json",
      ],
      { env },
    );
    expect(ran.code, ran.stderr).toBe(0);
    const result = onlyJson(ran.stdout) as {
      runId: string;
      worktree: { branch: string; pr: { url: string } };
      ledger: { passed: boolean; commit: { sha: string; branch: string } }[];
    };
    const verified = result.ledger.at(-1)?.commit;
    expect(verified?.branch).toBe(result.worktree.branch);
    expect(git(repo, "rev-parse", result.worktree.branch)).toBe(verified?.sha);

    // The pull request's body holds the ledger: one row per validator, the commit, the re-check.
    const state = gh.state().repos["climpt-test/sample"];
    const body = state?.pullRequests[0]?.body ?? "";
    expect(body).toContain("| validator | command | result | commit | time |");
    expect(body).toMatch(
      /\| git-clean \| `git status --porcelain` \| ✅ passed \(exit 0\) \| `[0-9a-f]{12}` \| \d+\.\d s \|/,
    );
    expect(body).toContain("| tests | `node test/run.js` | ✅ passed (exit 0) |");
    expect(body).toContain(`on commit ${verified?.sha}`);
    expect(body).toContain(`Re-check: \`climpt verify ${result.runId}\``);
    // The commit status on the verified commit, set by the host's gh.
    expect(state?.statuses).toEqual([
      expect.objectContaining({ sha: verified?.sha, state: "success", context: "climpt/verified" }),
    ]);

    const agents = ["--agent-dir", path.join(REPO_ROOT, "examples", "agents")];
    const held = await spawnCli(["verify", result.runId, "--cwd", repo, ...agents], { env });
    expect(held.code, held.stderr + held.stdout).toBe(0);

    // Someone pushes to the branch after verification.
    git(repo, "checkout", "-q", result.worktree.branch);
    writeFileSync(path.join(repo, "NOTES.md"), "pushed later\n");
    git(repo, "add", "NOTES.md");
    git(repo, "commit", "-qm", "later push");
    git(repo, "push", "-q", "origin", result.worktree.branch);
    const moved = git(repo, "rev-parse", "HEAD");
    git(repo, "checkout", "-q", "main");
    const stale = await spawnCli(["verify", result.runId, "--cwd", repo, ...agents], { env });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain("stale:");
    expect(stale.stdout).toContain(`marked climpt/verified failure on ${moved.slice(0, 12)}`);
    const statuses = gh.state().repos["climpt-test/sample"]?.statuses ?? [];
    expect(statuses.at(-1)).toMatchObject({
      sha: moved,
      state: "failure",
      context: "climpt/verified",
    });
    expect(statuses.at(-1)?.description).toContain("stale");
  });
});

describe("pnpm demo", () => {
  it("ends with the completion ledger it produced, and its re-check command", async () => {
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [path.join(REPO_ROOT, "scripts", "demo.mjs")],
        { cwd: REPO_ROOT, env: { ...process.env, ...GIT_IDENTITY }, encoding: "utf8" },
        (error, _stdout, stderr) => resolve({ code: error === null ? 0 : 1, stderr }),
      );
    });
    const repo = /repository: (\S+)/.exec(stderr)?.[1];
    if (repo !== undefined) repos.push(repo);
    expect(code, stderr).toBe(0);
    const lines = stderr.trimEnd().split("\n");
    const start = lines.lastIndexOf("Completion ledger:");
    expect(start).toBeGreaterThan(0);
    expect(
      lines.slice(start + 1).map((line) => line.trim().split(/\s+/).slice(0, 4).join(" ")),
    ).toEqual([
      expect.stringMatching(/^closure\.fix attempt 1 at$/),
      "✗ git-clean exit 0",
      "✓ tests exit 0",
      expect.stringMatching(/^closure\.fix attempt 2 at$/),
      "✓ git-clean exit 0",
      "✓ tests exit 0",
      expect.stringMatching(/^Re-check it: pnpm climpt$/),
    ]);
    expect(lines.at(-1)).toContain(`--cwd ${repo} --agent-dir examples/agents`);
  });
});
