import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FakeGh, installFakeGh } from "./install-fake-gh.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface GhRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function gh(fake: FakeGh, args: readonly string[], cwd: string): Promise<GhRun> {
  return new Promise((resolve) => {
    execFile(
      "gh",
      [...args],
      { env: { ...process.env, ...fake.env }, cwd, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  }).trim();
}

/** A checkout whose `origin` is a bare repository (GitHub's copy), with branch `fix` pushed. */
function repository(): { work: string; bare: string } {
  const root = mkdtempSync(path.join(tmpdir(), "climpt-fake-checks-"));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const bare = path.join(root, "origin.git");
  const work = path.join(root, "work");
  git(root, "init", "-q", "--bare", bare);
  git(root, "init", "-q", "-b", "main", work);
  writeFileSync(path.join(work, "a.txt"), "one\n");
  git(work, "add", ".");
  git(work, "commit", "-qm", "one");
  git(work, "remote", "add", "origin", bare);
  git(work, "push", "-q", "origin", "main:main", "main:fix");
  return { work, bare };
}

function pushCommit(work: string, text: string): string {
  writeFileSync(path.join(work, "a.txt"), text);
  git(work, "commit", "-qam", text.trim());
  git(work, "push", "-q", "origin", "HEAD:fix");
  return git(work, "rev-parse", "HEAD");
}

const FIELDS = "name,state,bucket,link,workflow";

describe("the fake gh: a pull request's check runs", () => {
  it("runs the scripted checks of each head commit: queued → in progress → failed with a log, then passing on the next head", async () => {
    const { work } = repository();
    const fake = installFakeGh({ repo: "acme/widgets" });
    cleanups.push(() => fake.remove());
    const created = await gh(
      fake,
      ["pr", "create", "--head", "fix", "--base", "main", "--title", "Fix", "--body", "b"],
      work,
    );
    expect(created.code).toBe(0);
    fake.scriptChecks("fix", [
      [
        { name: "test", conclusion: "failure", log: "FAIL src/a.test.ts\nexpected 1 to be 2" },
        { name: "lint", conclusion: "success" },
      ],
      [
        { name: "test", conclusion: "success" },
        { name: "lint", conclusion: "success", polls: 0 },
      ],
    ]);
    const first = await gh(fake, ["pr", "checks", "fix", "--json", FIELDS], work);
    expect(first.code).toBe(8);
    const rows = JSON.parse(first.stdout) as { state: string; bucket: string; link: string }[];
    expect(rows.map((row) => [row.state, row.bucket])).toEqual([
      ["QUEUED", "pending"],
      ["QUEUED", "pending"],
    ]);
    expect(rows[0]?.link).toMatch(
      /^https:\/\/github\.com\/acme\/widgets\/actions\/runs\/\d+\/job\/\d+$/,
    );
    const second = await gh(fake, ["pr", "checks", "1", "--json", "state,bucket"], work);
    expect(second.code).toBe(8);
    expect(JSON.parse(second.stdout)).toEqual([
      { state: "IN_PROGRESS", bucket: "pending" },
      { state: "IN_PROGRESS", bucket: "pending" },
    ]);
    // The run's log is not there before it completes, as on GitHub.
    const runId = /runs\/(\d+)\//.exec(rows[0]?.link ?? "")?.[1] ?? "";
    const early = await gh(fake, ["run", "view", runId, "--log-failed"], work);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("still in progress");
    const third = await gh(fake, ["pr", "checks", "fix", "--json", "name,bucket"], work);
    expect(third.code).toBe(1);
    expect(JSON.parse(third.stdout)).toEqual([
      { name: "test", bucket: "fail" },
      { name: "lint", bucket: "pass" },
    ]);
    const log = await gh(fake, ["run", "view", runId, "--log-failed"], work);
    expect(log.code).toBe(0);
    expect(log.stdout.split("\n")[1]).toMatch(/^test\tRun tests\t\S+ expected 1 to be 2$/);
    // The second head commit takes the script's second entry.
    const sha = pushCommit(work, "two\n");
    const view = await gh(fake, ["pr", "view", "fix", "--json", "headRefOid,url"], work);
    expect(JSON.parse(view.stdout)).toEqual({
      headRefOid: sha,
      url: "https://github.com/acme/widgets/pull/1",
    });
    const next = await gh(fake, ["pr", "checks", "fix", "--json", "name,state"], work);
    expect(next.code).toBe(8);
    expect(JSON.parse(next.stdout)).toEqual([
      { name: "test", state: "QUEUED" },
      { name: "lint", state: "SUCCESS" },
    ]);
    await gh(fake, ["pr", "checks", "fix", "--json", "name"], work);
    const green = await gh(fake, ["pr", "checks", "fix", "--json", "name,bucket"], work);
    expect(green.code).toBe(0);
    expect(JSON.parse(green.stdout)).toEqual([
      { name: "test", bucket: "pass" },
      { name: "lint", bucket: "pass" },
    ]);
    expect(fake.state().repos["acme/widgets"]?.heads?.fix).toHaveLength(2);
  });

  it("keeps a pending check pending forever, reports no checks before a script, and refuses unknown flags and fields", async () => {
    const { work, bare } = repository();
    const fake = installFakeGh({
      repo: "acme/widgets",
      git: bare,
      checks: [{ branch: "fix", heads: [[{ name: "e2e", conclusion: "pending" }]] }],
    });
    cleanups.push(() => fake.remove());
    await gh(fake, ["pr", "create", "-H", "other", "-t", "O", "-b", "b"], work);
    await gh(fake, ["pr", "create", "-H", "fix", "-t", "F", "-b", "b"], work);
    git(work, "push", "-q", "origin", "main:other");
    const none = await gh(fake, ["pr", "checks", "other", "--json", "name"], work);
    expect(none).toMatchObject({ code: 1, stdout: "" });
    expect(none.stderr).toContain("no checks reported on the 'other' branch");
    for (let poll = 0; poll < 6; poll++) {
      const run = await gh(fake, ["pr", "checks", "fix", "--json", "name,bucket"], "/");
      expect(run.code).toBe(8);
      expect(JSON.parse(run.stdout)).toEqual([{ name: "e2e", bucket: "pending" }]);
    }
    const flag = await gh(fake, ["pr", "checks", "fix", "--watch"], work);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("unknown flag: --watch");
    const field = await gh(fake, ["pr", "checks", "fix", "--json", "conclusion"], work);
    expect(field.code).toBe(1);
    expect(field.stderr).toContain('Unknown JSON field: "conclusion"');
    const runFlag = await gh(fake, ["run", "view", "1", "--log-failed", "--exit-status"], work);
    expect(runFlag.stderr).toContain("unknown flag: --exit-status");
  });
});
