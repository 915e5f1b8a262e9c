import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolboxFor, useTempDirs } from "./tools.test-helper.ts";

describe("file tools and special files", () => {
  const tempDir = useTempDirs();

  it("refuse a FIFO at once instead of waiting for a writer or reader", async () => {
    const dir = tempDir();
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const box = toolboxFor(dir);
    const read = await box.call("Read", { file_path: "pipe" });
    const write = await box.call("Write", { file_path: "pipe", content: "x" });
    const edit = await box.call("Edit", { file_path: "pipe", old_string: "a", new_string: "b" });
    for (const result of [read, write, edit]) {
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/^TOOL-POLICY-004: "pipe" is a FIFO/);
    }
  });

  it("refuse a socket", async () => {
    const dir = tempDir();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, "s.sock"), resolve));
    try {
      const box = toolboxFor(dir);
      for (const result of [
        await box.call("Read", { file_path: "s.sock" }),
        await box.call("Write", { file_path: "s.sock", content: "x" }),
      ]) {
        expect(result.content).toMatch(/^TOOL-POLICY-004: "s.sock" is a (?:socket|FIFO or socket)/);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("file tools and hard links", () => {
  const tempDir = useTempDirs();

  function linkedOutside(): { dir: string; outside: string } {
    const base = tempDir();
    const dir = path.join(base, "work");
    mkdirSync(dir);
    const outside = path.join(base, "config");
    writeFileSync(outside, "[core]\n\tbare = false\n");
    linkSync(outside, path.join(dir, "innocent.txt"));
    return { dir, outside };
  }

  it("Read refuses a file with another link (it may be a file outside)", async () => {
    const { dir } = linkedOutside();
    const result = await toolboxFor(dir).call("Read", { file_path: "innocent.txt" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^TOOL-POLICY-004: "innocent.txt" has 2 hard links/);
  });

  it("Write refuses it and the file outside is unchanged", async () => {
    const { dir, outside } = linkedOutside();
    const result = await toolboxFor(dir).call("Write", {
      file_path: "innocent.txt",
      content: "[core]\n\thooksPath = /tmp/evil\n",
    });
    expect(result.content).toMatch(/^TOOL-POLICY-004: "innocent.txt" has 2 hard links/);
    expect(readFileSync(outside, "utf8")).toBe("[core]\n\tbare = false\n");
  });

  it("Edit refuses it and the file outside is unchanged", async () => {
    const { dir, outside } = linkedOutside();
    const result = await toolboxFor(dir).call("Edit", {
      file_path: "innocent.txt",
      old_string: "bare = false",
      new_string: "hooksPath = /tmp/evil",
    });
    expect(result.content).toMatch(/^TOOL-POLICY-004: "innocent.txt" has 2 hard links/);
    expect(readFileSync(outside, "utf8")).toBe("[core]\n\tbare = false\n");
  });

  it("a singly linked file reads, writes and edits as before", async () => {
    const dir = tempDir();
    const box = toolboxFor(dir);
    expect((await box.call("Write", { file_path: "a/b.txt", content: "one\n" })).content).toBe(
      "Created a/b.txt (4 bytes).",
    );
    expect(
      (await box.call("Edit", { file_path: "a/b.txt", old_string: "one", new_string: "two" }))
        .content,
    ).toBe("Replaced 1 occurrence in a/b.txt.");
    expect((await box.call("Read", { file_path: "a/b.txt" })).content).toBe("     1\ttwo");
    expect((await box.call("Write", { file_path: "a/b.txt", content: "x" })).content).toBe(
      "Overwrote a/b.txt (1 bytes).",
    );
  });
});
