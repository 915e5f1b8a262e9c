import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { branchMatches, isBranchName, isBranchPattern } from "./branch-name.ts";

const CASES = [
  "main",
  "climpt/issue-7",
  "feature/a.b_c-d",
  "docs/x/y",
  "",
  "-x",
  "/x",
  "x/",
  "x//y",
  "x..y",
  "x.",
  ".x",
  "x/.y",
  "x.lock",
  "x/y.lock/z",
  "a b",
  "a\tb",
  "a~b",
  "a^b",
  "a:b",
  "a?b",
  "a*b",
  "a[b",
  "a\\b",
  "a@{b",
  "@",
  "a@b",
  "HEAD",
  "ünïcode",
  "a\u007fb",
];

/** Names git takes that these checks refuse: `@` is HEAD in revision syntax. */
const STRICTER = new Set(["@"]);

describe("isBranchName", () => {
  it("agrees with `git check-ref-format --branch`, refusing `@` as well", () => {
    for (const name of CASES) {
      const git = spawnSync("git", ["check-ref-format", "--branch", name], { cwd: "/" });
      const expected = git.status === 0 && !STRICTER.has(name);
      expect(isBranchName(name), JSON.stringify(name)).toBe(expected);
    }
  });

  it("takes a declared `<prefix>/*` as every branch under the prefix", () => {
    expect(isBranchPattern("docs/*")).toBe(true);
    expect(isBranchPattern("docs*")).toBe(false);
    expect(isBranchPattern("*/x")).toBe(false);
    expect(branchMatches("docs/*", "docs/a/b")).toBe(true);
    expect(branchMatches("docs/*", "docs")).toBe(false);
    expect(branchMatches("docs/*", "docsx/a")).toBe(false);
    expect(branchMatches("gh-pages", "gh-pages")).toBe(true);
    expect(branchMatches("gh-pages", "gh-pages2")).toBe(false);
  });
});
