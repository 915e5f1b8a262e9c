/**
 * Landing a run's work with real git: merged into the branch the orchestrator started from, or
 * pushed with a pull request (the fake gh); a conflict, uncommitted changes on the base and a
 * refused push are coded results that leave the base as it was.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { installFakeGh } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { GhClient } from "../github/gh-client.ts";
import type { LandRequest } from "./dispatcher.ts";
import { writeArtifacts } from "./issue-inputs.ts";
import { RunnerDispatcher } from "./runner-dispatcher.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...IDENTITY },
  }).trim();
}

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "climpt-land-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A repository on `main` with one commit, and an issue branch with one more, changing `file`. */
function repoWithIssueBranch(file = "notes.md", text = "issue 7\n"): string {
  const dir = path.join(scratch(), "repo");
  mkdirSync(dir);
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(path.join(dir, "README.md"), "# r\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "initial");
  git(dir, "checkout", "-qb", "climpt/issue-7");
  writeFileSync(path.join(dir, file), text);
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "issue 7");
  git(dir, "checkout", "-q", "main");
  return dir;
}

const request = (landing: LandRequest["landing"] = null): LandRequest => ({
  issue: { repo: "acme/widgets", number: 7, title: "Write the note" },
  branch: "climpt/issue-7",
  landing,
});

describe("RunnerDispatcher.land", () => {
  it("merges the issue's branch into the branch the repository was on, once", async () => {
    const repo = repoWithIssueBranch();
    const dispatcher = new RunnerDispatcher({ repoDir: repo });
    const landed = await dispatcher.land(request());
    expect(landed).toEqual({
      ok: true,
      value: { mode: "merge", base: "main", commits: 1, pushed: null, pullRequest: null },
    });
    expect(readFileSync(path.join(repo, "notes.md"), "utf8")).toBe("issue 7\n");
    expect(git(repo, "log", "-1", "--format=%s")).toBe("Merge branch 'climpt/issue-7' into main");
    const again = await dispatcher.land(request());
    expect(again.ok && again.value.commits).toBe(0);
  });

  it("runs no hook the issue's branch brings: a husky-style core.hooksPath names a tracked folder", async () => {
    // The branch's work is the model's: with the repository's `core.hooksPath = .githooks`, a
    // `post-merge` hook committed there would run on the host, with the user's credentials,
    // when the work lands. Host git (@climpt/host-git) runs no hook.
    const marker = path.join(scratch(), "hook-ran");
    const repo = repoWithIssueBranch();
    git(repo, "config", "core.hooksPath", ".githooks");
    git(repo, "checkout", "-q", "climpt/issue-7");
    mkdirSync(path.join(repo, ".githooks"));
    writeFileSync(
      path.join(repo, ".githooks/post-merge"),
      `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\n`,
      { mode: 0o755 },
    );
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "a hook");
    git(repo, "checkout", "-q", "main");
    const landed = await new RunnerDispatcher({ repoDir: repo }).land(request());
    expect(landed.ok && landed.value.commits).toBe(2);
    expect(existsSync(path.join(repo, ".githooks/post-merge"))).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it("reports a conflict (ORC-LAND-001) and leaves the base as it was", async () => {
    const repo = repoWithIssueBranch("README.md", "# theirs\n");
    writeFileSync(path.join(repo, "README.md"), "# ours\n");
    git(repo, "commit", "-qam", "ours");
    const head = git(repo, "rev-parse", "HEAD");
    const landed = await new RunnerDispatcher({ repoDir: repo }).land(request());
    expect(landed.ok).toBe(false);
    expect(!landed.ok && landed.error.code).toBe("ORC-LAND-001");
    expect(!landed.ok && landed.error.message).toContain("README.md");
    expect(git(repo, "rev-parse", "HEAD")).toBe(head);
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  it("refuses to merge into a base with uncommitted changes (ORC-LAND-002), and on a detached HEAD", async () => {
    const repo = repoWithIssueBranch();
    writeFileSync(path.join(repo, "README.md"), "# edited, not committed\n");
    const dirty = await new RunnerDispatcher({ repoDir: repo }).land(request());
    expect(!dirty.ok && dirty.error.code).toBe("ORC-LAND-002");
    expect(readFileSync(path.join(repo, "README.md"), "utf8")).toBe("# edited, not committed\n");
    git(repo, "checkout", "-q", ".");
    git(repo, "checkout", "-q", "--detach");
    const detached = await new RunnerDispatcher({ repoDir: repo }).land(request());
    expect(!detached.ok && detached.error.code).toBe("ORC-LAND-002");
    expect(!detached.ok && detached.error.message).toContain("detached HEAD");
  });

  it("pushes the branch and opens a pull request that closes the issue, reusing an open one", async () => {
    const repo = repoWithIssueBranch();
    const remote = path.join(path.dirname(repo), "remote.git");
    git(path.dirname(repo), "init", "-q", "--bare", remote);
    git(repo, "remote", "add", "origin", remote);
    const fake = installFakeGh({ repo: "acme/widgets" });
    cleanups.push(() => fake.remove());
    const gh = new GhClient({
      cwd: repo,
      env: { ...process.env, ...fake.env },
      repo: "acme/widgets",
    });
    const dispatcher = new RunnerDispatcher({ repoDir: repo, gh });
    const landing = { mode: "pull-request" as const, remote: "origin", base: null };
    const evidence =
      "| validator | command | result |\n| --- | --- | --- |\n| tests | `npm test` | passed |";
    const landed = await dispatcher.land({ ...request(landing), evidence });
    expect(landed.ok).toBe(true);
    if (!landed.ok) return;
    expect(landed.value).toMatchObject({
      mode: "pull-request",
      base: "main",
      commits: 1,
      pushed: "origin/climpt/issue-7",
    });
    expect(landed.value.pullRequest).toMatch(/\/pull\/\d+$/);
    expect(git(remote, "rev-parse", "climpt/issue-7")).toBe(
      git(repo, "rev-parse", "climpt/issue-7"),
    );
    const prs = fake.state().repos["acme/widgets"]?.pullRequests ?? [];
    expect(prs).toHaveLength(1);
    expect(prs[0]).toMatchObject({
      headRefName: "climpt/issue-7",
      baseRefName: "main",
      title: "Write the note",
    });
    expect(prs[0]?.body).toContain("Closes #7.");
    // The run's completion ledger: the evidence of done where the reviewer looks.
    expect(prs[0]?.body).toContain(evidence);
    // The base is untouched: the work is proposed, not merged.
    expect(existsSync(path.join(repo, "notes.md"))).toBe(false);
    const again = await dispatcher.land(request(landing));
    expect(again.ok && again.value.pullRequest).toBe(landed.value.pullRequest);
    expect(fake.state().repos["acme/widgets"]?.pullRequests).toHaveLength(1);
  });

  it("reports a refused push (ORC-LAND-003)", async () => {
    const repo = repoWithIssueBranch();
    const landed = await new RunnerDispatcher({ repoDir: repo }).land(
      request({ mode: "push", remote: "nowhere", base: null }),
    );
    expect(!landed.ok && landed.error.code).toBe("ORC-LAND-003");
  });
});

describe("writing an issue's artifacts into its worktree", () => {
  it("writes them under the worktree, and never through a symbolic link leading out of it", async () => {
    const worktree = scratch();
    const outside = scratch();
    await writeArtifacts(worktree, [{ handoff: "h", path: "tmp/emits/1.json", content: "{}\n" }]);
    expect(readFileSync(path.join(worktree, "tmp", "emits", "1.json"), "utf8")).toBe("{}\n");
    symlinkSync(outside, path.join(worktree, "out"));
    await expect(
      writeArtifacts(worktree, [{ handoff: "h", path: "out/x.json", content: "{}\n" }]),
    ).rejects.toThrow(/leads out of the worktree/);
    expect(existsSync(path.join(outside, "x.json"))).toBe(false);
    // A link at the artifact's own path is replaced, not followed.
    symlinkSync(path.join(outside, "target.json"), path.join(worktree, "tmp", "emits", "2.json"));
    await writeArtifacts(worktree, [{ handoff: "h", path: "tmp/emits/2.json", content: "[]\n" }]);
    expect(existsSync(path.join(outside, "target.json"))).toBe(false);
    expect(readFileSync(path.join(worktree, "tmp", "emits", "2.json"), "utf8")).toBe("[]\n");
    await expect(
      writeArtifacts(worktree, [{ handoff: "h", path: "../x.json", content: "{}\n" }]),
    ).rejects.toThrow(/\.\./);
  });
});
