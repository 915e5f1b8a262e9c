import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";

describe("Read", () => {
  const tempDir = useTempDirs();

  it("shows the file with line numbers", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "a.txt"), "alpha\nbeta\r\ngamma\n");
    const result = await toolboxFor(dir).call("Read", { file_path: "a.txt" });
    expect(result).toEqual({
      content: "     1\talpha\n     2\tbeta\n     3\tgamma",
      isError: false,
    });
  });

  it("pages with offset and limit and says where to continue", async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, "n.txt"),
      Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n"),
    );
    const result = await toolboxFor(dir).call("Read", { file_path: "n.txt", offset: 4, limit: 2 });
    expect(result.content).toBe(
      "     4\tline 4\n     5\tline 5\n[showing lines 4-5 of 10; continue with offset=6]",
    );
    const past = await toolboxFor(dir).call("Read", { file_path: "n.txt", offset: 11 });
    expect(past.isError).toBe(true);
    expect(past.content).toContain("has 10 lines");
  });

  it("cuts output at the byte cap and names the next offset", async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, "big.txt"),
      Array.from({ length: 100 }, () => "x".repeat(50)).join("\n"),
    );
    const result = await toolboxFor(dir, { outputCapBytes: 600 }).call("Read", {
      file_path: "big.txt",
    });
    expect(Buffer.byteLength(result.content)).toBeLessThan(800);
    expect(result.content).toMatch(
      /\[output cut at 600 bytes after line 10 of 100; continue with offset=11\]$/,
    );
  });

  it("cuts very long lines", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "long.txt"), "y".repeat(5000));
    const result = await toolboxFor(dir).call("Read", { file_path: "long.txt" });
    expect(result.content).toContain("[line cut at 2000 characters]");
    expect(result.content.length).toBeLessThan(2100);
  });

  it("refuses to show binary files", async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, "img.png"),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    );
    const result = await toolboxFor(dir).call("Read", { file_path: "img.png" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^TOOL-FILE-002: "img.png" is a binary file \(7 bytes\)/);
  });

  it("reports missing files, directories and empty files", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "empty.txt"), "");
    const box = toolboxFor(dir);
    expect(await box.call("Read", { file_path: "nope.txt" })).toEqual({
      content: 'TOOL-FILE-001: "nope.txt" does not exist. Use Glob to find files.',
      isError: true,
    });
    expect((await box.call("Read", { file_path: "." })).content).toContain("is a directory");
    expect(await box.call("Read", { file_path: "empty.txt" })).toEqual({
      content: "[empty.txt is empty]",
      isError: false,
    });
  });

  it("accepts an absolute path inside the working directory", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "a.txt"), "hi\n");
    const result = await toolboxFor(dir).call("Read", { file_path: path.join(dir, "a.txt") });
    expect(result.content).toBe("     1\thi");
  });

  it("rejects input that does not match its schema", async () => {
    const dir = tempDir();
    const box = toolboxFor(dir);
    const result = await box.call("Read", { path: "a.txt", offset: 0 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("TOOL-INPUT-001");
    expect(result.content).toContain('unknown parameter "path"');
    expect(result.content).toContain('"file_path" is required');
    expect(result.content).toContain('"offset" must be at least 1');
  });
});
