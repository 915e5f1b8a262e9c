import { describe, expect, it } from "vitest";
import { loadFixture } from "../fixtures.test-helper.ts";
import {
  changedFiles,
  parseGitStatus,
  stagedFiles,
  unmergedFiles,
  unstagedFiles,
  untrackedFiles,
} from "./git-status.ts";

const SPECIAL_UNTRACKED = ["résumé ünïcode.md", 'say "hi".txt', "tab\tname.txt"];

describe("git status --porcelain (v1), captured", () => {
  const { stdout } = loadFixture("git-status-porcelain-dirty");

  it("lists every changed path, unquoted, with the new path of a rename", () => {
    expect(changedFiles(stdout)).toEqual([
      "added.txt",
      "both.txt",
      "deleted.txt",
      "modified.txt",
      "new name.txt",
      "src/index.ts",
      "staged.txt",
      "with space.txt",
      "newdir/",
      ...SPECIAL_UNTRACKED,
      "untracked.txt",
    ]);
  });

  it("splits staged, unstaged and untracked", () => {
    expect(stagedFiles(stdout)).toEqual([
      "added.txt",
      "both.txt",
      "deleted.txt",
      "new name.txt",
      "staged.txt",
    ]);
    expect(unstagedFiles(stdout)).toEqual([
      "both.txt",
      "modified.txt",
      "src/index.ts",
      "with space.txt",
    ]);
    expect(untrackedFiles(stdout)).toEqual(["newdir/", ...SPECIAL_UNTRACKED, "untracked.txt"]);
  });

  it("keeps the old path of a rename", () => {
    const rename = parseGitStatus(stdout).find((entry) => entry.index === "R");
    expect(rename).toEqual({
      path: "new name.txt",
      origPath: "old-name.txt",
      index: "R",
      worktree: " ",
      kind: "tracked",
    });
  });

  it("lists files inside untracked folders with --untracked-files=all", () => {
    expect(untrackedFiles(loadFixture("git-status-porcelain-untracked-all").stdout)).toContain(
      "newdir/inner.txt",
    );
  });

  it("skips the ## branch header of -sb output", () => {
    const { stdout: withHeader } = loadFixture("git-status-short-branch-dirty");
    expect(changedFiles(withHeader)).toEqual(changedFiles(stdout));
  });

  it("finds nothing in a clean tree", () => {
    expect(changedFiles(loadFixture("git-status-porcelain-clean").stdout)).toEqual([]);
  });
});

describe("git status --porcelain=v2, captured", () => {
  const v1 = loadFixture("git-status-porcelain-dirty").stdout;
  const v2 = loadFixture("git-status-porcelain-v2-dirty").stdout;

  it("gives the same files as v1", () => {
    expect(changedFiles(v2)).toEqual(changedFiles(v1));
    expect(stagedFiles(v2)).toEqual(stagedFiles(v1));
    expect(unstagedFiles(v2)).toEqual(unstagedFiles(v1));
    expect(untrackedFiles(v2)).toEqual(untrackedFiles(v1));
  });

  it("reads a rename's two tab-separated paths", () => {
    expect(parseGitStatus(v2).find((entry) => entry.index === "R")).toMatchObject({
      path: "new name.txt",
      origPath: "old-name.txt",
    });
  });

  it("ignores the # branch headers and finds nothing in a clean tree", () => {
    expect(changedFiles(loadFixture("git-status-porcelain-v2-clean").stdout)).toEqual([]);
  });
});

describe("conflicts, captured", () => {
  it("reports unmerged entries as conflicts, neither staged nor unstaged (v1 and v2)", () => {
    for (const name of ["git-status-porcelain-conflict", "git-status-v2-conflict"]) {
      const { stdout } = loadFixture(name);
      expect(unmergedFiles(stdout)).toEqual(["kept.txt", "modified.txt"]);
      expect(stagedFiles(stdout)).toEqual(["r1.txt", "r2.txt"]);
      expect(unstagedFiles(stdout)).toEqual([]);
      expect(changedFiles(stdout)).toEqual(
        name.includes("v2")
          ? ["r1.txt", "r2.txt", "kept.txt", "modified.txt"]
          : ["kept.txt", "modified.txt", "r1.txt", "r2.txt"],
      );
    }
  });
});

describe("-z output", () => {
  it("reads NUL-separated v1 records with the rename source as the next record", () => {
    const text = "R  new name.txt\0old-name.txt\0 M with space.txt\0?? é.md\0";
    expect(parseGitStatus(text)).toEqual([
      {
        path: "new name.txt",
        origPath: "old-name.txt",
        index: "R",
        worktree: " ",
        kind: "tracked",
      },
      { path: "with space.txt", index: " ", worktree: "M", kind: "tracked" },
      { path: "é.md", index: "?", worktree: "?", kind: "untracked" },
    ]);
  });

  it("reads NUL-separated v2 records", () => {
    const text =
      "2 R. N... 100644 100644 100644 aaaa bbbb R100 new name.txt\0old-name.txt\0? x y.txt\0";
    expect(changedFiles(text)).toEqual(["new name.txt", "x y.txt"]);
    expect(parseGitStatus(text)[0]?.origPath).toBe("old-name.txt");
  });
});

describe("odd input", () => {
  it("ignores lines that are not status records", () => {
    expect(changedFiles("warning: could not open directory 'x/'\nhello\n M a.txt\n")).toEqual([
      "a.txt",
    ]);
  });

  it("leaves out ignored files", () => {
    expect(changedFiles("!! dist/\n?? a.txt\n")).toEqual(["a.txt"]);
  });
});
