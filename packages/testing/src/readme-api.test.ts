import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { apiSection, mentions, undocumentedExports } from "./readme-api.ts";

/**
 * The exports no README's API section names yet, one `<entry> <name>` line each. The list only
 * shrinks: a new export that its README does not name fails the first test, and so does a line
 * whose name has since been documented (delete it). Documenting one means a sentence in the
 * package README's API section saying what the name is for.
 */
const UNDOCUMENTED_FILE = fileURLToPath(new URL("./undocumented-exports.txt", import.meta.url));

describe("every export is documented in its README's API section", () => {
  it("names every export but the known undocumented ones, and no documented one as unknown", async () => {
    const current = (await undocumentedExports()).join("\n").concat("\n");
    if (process.env.CLIMPT_UPDATE_UNDOCUMENTED_EXPORTS === "1") {
      await writeFile(UNDOCUMENTED_FILE, current);
    }
    const known = existsSync(UNDOCUMENTED_FILE) ? await readFile(UNDOCUMENTED_FILE, "utf8") : "";
    // Line lists, so a failure prints which names are newly undocumented (+) or now documented (-).
    expect(
      current.split("\n"),
      "document the export in its package README's API section (or delete a documented line from undocumented-exports.txt)",
    ).toEqual(known.split("\n"));
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
