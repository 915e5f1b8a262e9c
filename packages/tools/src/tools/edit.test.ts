import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";

describe("Edit", () => {
  const tempDir = useTempDirs();

  function fileWith(content: string): { dir: string; file: string } {
    const dir = tempDir();
    const file = path.join(dir, "f.ts");
    writeFileSync(file, content);
    return { dir, file };
  }

  it("replaces the one occurrence of old_string", async () => {
    const { dir, file } = fileWith("const a = 1;\nconst b = 2;\n");
    const result = await toolboxFor(dir).call("Edit", {
      file_path: "f.ts",
      old_string: "b = 2",
      new_string: "b = 3",
    });
    expect(result).toEqual({ content: "Replaced 1 occurrence in f.ts.", isError: false });
    expect(readFileSync(file, "utf8")).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("keeps $ patterns in new_string literal", async () => {
    const { dir, file } = fileWith("price\n");
    await toolboxFor(dir).call("Edit", {
      file_path: "f.ts",
      old_string: "price",
      new_string: "$& $1 $$",
    });
    expect(readFileSync(file, "utf8")).toBe("$& $1 $$\n");
  });

  it("fails clearly when old_string is missing, and hints at whitespace", async () => {
    const { dir, file } = fileWith("  indented\n");
    const box = toolboxFor(dir);
    const missing = await box.call("Edit", {
      file_path: "f.ts",
      old_string: "absent",
      new_string: "x",
    });
    expect(missing.isError).toBe(true);
    expect(missing.content).toMatch(
      /^TOOL-EDIT-001: old_string was not found in "f.ts"\. It must match exactly/,
    );
    const spaced = await box.call("Edit", {
      file_path: "f.ts",
      old_string: "indented  ",
      new_string: "x",
    });
    expect(spaced.content).toContain("without its leading/trailing whitespace does occur");
    expect(readFileSync(file, "utf8")).toBe("  indented\n");
  });

  it("fails when old_string is not unique, unless replace_all is set", async () => {
    const { dir, file } = fileWith("x x x\n");
    const box = toolboxFor(dir);
    const ambiguous = await box.call("Edit", {
      file_path: "f.ts",
      old_string: "x",
      new_string: "y",
    });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.content).toMatch(/^TOOL-EDIT-002: old_string occurs 3 times in "f.ts"/);
    expect(readFileSync(file, "utf8")).toBe("x x x\n");
    const all = await box.call("Edit", {
      file_path: "f.ts",
      old_string: "x",
      new_string: "yy",
      replace_all: true,
    });
    expect(all.content).toBe("Replaced 3 occurrences in f.ts.");
    expect(readFileSync(file, "utf8")).toBe("yy yy yy\n");
  });

  it("rejects an empty or unchanged old_string and a missing file", async () => {
    const { dir } = fileWith("a\n");
    const box = toolboxFor(dir);
    expect(
      (await box.call("Edit", { file_path: "f.ts", old_string: "", new_string: "b" })).content,
    ).toContain('"old_string" must not be empty');
    expect(
      (await box.call("Edit", { file_path: "f.ts", old_string: "a", new_string: "a" })).content,
    ).toContain("nothing would change");
    expect(
      (await box.call("Edit", { file_path: "g.ts", old_string: "a", new_string: "b" })).content,
    ).toMatch(/^TOOL-FILE-001: "g.ts" does not exist or is not a file; use Write/);
  });

  it("mentions CRLF line endings when they are why nothing matched", async () => {
    const { dir } = fileWith("one\r\ntwo\r\n");
    const result = await toolboxFor(dir).call("Edit", {
      file_path: "f.ts",
      old_string: "one\ntwo",
      new_string: "x",
    });
    expect(result.content).toContain("CRLF");
  });
});
