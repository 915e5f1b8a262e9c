/**
 * settleGitAfterCommand on its own: the test plays the sandboxed command's part, running git
 * against the staging directory the way the sandbox shows it (the repository's objects borrowed),
 * and checks what the host takes back, including a second settle during the same command (what
 * the push broker does before it pushes).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../tools.test-helper.ts";
import { attackRepo, fsckPasses, layoutOf, userGit } from "./git-attacks.test-helper.ts";
import { refreshStagedRefs, settleGitAfterCommand } from "./git-settle.ts";
import { type GitStaging, prepareGitStaging } from "./git-staging.ts";

/** git as the sandboxed command runs it: the staging directory as its git directory. */
function stagedGit(staging: GitStaging, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: staging.repo.workTree,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_DIR: staging.dir,
      GIT_WORK_TREE: staging.repo.workTree,
      // Inside the sandbox the alternates file names the repository's objects where the
      // sandbox shows them; here they are where they are.
      GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(staging.repo.commonDir, "objects"),
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t.invalid",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t.invalid",
    },
  }).trim();
}

describe("settleGitAfterCommand", () => {
  const tempDir = useTempDirs();

  function staged(): { repo: string; staging: GitStaging } {
    const dir = tempDir();
    const { repo } = attackRepo(dir);
    const layoutDir = path.join(dir, "layout");
    mkdirSync(layoutDir);
    return { repo, staging: prepareGitStaging(layoutOf(repo), layoutDir) };
  }

  it("takes a commit during the command and another after it, each from where the last left", async () => {
    const { repo, staging } = staged();
    const start = userGit(repo, "rev-parse", "feature");
    writeFileSync(path.join(repo, "one.txt"), "1\n");
    stagedGit(staging, "add", "one.txt");
    stagedGit(staging, "commit", "-qm", "one");
    const first = await settleGitAfterCommand(staging);
    const one = userGit(repo, "rev-parse", "feature");
    expect(first).toMatchObject({
      kept: { ref: "refs/heads/feature", from: start, to: one },
      index: true,
      notKept: [],
      headMoved: null,
      problems: [],
    });
    expect(first.objects).toBeGreaterThanOrEqual(3);

    writeFileSync(path.join(repo, "two.txt"), "2\n");
    stagedGit(staging, "add", "two.txt");
    stagedGit(staging, "commit", "-qm", "two");
    const second = await settleGitAfterCommand(staging);
    expect(second.kept).toEqual({
      ref: "refs/heads/feature",
      from: one,
      to: userGit(repo, "rev-parse", "feature"),
    });
    expect(userGit(repo, "log", "--format=%s", "-2", "feature")).toBe("two\none");
    // Nothing new since: nothing to take.
    expect(await settleGitAfterCommand(staging)).toMatchObject({
      kept: null,
      objects: 0,
      index: false,
    });
    expect(userGit(repo, "status", "--short")).toBe("");
    expect(fsckPasses(layoutOf(repo))).toBe(true);
  });

  it("takes objects a gc inside packed; reports every other ref change once", async () => {
    const { repo, staging } = staged();
    writeFileSync(path.join(repo, "p.txt"), "p\n");
    stagedGit(staging, "add", "p.txt");
    stagedGit(staging, "commit", "-qm", "packed");
    stagedGit(staging, "tag", "v9");
    stagedGit(staging, "update-ref", "refs/heads/main", "HEAD");
    stagedGit(staging, "gc", "-q");
    const settled = await settleGitAfterCommand(staging);
    expect(settled.problems).toEqual([]);
    expect(userGit(repo, "log", "--format=%s", "-1", "feature")).toBe("packed");
    expect(settled.notKept.map((change) => [change.ref, change.change])).toEqual([
      ["refs/heads/main", "moved"],
      ["refs/tags/v9", "created"],
    ]);
    expect(userGit(repo, "tag", "--list", "v9")).toBe("");
    expect((await settleGitAfterCommand(staging)).notKept).toEqual([]);
    expect(fsckPasses(layoutOf(repo))).toBe(true);
  });

  it("shows the command refs the host changed meanwhile (a push's remote-tracking ref), never over its own", async () => {
    const { repo, staging } = staged();
    const main = userGit(repo, "rev-parse", "main");
    // The command commits and moves a tag; the host, meanwhile, moves the same tag elsewhere
    // and gets a remote-tracking ref (what a push the command asked for does).
    stagedGit(staging, "commit", "-q", "--allow-empty", "-m", "sandbox");
    const own = stagedGit(staging, "rev-parse", "HEAD");
    stagedGit(staging, "tag", "-f", "v1", own);
    const host = userGit(repo, "commit-tree", "HEAD^{tree}", "-m", "host");
    userGit(repo, "update-ref", "refs/remotes/origin/feature", main);
    userGit(repo, "update-ref", "refs/tags/v1", host);
    await refreshStagedRefs(staging);
    expect(stagedGit(staging, "rev-parse", "refs/remotes/origin/feature")).toBe(main);
    expect(stagedGit(staging, "rev-parse", "v1")).toBe(own);
    // The refreshed ref is no change of the command's; its moved tag is one, and is not kept.
    const settled = await settleGitAfterCommand(staging);
    expect(settled.notKept.map((change) => change.ref)).toEqual(["refs/tags/v1"]);
    expect(userGit(repo, "rev-parse", "v1")).toBe(host);
  });

  it("keeps the repository's index when the command left one git cannot read", async () => {
    const { repo, staging } = staged();
    const index = readFileSync(path.join(repo, ".git", "index"));
    writeFileSync(path.join(staging.dir, "index"), "DIRC junk");
    const settled = await settleGitAfterCommand(staging);
    expect(settled.index).toBe(false);
    expect(settled.problems[0]).toMatch(
      /^the index the command left is not one git reads \(.*index file/,
    );
    expect(readFileSync(path.join(repo, ".git", "index"))).toEqual(index);
  });

  it("never moves the branch over a change made meanwhile (compare-and-swap)", async () => {
    const { repo, staging } = staged();
    stagedGit(staging, "commit", "-q", "--allow-empty", "-m", "sandbox");
    userGit(repo, "commit", "-q", "--allow-empty", "-m", "meanwhile");
    const settled = await settleGitAfterCommand(staging);
    expect(settled.kept).toBeNull();
    expect(settled.problems[0]).toMatch(
      /^refs\/heads\/feature was moved to [0-9a-f]{40}, which the repository refused \(.*but expected/,
    );
    expect(userGit(repo, "log", "--format=%s", "-1", "feature")).toBe("meanwhile");
  });
});
