import { describe, expect, it } from "vitest";
import { extractParams } from "./extract-params.ts";
import { loadFixture } from "./fixtures.test-helper.ts";

describe("extractParams", () => {
  it("applies each named extractor to the output", async () => {
    const { stdout, stderr } = loadFixture("git-status-porcelain-dirty");
    const extraction = await extractParams(
      {
        changedFiles: "parseChangedFiles",
        untrackedFiles: "parseUntrackedFiles",
        code: "exitCode",
      },
      { stdout, stderr, exitCode: 0, cwd: "/tmp/climpt-fixture/git/repo" },
    );
    expect(extraction.problems).toEqual([]);
    expect(extraction.values.code).toBe(0);
    expect(extraction.values.untrackedFiles).toContain("untracked.txt");
    expect(extraction.values.changedFiles).toContain("new name.txt");
  });

  it("an unknown extractor is a coded problem and a null param, never a silent gap", async () => {
    const extraction = await extractParams(
      { files: "parseEverything" },
      { stdout: "", stderr: "", exitCode: 0, cwd: "/" },
    );
    expect(extraction.values).toEqual({ files: null });
    expect(extraction.problems).toEqual([
      {
        param: "files",
        extractor: "parseEverything",
        code: "SR-VALID-108",
        message: 'Param "files" names unknown extractor "parseEverything".',
      },
    ]);
  });
});
