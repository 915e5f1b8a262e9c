import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE_ROOT, loadFixture } from "../fixtures.test-helper.ts";
import { parseBranchName, parseRemoteStatus } from "./branch.ts";
import { extractFiles } from "./extract-files.ts";
import { parseMergeStatus } from "./merge-status.ts";

function stdoutOf(name: string): string {
  return loadFixture(name).stdout;
}

describe("parseBranchName on captured output", () => {
  it.each([
    ["git-branch-show-current", "main"],
    ["git-branch-show-current-detached", null],
    ["git-status-branch-ahead-behind", "main"],
    ["git-status-sb-ahead-behind", "main"],
    ["git-status-v2-branch-ahead-behind", "main"],
    ["git-status-branch-detached", null],
    ["git-status-branch-no-commits", "main"],
    ["git-status-branch-no-upstream", "feature/no-upstream"],
  ])("%s → %s", (name, branch) => {
    expect(parseBranchName(stdoutOf(name))).toBe(branch);
  });

  it("reads rev-parse and long status, and refuses output that is not a branch", () => {
    expect(parseBranchName("HEAD\n")).toBeNull();
    expect(parseBranchName("On branch fix/x\nnothing to commit\n")).toBe("fix/x");
    expect(parseBranchName("HEAD detached at 1a2b3c\n")).toBeNull();
    expect(parseBranchName(stdoutOf("prettier-list-different"))).toBeNull();
    expect(parseBranchName('{"mergeable":"MERGEABLE"}')).toBeNull();
    expect(parseBranchName("not a branch name\n")).toBeNull();
  });
});

describe("parseRemoteStatus on captured output", () => {
  it.each([
    "git-status-branch-ahead-behind",
    "git-status-sb-ahead-behind",
    "git-status-v2-branch-ahead-behind",
  ])("%s: ahead 1, behind 2", (name) => {
    expect(parseRemoteStatus(stdoutOf(name))).toEqual({
      branch: "main",
      upstream: "origin/main",
      ahead: 1,
      behind: 2,
      gone: false,
    });
  });

  it("no upstream, and a detached HEAD", () => {
    expect(parseRemoteStatus(stdoutOf("git-status-branch-no-upstream"))).toEqual({
      branch: "feature/no-upstream",
      upstream: null,
      ahead: 0,
      behind: 0,
      gone: false,
    });
    expect(parseRemoteStatus(stdoutOf("git-status-branch-detached")).branch).toBeNull();
  });

  it("a gone upstream and the long status wording", () => {
    expect(parseRemoteStatus("## topic...origin/topic [gone]\n")).toMatchObject({
      upstream: "origin/topic",
      gone: true,
    });
    expect(
      parseRemoteStatus(
        "On branch main\nYour branch and 'origin/main' have diverged,\nand have 3 and 4 different commits each, respectively.\n",
      ),
    ).toEqual({ branch: "main", upstream: "origin/main", ahead: 3, behind: 4, gone: false });
    expect(
      parseRemoteStatus(
        "On branch main\nYour branch is behind 'origin/main' by 2 commits, and can be fast-forwarded.\n",
      ),
    ).toMatchObject({ ahead: 0, behind: 2 });
  });
});

describe("parseMergeStatus on captured output", () => {
  it("git merge with conflicts", () => {
    expect(parseMergeStatus(stdoutOf("git-merge-conflict"))).toEqual({
      mergeable: false,
      conflicts: ["kept.txt", "modified.txt"],
      status: null,
    });
  });

  it.each(["git-merge-clean", "git-merge-up-to-date"])("%s is mergeable", (name) => {
    expect(parseMergeStatus(stdoutOf(name))).toEqual({
      mergeable: true,
      conflicts: [],
      status: null,
    });
  });

  it.each(["git-status-porcelain-conflict", "git-status-v2-conflict"])(
    "%s: unmerged entries are the conflicts",
    (name) => {
      expect(parseMergeStatus(stdoutOf(name))).toEqual({
        mergeable: false,
        conflicts: ["kept.txt", "modified.txt"],
        status: null,
      });
    },
  );

  it("git diff --name-only --diff-filter=U, recognised from the command", () => {
    const fixture = loadFixture("git-diff-name-only-conflict");
    expect(parseMergeStatus(fixture.stdout, "", fixture.command)).toEqual({
      mergeable: false,
      conflicts: ["kept.txt", "modified.txt"],
      status: null,
    });
    expect(parseMergeStatus("", "", fixture.command).mergeable).toBe(true);
  });

  it.each([
    ["gh-pr-view-mergeable-conflicting-synthetic", false, "DIRTY"],
    ["gh-pr-view-mergeable-clean-synthetic", true, "CLEAN"],
    ["gh-pr-view-mergeable-unknown-synthetic", null, "UNKNOWN"],
  ])("gh pr view --json (synthetic) %s", (name, mergeable, status) => {
    expect(parseMergeStatus(stdoutOf(name))).toEqual({ mergeable, conflicts: [], status });
  });

  it("other conflict kinds name their path", () => {
    const output = [
      "CONFLICT (modify/delete): gone.txt deleted in HEAD and modified in topic.  Version topic of gone.txt left in tree.",
      "CONFLICT (add/add): Merge conflict in both new.txt",
      "Automatic merge failed; fix conflicts and then commit the result.",
    ].join("\n");
    expect(parseMergeStatus(output)).toEqual({
      mergeable: false,
      conflicts: ["gone.txt", "both new.txt"],
      status: null,
    });
  });

  it("says nothing about output that is not about merging", () => {
    expect(parseMergeStatus("hello\n")).toEqual({ mergeable: null, conflicts: [], status: null });
  });
});

describe("extractFiles", () => {
  const project = mkdtempSync(join(tmpdir(), "climpt-files-"));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("finds the files of a tsc run, a path with a space included", () => {
    expect(extractFiles(stdoutOf("tsc-errors"), "", `${FIXTURE_ROOT}/tsc`)).toEqual([
      "src/math.ts",
      "src/user name.ts",
    ]);
  });

  it("turns absolute and file:// paths inside the project into relative ones, and drops node internals", () => {
    const fixture = loadFixture("node-test-spec");
    expect(extractFiles(fixture.stdout, fixture.stderr, `${FIXTURE_ROOT}/node-test`)).toEqual([
      "test/math.test.mjs",
    ]);
    const deno = loadFixture("deno-test");
    expect(extractFiles(deno.stdout, deno.stderr, `${FIXTURE_ROOT}/deno`)).toEqual([
      "math_test.ts",
    ]);
  });

  it("reads diff headers without the a/ b/ prefixes, renames included", () => {
    expect(extractFiles(stdoutOf("git-diff-head"))).toEqual([
      "added.txt",
      "both.txt",
      "deleted.txt",
      "modified.txt",
      "old-name.txt",
      "new name.txt",
      "src/index.ts",
      "staged.txt",
      "with space.txt",
    ]);
  });

  it("unquotes git-quoted paths", () => {
    expect(extractFiles(stdoutOf("git-status-porcelain-dirty"))).toContain("résumé ünïcode.md");
  });

  it("lists the files of every captured test runner", () => {
    const cases: [string, string, string[]][] = [
      [
        "vitest-failures",
        "vitest",
        ["test/math.test.ts", "test/strings.test.ts", "test/ok.test.ts"],
      ],
      ["jest-failures", "jest", ["__tests__/math.test.js", "__tests__/strings.test.js"]],
      ["pytest-failures", "pytest", ["tests/test_math.py"]],
      ["go-test-failures", "go", ["calc_test.go"]],
      ["eslint-stylish", "eslint", ["src/app.js"]],
      ["biome-check", "biome", ["src/lint.js", "src/ugly.js"]],
    ];
    for (const [name, dir, files] of cases) {
      const fixture = loadFixture(name);
      expect(extractFiles(fixture.stdout, fixture.stderr, `${FIXTURE_ROOT}/${dir}`), name).toEqual(
        files,
      );
    }
  });

  it("accepts a spaced path with no folder only when it exists in the working directory", () => {
    mkdirSync(join(project, "docs"));
    writeFileSync(join(project, "my notes.md"), "x");
    expect(extractFiles("my notes.md:3:1 - warning\n", "", project)).toEqual(["my notes.md"]);
    expect(extractFiles("Found error in src/a.ts:3:4\n", "", project)).toEqual(["src/a.ts"]);
  });

  it("ignores prose, URLs, versions and node_modules", () => {
    expect(
      extractFiles(
        "expected 2 to be 1 // Object.is equality, e.g. v4.1.12 in 0.46s\nsee https://example.com/a/b.html\n at x (node_modules/pkg/index.js:1:1)\n",
      ),
    ).toEqual([]);
  });
});
