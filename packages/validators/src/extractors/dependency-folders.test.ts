import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { dependencyOrBuildFolderOf } from "@climpt/model";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runValidator } from "../run-validator.ts";
import { validator } from "../validator.test-helper.ts";

// Real git in a temporary repository: a few seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let repo: string;

function git(...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: repo,
    stdio: "ignore",
  });
}

function write(file: string, text = "x\n"): void {
  mkdirSync(dirname(join(repo, file)), { recursive: true });
  writeFileSync(join(repo, file), text);
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "climpt-git-clean-"));
  git("init", "-q", "-b", "main");
  write("src/a.js");
  write("dist/keep.js");
  git("add", ".");
  git("commit", "-q", "-m", "start");
});

afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
});

describe("the git status extractors on a repository without a .gitignore", () => {
  it("never list an untracked dependency or build folder as something to commit", async () => {
    write("node_modules/left-pad/index.js");
    write("packages/app/node_modules/x/index.js");
    write(".venv/bin/python");
    write("target/debug/app");
    write("build/out.o");
    write("src/new.js");
    write("src/a.js", "changed\n");
    write("dist/keep.js", "rebuilt\n");
    const result = await runValidator(
      validator("git status --porcelain", "empty", {
        extractParams: { changedFiles: "parseChangedFiles", untrackedFiles: "parseUntrackedFiles" },
      }),
      { cwd: repo },
    );
    // The validator itself still fails: git status is not empty. Only the lists change.
    expect(result.passed).toBe(false);
    expect(result.stdout).toContain("?? node_modules/");
    expect(result.extracted.untrackedFiles).toEqual(["packages/", "src/new.js"]);
    // A tracked file in dist/ stays: the project commits it on purpose.
    expect(result.extracted.changedFiles).toEqual([
      "dist/keep.js",
      "src/a.js",
      "packages/",
      "src/new.js",
    ]);
  });

  it("with -uall, leave out each file inside such a folder, at any depth", async () => {
    write("node_modules/left-pad/index.js");
    write("packages/app/node_modules/x/index.js");
    write("packages/app/src/index.ts");
    const result = await runValidator(
      validator("git status --porcelain -uall", "empty", {
        extractParams: { untrackedFiles: "parseUntrackedFiles" },
      }),
      { cwd: repo },
    );
    expect(result.extracted.untrackedFiles).toEqual(["packages/app/src/index.ts"]);
  });
});

describe("dependencyOrBuildFolderOf", () => {
  it("names the outermost such folder of a path, and nothing for other paths", () => {
    expect(dependencyOrBuildFolderOf("node_modules/")).toBe("node_modules/");
    expect(dependencyOrBuildFolderOf("a/dist/x/build/y.js")).toBe("a/dist/");
    expect(dependencyOrBuildFolderOf("src/build.ts")).toBeUndefined();
    expect(dependencyOrBuildFolderOf("dist")).toBeUndefined(); // a file named dist
    expect(dependencyOrBuildFolderOf("vendor/lib.go")).toBeUndefined();
  });
});
