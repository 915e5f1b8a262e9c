import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadFixture } from "../fixtures.test-helper.ts";
import { capDiff, generateDiff, looksLikeDiff } from "./diff.ts";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "climpt-diff-"));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

function git(...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], {
    cwd,
    stdio: "ignore",
  });
}

describe("generateDiff", () => {
  it("uses the validator's stdout when it is a diff", async () => {
    const { stdout } = loadFixture("git-diff");
    expect(looksLikeDiff(stdout)).toBe(true);
    expect(await generateDiff({ stdout, stderr: "", exitCode: 0, cwd })).toBe(stdout);
  });

  it("runs git diff HEAD when the output is not a diff, staged and unstaged together", async () => {
    git("init", "-q");
    writeFileSync(join(cwd, "a.txt"), "one\n");
    writeFileSync(join(cwd, "b.txt"), "one\n");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    writeFileSync(join(cwd, "a.txt"), "two\n");
    writeFileSync(join(cwd, "b.txt"), "staged\n");
    git("add", "b.txt");
    const diff = await generateDiff({
      stdout: " M a.txt\nM  b.txt\n",
      stderr: "",
      exitCode: 0,
      cwd,
    });
    expect(diff).toContain("diff --git a/a.txt b/a.txt");
    expect(diff).toContain("+staged");
  });

  it("works in a repository without commits and is empty outside one", async () => {
    git("init", "-q");
    writeFileSync(join(cwd, "a.txt"), "new\n");
    git("add", "a.txt");
    expect(await generateDiff({ stdout: "A  a.txt", stderr: "", exitCode: 0, cwd })).toContain(
      "+new",
    );
    const outside = mkdtempSync(join(tmpdir(), "climpt-nodiff-"));
    try {
      const input = {
        stdout: "",
        stderr: "",
        exitCode: 0,
        cwd: outside,
        env: { ...process.env, GIT_CEILING_DIRECTORIES: outside } as Record<string, string>,
      };
      expect(await generateDiff(input)).toBe("");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("generateDiff in a working tree the model wrote", () => {
  it("runs no fsmonitor from a commondir planted in .git (the issue's attack)", async () => {
    git("init", "-q");
    writeFileSync(join(cwd, "a.txt"), "one\n");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    const canary = join(mkdtempSync(join(tmpdir(), "climpt-canary-")), "ran");
    const evil = join(cwd, ".evil");
    mkdirSync(evil);
    for (const part of ["objects", "refs", "HEAD"]) {
      cpSync(join(cwd, ".git", part), join(evil, part), { recursive: true });
    }
    writeFileSync(
      join(evil, "config"),
      `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${canary}; false"\n`,
    );
    writeFileSync(join(cwd, ".git", "commondir"), evil);
    writeFileSync(join(cwd, "a.txt"), "two\n");
    // git is not run at all in a repository whose .git grew a commondir (GIT-HOST-004): no diff.
    const diff = await generateDiff({ stdout: "", stderr: "", exitCode: 1, cwd });
    expect(diff).toBe("");
    expect(existsSync(canary)).toBe(false);
    // What git as it was run before does with the same repository.
    try {
      execFileSync("git", ["diff", "--no-color", "--no-ext-diff", "HEAD"], {
        cwd,
        stdio: "ignore",
      });
    } catch {
      // It ran what it ran.
    }
    expect(existsSync(canary)).toBe(true);
    rmSync(dirname(canary), { recursive: true, force: true });
  });
});

describe("capDiff", () => {
  it("cuts at a line boundary and says how much was left out", () => {
    const diff = `${"+line\n".repeat(100)}`;
    const capped = capDiff(diff, 100);
    expect(
      capped
        .split("\n")
        .slice(0, -2)
        .every((line) => line === "+line"),
    ).toBe(true);
    const kept = capped.slice(0, capped.indexOf("[diff truncated"));
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(capped).toContain(`[diff truncated: ${diff.length - kept.length} more characters]`);
    expect(capDiff("small\n", 100)).toBe("small\n");
  });
});
