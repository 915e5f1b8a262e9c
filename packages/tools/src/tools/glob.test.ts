import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";

describe("Glob", () => {
  const tempDir = useTempDirs();

  function project(): string {
    const dir = tempDir();
    for (const file of [
      "b.ts",
      "a.ts",
      "src/c.ts",
      "src/deep/d.ts",
      "src/e.md",
      "node_modules/x/i.ts",
      ".git/config.ts",
    ]) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), "");
    }
    return dir;
  }

  it("lists matching files relative to the working directory, sorted", async () => {
    const dir = project();
    const result = await toolboxFor(dir).call("Glob", { pattern: "**/*.ts" });
    expect(result).toEqual({ content: "a.ts\nb.ts\nsrc/c.ts\nsrc/deep/d.ts", isError: false });
  });

  it("searches under path and keeps * within one directory", async () => {
    const dir = project();
    const box = toolboxFor(dir);
    expect((await box.call("Glob", { pattern: "*.ts", path: "src" })).content).toBe("src/c.ts");
    expect((await box.call("Glob", { pattern: "src/*" })).content).toBe("src/c.ts\nsrc/e.md");
  });

  it("enters node_modules and .git only when the pattern names them", async () => {
    const dir = project();
    const box = toolboxFor(dir);
    expect((await box.call("Glob", { pattern: "node_modules/**/*.ts" })).content).toBe(
      "node_modules/x/i.ts",
    );
    expect((await box.call("Glob", { pattern: ".git/*" })).content).toBe(".git/config.ts");
  });

  it("caps the list and says so", async () => {
    const dir = tempDir();
    for (let i = 0; i < 1005; i++)
      writeFileSync(path.join(dir, `f${String(i).padStart(4, "0")}.txt`), "");
    const result = await toolboxFor(dir).call("Glob", { pattern: "*.txt" });
    const lines = result.content.split("\n");
    expect(lines).toHaveLength(1001);
    expect(lines.at(-1)).toBe("[1005 files match; showing the first 1000. Narrow the pattern.]");
  });

  it("does not follow a symbolic link to a directory", async () => {
    const dir = project();
    const outside = tempDir();
    writeFileSync(path.join(outside, "secret.ts"), "");
    symlinkSync(outside, path.join(dir, "linked"));
    const box = toolboxFor(dir);
    expect((await box.call("Glob", { pattern: "**/secret.ts" })).content).toBe(
      'No files match "**/secret.ts".',
    );
    const direct = await box.call("Glob", { pattern: "linked/*.ts" });
    expect(direct.content).toMatch(/^TOOL-POLICY-004/);
  });

  it("refuses absolute patterns and patterns that climb", async () => {
    const dir = project();
    const box = toolboxFor(dir);
    expect((await box.call("Glob", { pattern: "/etc/*" })).content).toMatch(/^TOOL-POLICY-004/);
    expect((await box.call("Glob", { pattern: "../*" })).content).toMatch(/^TOOL-POLICY-004/);
  });
});
