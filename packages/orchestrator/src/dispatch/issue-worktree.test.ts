/**
 * An issue's worktree is reused by every phase of the issue, so the next phase's host git runs
 * where the last phase's model worked. Nothing that model could have left in the worktree's git
 * directory (a commondir naming a copy whose config runs a command) may run on the host.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureIssueWorktree, pushIssueBranch, worktreeHead } from "./issue-worktree.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t.invalid",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t.invalid",
    },
  }).trim();
}

describe("ensureIssueWorktree on a worktree an earlier phase's model worked in", () => {
  it("refuses (coded) to run git where the model planted a commondir; resets it once restored", async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-issue-wt-")));
    made.push(dir);
    const repo = path.join(dir, "repo");
    const remote = path.join(dir, "remote.git");
    execFileSync("git", ["init", "-q", "-b", "main", repo]);
    writeFileSync(path.join(repo, "README.md"), "hello\n");
    git(repo, "add", ".");
    git(repo, "commit", "-qm", "first");
    git(dir, "init", "-q", "--bare", remote);
    git(repo, "remote", "add", "origin", remote);
    const root = path.join(dir, "worktrees");
    const first = await ensureIssueWorktree({ repoDir: repo, issue: 7, root });
    writeFileSync(path.join(first.path, "work.txt"), "phase one\n");
    git(first.path, "add", "work.txt");
    git(first.path, "commit", "-qm", "phase one");
    await pushIssueBranch(first.path, "origin", first.branch, repo);
    const pushed = await worktreeHead(first.path, repo);

    // What the phase's model could have left, had its sandbox let it write the git directory.
    const canary = path.join(dir, "ran");
    const common = path.join(repo, ".git");
    const evil = path.join(first.path, ".evil");
    mkdirSync(evil);
    for (const part of ["objects", "refs", "HEAD"]) {
      cpSync(path.join(common, part), path.join(evil, part), { recursive: true });
    }
    writeFileSync(
      path.join(evil, "config"),
      `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${canary}; false"\n`,
    );
    writeFileSync(path.join(common, "worktrees", "issue-7", "commondir"), evil);
    writeFileSync(path.join(first.path, "work.txt"), "changed by the model\n");

    // Host git does not run in a git directory whose commondir names another place: coded.
    const refused = await ensureIssueWorktree({
      repoDir: repo,
      issue: 7,
      root,
      remote: "origin",
    }).then(
      () => "it ran git there",
      (error: unknown) => error,
    );
    expect(existsSync(canary), "the payload ran").toBe(false);
    expect(refused).toMatchObject({ code: "ORC-DISPATCH-003" });
    expect(String(refused)).toMatch(/commondir names .*\.evil, not the repository's/);

    // Restored (as `git worktree repair` or the user would), the next phase resets it.
    writeFileSync(path.join(common, "worktrees", "issue-7", "commondir"), "../..\n");
    const again = await ensureIssueWorktree({ repoDir: repo, issue: 7, root, remote: "origin" });
    expect(again).toEqual(first);
    expect(existsSync(evil)).toBe(false);
    expect(await worktreeHead(first.path, repo)).toBe(pushed);
    expect(existsSync(canary), "the payload ran").toBe(false);
  });
});

/** The git commands (top-level and the ones git ran itself) `action` made, from GIT_TRACE. */
async function traced<T>(dir: string, action: () => Promise<T>): Promise<[T, string[]]> {
  const log = path.join(dir, `trace-${made.length}-${Date.now()}.log`);
  const before = process.env.GIT_TRACE;
  process.env.GIT_TRACE = log;
  try {
    const value = await action();
    const text = existsSync(log) ? readFileSync(log, "utf8") : "";
    const commands = [...text.matchAll(/trace: built-in: git (.*)$/gm)].map((m) => m[1] ?? "");
    return [value, commands];
  } finally {
    if (before === undefined) delete process.env.GIT_TRACE;
    else process.env.GIT_TRACE = before;
  }
}

function repository(): { dir: string; repo: string; root: string } {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-issue-wt-")));
  made.push(dir);
  const repo = path.join(dir, "repo");
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  writeFileSync(path.join(repo, "README.md"), "hello\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "first");
  return { dir, repo, root: path.join(dir, "worktrees") };
}

describe("ensureIssueWorktree's git processes", () => {
  it("makes a new issue's worktree with the add alone: no prune, no branch listing first", async () => {
    const { dir, repo, root } = repository();
    const [made7, commands] = await traced(dir, () =>
      ensureIssueWorktree({ repoDir: repo, issue: 7, root }),
    );
    expect(git(made7.path, "rev-parse", "--abbrev-ref", "HEAD")).toBe("climpt/issue-7");
    expect(
      commands.filter((command) => /^worktree (prune|add)|^branch --list/.test(command)),
    ).toEqual([expect.stringMatching(/^worktree add -b climpt\/issue-7 /)]);
  });

  it("still finds a worktree folder deleted by hand (prune) and an issue branch left without a worktree", async () => {
    const { dir, repo, root } = repository();
    const first = await ensureIssueWorktree({ repoDir: repo, issue: 8, root });
    writeFileSync(path.join(first.path, "work.txt"), "phase one\n");
    git(first.path, "add", "work.txt");
    git(first.path, "commit", "-qm", "phase one");
    const head = git(first.path, "rev-parse", "HEAD");
    // Deleted by hand: its registration (and the branch it holds) stays behind.
    rmSync(first.path, { recursive: true, force: true });
    const [again, commands] = await traced(dir, () =>
      ensureIssueWorktree({ repoDir: repo, issue: 8, root }),
    );
    expect(again).toEqual(first);
    expect(commands.some((command) => command.startsWith("worktree prune"))).toBe(true);
    // The branch kept the phase's commit: the worktree is made from it, not from HEAD.
    expect(git(again.path, "rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(path.join(again.path, "work.txt"), "utf8")).toBe("phase one\n");
  });
});
