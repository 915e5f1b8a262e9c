import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configIncludeProblems } from "./config-includes.ts";
import { gitLayoutOf } from "./git-layout.ts";
import { git, makeRepo, useTempDirs } from "./host-git.test-helper.ts";

describe("configIncludeProblems", () => {
  const tempDir = useTempDirs();

  it("an include of a file in the working tree is GIT-HOST-003, naming the file", async () => {
    const repo = makeRepo(tempDir());
    writeFileSync(path.join(repo, ".shared.gitconfig"), "[core]\n\tautocrlf = false\n");
    // Relative to the including file (.git/config): the working tree's .shared.gitconfig.
    git(repo, "config", "include.path", "../.shared.gitconfig");
    const problems = await configIncludeProblems(gitLayoutOf(repo), [repo]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      code: "GIT-HOST-003",
      file: path.join(repo, ".shared.gitconfig"),
    });
    expect(problems[0]?.message).toContain("inside the working tree the model writes");
  });

  it("an include not yet written, or behind an inactive includeIf, counts too", async () => {
    const repo = makeRepo(tempDir());
    git(repo, "config", "includeIf.onbranch:never.path", "../later.gitconfig");
    const problems = await configIncludeProblems(gitLayoutOf(repo), [repo]);
    expect(problems.map((found) => found.file)).toEqual([path.join(repo, "later.gitconfig")]);
    expect(problems[0]?.message).toContain("includeif.onbranch:never.path");
  });

  it("includes outside the working tree, and a repository without any, are fine", async () => {
    const dir = tempDir();
    const repo = makeRepo(dir);
    expect(await configIncludeProblems(gitLayoutOf(repo), [repo])).toEqual([]);
    writeFileSync(path.join(dir, "team.gitconfig"), "[core]\n\tautocrlf = false\n");
    git(repo, "config", "include.path", path.join(dir, "team.gitconfig"));
    expect(await configIncludeProblems(gitLayoutOf(repo), [repo])).toEqual([]);
  });
});
