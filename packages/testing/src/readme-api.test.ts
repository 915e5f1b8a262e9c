import { describe, expect, it } from "vitest";
import { apiSection, mentions, undocumentedExports } from "./readme-api.ts";

describe("every export is documented in its README's API section", () => {
  it("names every export of every package entry", async () => {
    // `<entry> <name>` lines, so a failure lists each name to document.
    expect(
      await undocumentedExports(),
      "name each export in its package README's API section, with a sentence saying what it is for",
    ).toEqual([]);
  });

  it("reads the API section up to the next second-level heading, subsections included", () => {
    const readme = [
      "# pkg",
      "`before` is not in it.",
      "## API (entry `.`)",
      "`inside` is.",
      "### A subsection",
      "`sub` too.",
      "## Decisions",
      "`after` is not.",
    ].join("\n");
    const section = apiSection(readme);
    expect(mentions(section, "inside")).toBe(true);
    expect(mentions(section, "sub")).toBe(true);
    expect(mentions(section, "before")).toBe(false);
    expect(mentions(section, "after")).toBe(false);
    expect(apiSection("# pkg\n## Usage\n`x`")).toBe("");
  });

  it("counts a name only as a whole identifier", () => {
    expect(mentions("`runStep(options: RunStepOptions)`", "RunStepOptions")).toBe(true);
    expect(mentions("`runStep(options: RunStepOptions)`", "RunStep")).toBe(false);
    expect(mentions("`ZERO_USAGE`", "USAGE")).toBe(false);
    expect(mentions("`$ref` keys", "$ref")).toBe(true);
    expect(mentions("`x$ref`", "$ref")).toBe(false);
  });
});
