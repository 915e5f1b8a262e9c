import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";

describe("Grep", () => {
  const tempDir = useTempDirs();

  function project(): string {
    const dir = tempDir();
    const files: Record<string, string> = {
      "src/a.ts": "export function load() {}\n// TODO: cache\n",
      "src/b.tsx": "const TODO = 1;\ntodo again\n",
      "docs/readme.md": "TODO write docs\n",
      "node_modules/pkg/index.js": "TODO in a dependency\n",
      ".git/HEAD": "TODO in git\n",
    };
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    }
    writeFileSync(path.join(dir, "blob.bin"), Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0x00]));
    return dir;
  }

  it("lists files with matches by default, skipping .git, node_modules and binaries", async () => {
    const result = await toolboxFor(project()).call("Grep", { pattern: "TODO" });
    expect(result).toEqual({ content: "docs/readme.md\nsrc/a.ts\nsrc/b.tsx", isError: false });
  });

  it("shows matching lines in content mode and counts in count mode", async () => {
    const box = toolboxFor(project());
    expect(
      (await box.call("Grep", { pattern: "TODO", output_mode: "content", path: "src" })).content,
    ).toBe("src/a.ts:2:// TODO: cache\nsrc/b.tsx:1:const TODO = 1;");
    expect(
      (
        await box.call("Grep", {
          pattern: "todo",
          output_mode: "count",
          case_insensitive: true,
          path: "src",
        })
      ).content,
    ).toBe("src/a.ts:1\nsrc/b.tsx:2");
  });

  it("filters files by glob: by name without a slash, by path with one", async () => {
    const box = toolboxFor(project());
    expect((await box.call("Grep", { pattern: "TODO", glob: "*.{ts,tsx}" })).content).toBe(
      "src/a.ts\nsrc/b.tsx",
    );
    expect((await box.call("Grep", { pattern: "TODO", glob: "docs/**" })).content).toBe(
      "docs/readme.md",
    );
  });

  it("searches a single file given as path", async () => {
    const result = await toolboxFor(project()).call("Grep", {
      pattern: "load\\(",
      path: "src/a.ts",
      output_mode: "content",
    });
    expect(result.content).toBe("src/a.ts:1:export function load() {}");
  });

  it("caps results and says where it stopped", async () => {
    const result = await toolboxFor(project()).call("Grep", { pattern: "TODO", max_results: 1 });
    expect(result.content).toBe(
      "docs/readme.md\n[results stopped at 1 lines (next match: src/a.ts); narrow the pattern, path or glob.]",
    );
  });

  it("says when nothing matches and rejects an invalid regex", async () => {
    const box = toolboxFor(project());
    expect((await box.call("Grep", { pattern: "nothing-like-this" })).content).toBe(
      "No matches for /nothing-like-this/ in ..",
    );
    const bad = await box.call("Grep", { pattern: "(" });
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain("TOOL-INPUT-001");
    expect(bad.content).toContain("not a valid regular expression");
  });
});
