/**
 * Ordinary git inside the sandbox: what agents do from Bash keeps working, in a plain repository
 * (the run works in the checkout, on its current branch) and in a linked worktree (its own
 * branch); what committing produces reaches the repository, checked, and nothing else does.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";
import { attackRepo, fsckPasses, layoutOf, userGit } from "./git-attacks.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took 13 s beside two CPU loops at load 25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const EVERYDAY = [
  "echo change >> README.md",
  "echo new > new.txt",
  "git status --short",
  "git add -A && git commit -qm 'from the sandbox' && echo committed",
  "git log --format=%s -2",
  "echo more >> a.txt && git diff --stat",
  "git stash -q && git stash list | wc -l && git stash pop -q && echo popped",
  "git checkout -- a.txt && git status --short && echo restored",
].join("; ");

describe("git in the sandbox: ordinary work", () => {
  const tempDir = useTempDirs();

  for (const mode of ["plain", "worktree"] as const) {
    it(`${mode}: status, add, commit, log, diff, stash, checkout -- file; the commit is on the run's branch`, async () => {
      const dir = tempDir();
      const { repo } = attackRepo(dir);
      let work = repo;
      let branch = "feature";
      if (mode === "worktree") {
        work = path.join(dir, "wt");
        branch = "climpt/run";
        userGit(repo, "worktree", "add", "-q", "-b", branch, work, "main");
      }
      const tagsBefore = userGit(repo, "show-ref", "--tags");
      const box = toolboxFor(work);
      const result = await box.call("Bash", { command: EVERYDAY });
      expect(result.content).toContain("committed");
      expect(result.content).toContain("from the sandbox\nsecond");
      expect(result.content).toContain("a.txt | 1 +");
      expect(result.content).toContain("1\npopped");
      expect(result.content).toContain("restored");
      expect(result.content).not.toContain("TOOL-GIT");
      expect(result.isError).toBe(false);
      // The commit is in the repository, on the run's branch, its files in the working tree.
      expect(userGit(repo, "log", "--format=%s", "-1", branch)).toBe("from the sandbox");
      expect(userGit(work, "status", "--short")).toBe("");
      expect(readFileSync(path.join(work, "new.txt"), "utf8")).toBe("new\n");
      expect(userGit(repo, "rev-parse", "main")).toBe(userGit(repo, "rev-parse", "v1"));
      expect(userGit(repo, "show-ref", "--tags")).toBe(tagsBefore);
      expect(box.notices).toEqual([]);
      expect(fsckPasses(layoutOf(work))).toBe(true);

      // A later command sees the commit, and builds on it.
      const next = await box.call("Bash", {
        command:
          "git log --format=%s -1 && echo two > two.txt && git add two.txt && git commit -qm next",
      });
      expect(next.content).toBe("from the sandbox\n[exit code 0]");
      expect(userGit(repo, "log", "--format=%s", "-2", branch)).toBe("next\nfrom the sandbox");
    });
  }

  it("git switch -c works inside, is not kept, and the model is told (TOOL-GIT-001, a notice)", async () => {
    const dir = tempDir();
    const { repo } = attackRepo(dir);
    const box = toolboxFor(repo);
    const result = await box.call("Bash", {
      command:
        "git switch -q -c side && echo x > side.txt && git add side.txt && git commit -qm side && git branch --show-current",
    });
    expect(result.content).toContain(
      "side\nTOOL-GIT-001: only the run's own ref refs/heads/feature",
    );
    expect(result.content).toContain("refs/heads/side created at");
    expect(result.content).toContain(
      "HEAD pointed to refs/heads/side when the command ended; it stays on refs/heads/feature",
    );
    expect(userGit(repo, "branch", "--show-current")).toBe("feature");
    expect(userGit(repo, "branch", "--list", "side")).toBe("");
    expect(box.notices.map((notice) => notice.code)).toEqual(["TOOL-GIT-001"]);
    // The working tree keeps what the command left: side.txt, not committed on feature.
    // The index is the command's (kept): side.txt stays added.
    expect(userGit(repo, "status", "--short")).toBe("A  side.txt");
  });

  it("from a folder inside the repository, and with the repository in the hidden home directory", async () => {
    const dir = tempDir();
    const { repo } = attackRepo(dir);
    mkdirSync(path.join(repo, "sub"));
    const inner = await toolboxFor(path.join(repo, "sub")).call("Bash", {
      command:
        "echo s > s.txt && git add s.txt && git commit -qm from-sub && git log --format=%s -1",
    });
    expect(inner.content).toBe("from-sub\n[exit code 0]");
    expect(userGit(repo, "log", "--format=%s", "-1", "feature")).toBe("from-sub");

    // The sandbox hides $HOME; a worktree of a repository there still commits.
    const work = path.join(dir, "wt");
    userGit(repo, "worktree", "add", "-q", "-b", "climpt/home", work, "main");
    const home = await toolboxFor(work, { env: { HOME: dir } }).call("Bash", {
      command:
        "ls ~ | wc -l; echo h > h.txt && git add h.txt && git commit -qm from-home && echo ok",
    });
    expect(home.content).toBe("0\nok\n[exit code 0]");
    expect(userGit(repo, "log", "--format=%s", "-1", "climpt/home")).toBe("from-home");
  });

  it("an empty repository: the first commit creates the branch", async () => {
    const dir = tempDir();
    const repo = path.join(dir, "empty");
    execFileSync("git", ["init", "-q", "-b", "trunk", repo]);
    userGit(repo, "config", "user.name", "t");
    userGit(repo, "config", "user.email", "t@t.invalid");
    const result = await toolboxFor(repo).call("Bash", {
      command:
        "echo a > a.txt && git add a.txt && git commit -qm first && git log --oneline | wc -l",
    });
    expect(result.content).toBe("1\n[exit code 0]");
    expect(userGit(repo, "log", "--format=%s", "trunk")).toBe("first");
  });

  it("a detached HEAD is the run's ref: a commit moves it, no branch appears", async () => {
    const dir = tempDir();
    const { repo } = attackRepo(dir);
    userGit(repo, "checkout", "-q", "--detach", "main");
    const heads = userGit(repo, "for-each-ref", "refs/heads");
    await toolboxFor(repo).call("Bash", {
      command: "echo d > d.txt && git add d.txt && git commit -qm detached",
    });
    expect(userGit(repo, "log", "--format=%s", "-1", "HEAD")).toBe("detached");
    expect(userGit(repo, "for-each-ref", "refs/heads")).toBe(heads);
    expect(userGit(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("HEAD");
  });

  it("refuses what is not a commit on the run's branch, and a malformed object (TOOL-GIT-002)", async () => {
    const dir = tempDir();
    const { repo } = attackRepo(dir);
    const before = userGit(repo, "rev-parse", "feature");
    const box = toolboxFor(repo);
    const blob = await box.call("Bash", {
      // git itself refuses a blob on a branch; written by hand, the ref file says so anyway.
      command: "echo hi | git hash-object -w --stdin > .git/refs/heads/feature",
    });
    expect(blob.content).toContain("TOOL-GIT-002: refs/heads/feature was moved to");
    expect(blob.content).toContain("which is not a commit; it stays at");
    expect(userGit(repo, "rev-parse", "feature")).toBe(before);

    mkdirSync(path.join(dir, "junk"));
    writeFileSync(path.join(dir, "junk", "x"), "not zlib");
    const malformed = await box.call("Bash", {
      command:
        "mkdir -p .git/objects/ab && printf 'not zlib' > .git/objects/ab/cdef0123456789abcdef0123456789abcdef01; git commit -q --allow-empty -m ok",
    });
    expect(malformed.content).toContain(
      "TOOL-GIT-002: not kept: object abcdef0123456789abcdef0123456789abcdef01: not a zlib stream",
    );
    // The well-formed commit of the same command is kept.
    expect(userGit(repo, "log", "--format=%s", "-1", "feature")).toBe("ok");
    expect(fsckPasses(layoutOf(repo))).toBe(true);
  });
});
