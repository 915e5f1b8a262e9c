import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";

describe("Write", () => {
  const tempDir = useTempDirs();

  it("creates a file and its missing parent directories", async () => {
    const dir = tempDir();
    const result = await toolboxFor(dir).call("Write", {
      file_path: "src/deep/new.ts",
      content: "export {};\n",
    });
    expect(result).toEqual({ content: "Created src/deep/new.ts (11 bytes).", isError: false });
    expect(readFileSync(path.join(dir, "src/deep/new.ts"), "utf8")).toBe("export {};\n");
  });

  it("overwrites an existing file", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "a.txt"), "old");
    const result = await toolboxFor(dir).call("Write", { file_path: "a.txt", content: "é" });
    expect(result.content).toBe("Overwrote a.txt (2 bytes).");
    expect(readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("é");
  });

  it("does not write over a directory", async () => {
    const dir = tempDir();
    const result = await toolboxFor(dir).call("Write", { file_path: ".", content: "x" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("is a directory");
  });

  it("refuses paths inside .git", async () => {
    const dir = tempDir();
    const box = toolboxFor(dir);
    const result = await box.call("Write", {
      file_path: ".git/hooks/pre-push",
      content: "gh issue close 1",
    });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^TOOL-POLICY-004 refused by the working-directory policy: ".git\/hooks\/pre-push" is inside .git/,
    );
    expect(box.events.map((e) => e.type)).toEqual(["tool_refused"]);
  });
});
