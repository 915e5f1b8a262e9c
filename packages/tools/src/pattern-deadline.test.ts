import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "./tools.test-helper.ts";

describe("Grep and Glob match with a deadline (TOOL-PATTERN-001)", () => {
  const tempDir = useTempDirs();

  it("Grep with ^(a+)+$ on a 30-character line ends with TOOL-PATTERN-001 or a verdict, never a hang", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "line.txt"), `${"a".repeat(30)}!\n`);
    const result = await toolboxFor(dir, { patternTimeoutMs: 1000 }).call("Grep", {
      pattern: "^(a+)+$",
      output_mode: "content",
    });
    // 2^30 steps may finish within the deadline on a fast machine; either way the call returns.
    expect(result.content).toMatch(/^(?:No matches|TOOL-PATTERN-001: the pattern "\^\(a\+\)\+\$")/);
  });

  it("Glob with exploding braces ends with TOOL-PATTERN-001 or a verdict, never a hang", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, `${"a".repeat(28)}b`), "");
    const pattern = "{a,a}".repeat(28);
    const result = await toolboxFor(dir, { patternTimeoutMs: 1000 }).call("Glob", { pattern });
    expect(result.content).toMatch(/^(?:No files match|TOOL-PATTERN-001: the glob)/);
  });

  it("ordinary Grep and Glob still work", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "a.ts"), "export const x = 1;\nconst y = 2;\n");
    writeFileSync(path.join(dir, "b.md"), "x\n");
    const box = toolboxFor(dir);
    expect((await box.call("Grep", { pattern: "const \\w", output_mode: "content" })).content).toBe(
      "a.ts:1:export const x = 1;\na.ts:2:const y = 2;",
    );
    expect((await box.call("Grep", { pattern: "x", glob: "*.md" })).content).toBe("b.md");
    expect((await box.call("Glob", { pattern: "*.{ts,md}" })).content).toBe("a.ts\nb.md");
  });
});
