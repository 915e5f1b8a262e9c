import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { confinePath, isInside, workingRoot } from "./confine-path.ts";
import { toolboxFor, useTempDirs } from "./tools.test-helper.ts";

describe("path confinement", () => {
  const tempDir = useTempDirs();

  /** A working directory plus a sibling "outside" directory holding a secret. */
  function setup(): { dir: string; outside: string } {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "secret.txt"), "secret\n");
    writeFileSync(path.join(dir, "inside.txt"), "inside\n");
    return { dir, outside };
  }

  const attacks = (outside: string): Array<[string, Record<string, string>]> => [
    ["Read", { file_path: "../x" }],
    ["Read", { file_path: path.join(outside, "secret.txt") }],
    ["Read", { file_path: "/etc/passwd" }],
    ["Read", { file_path: "sub/../../x" }],
    ["Write", { file_path: "../escape.txt", content: "x" }],
    ["Write", { file_path: "/tmp/climpt-escape.txt", content: "x" }],
    ["Edit", { file_path: "../x", old_string: "a", new_string: "b" }],
    ["Glob", { pattern: "*", path: ".." }],
    ["Glob", { pattern: "*", path: "/etc" }],
    ["Grep", { pattern: "root", path: "/etc/passwd" }],
    ["Grep", { pattern: "secret", path: outside }],
  ];

  it("refuses .. and absolute paths outside the working directory in every file tool", async () => {
    const { dir, outside } = setup();
    for (const [tool, input] of attacks(outside)) {
      const box = toolboxFor(dir);
      const result = await box.call(tool, input);
      expect(result.isError, `${tool} ${JSON.stringify(input)}`).toBe(true);
      expect(result.content).toMatch(
        /^TOOL-POLICY-004 refused by the working-directory policy: .*outside the working directory/,
      );
      expect(box.events).toEqual([
        expect.objectContaining({ type: "tool_refused", tool, code: "TOOL-POLICY-004", input }),
      ]);
    }
    expect(existsSync(path.join(path.dirname(dir), "escape.txt"))).toBe(false);
    expect(existsSync("/tmp/climpt-escape.txt")).toBe(false);
  });

  it("refuses a symbolic link to /etc and a linked file", async () => {
    const { dir } = setup();
    symlinkSync("/etc", path.join(dir, "etc-link"));
    symlinkSync("/etc/passwd", path.join(dir, "passwd-link"));
    const box = toolboxFor(dir);
    for (const [tool, input] of [
      ["Read", { file_path: "etc-link/passwd" }],
      ["Read", { file_path: "passwd-link" }],
      ["Grep", { pattern: "root", path: "etc-link" }],
      ["Grep", { pattern: "root", path: "passwd-link" }],
      ["Glob", { pattern: "*", path: "etc-link" }],
      ["Edit", { file_path: "passwd-link", old_string: "root", new_string: "toor" }],
    ] as const) {
      const result = await box.call(tool, input);
      expect(result.content, `${tool} ${JSON.stringify(input)}`).toMatch(
        /^TOOL-POLICY-004 .*resolves through a symbolic link to a place outside the working directory/,
      );
    }
  });

  it("does not read a linked file during a search of the whole tree", async () => {
    const { dir, outside } = setup();
    symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "leak.txt"));
    symlinkSync(outside, path.join(dir, "leakdir"));
    const box = toolboxFor(dir);
    expect((await box.call("Grep", { pattern: "secret" })).content).toBe(
      "No matches for /secret/ in ..",
    );
    expect((await box.call("Glob", { pattern: "**/*.txt" })).content).toBe("inside.txt");
  });

  it("refuses to create a file through a symbolic link to a directory outside", async () => {
    const { dir, outside } = setup();
    symlinkSync(outside, path.join(dir, "linked-dir"));
    const box = toolboxFor(dir);
    const result = await box.call("Write", {
      file_path: "linked-dir/new/planted.txt",
      content: "x",
    });
    expect(result.content).toMatch(/^TOOL-POLICY-004/);
    expect(existsSync(path.join(outside, "new"))).toBe(false);
  });

  it("refuses to write through a linked file, existing or dangling", async () => {
    const { dir, outside } = setup();
    symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "to-secret"));
    symlinkSync(path.join(outside, "not-yet.txt"), path.join(dir, "dangling"));
    const box = toolboxFor(dir);
    expect((await box.call("Write", { file_path: "to-secret", content: "owned" })).content).toMatch(
      /^TOOL-POLICY-004/,
    );
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
    expect((await box.call("Write", { file_path: "dangling", content: "owned" })).content).toMatch(
      /^TOOL-POLICY-004 .*symbolic link whose target does not exist/,
    );
    expect(existsSync(path.join(outside, "not-yet.txt"))).toBe(false);
  });

  it("follows links that stay inside the working directory", async () => {
    const { dir } = setup();
    mkdirSync(path.join(dir, "real"));
    symlinkSync(path.join(dir, "real"), path.join(dir, "alias"));
    symlinkSync(path.join(dir, "inside.txt"), path.join(dir, "inside-link"));
    const box = toolboxFor(dir);
    expect((await box.call("Write", { file_path: "alias/made.txt", content: "ok" })).content).toBe(
      "Created real/made.txt (2 bytes).",
    );
    expect((await box.call("Read", { file_path: "inside-link" })).content).toBe("     1\tinside");
  });

  it("works in a working directory reached through a symbolic link, and still confines", async () => {
    const { dir, outside } = setup();
    const linkedCwd = path.join(tempDir(), "linked-cwd");
    symlinkSync(dir, linkedCwd);
    expect(workingRoot(linkedCwd)).toEqual({ dir: linkedCwd, real: realpathSync(dir) });
    const box = toolboxFor(linkedCwd);
    expect((await box.call("Read", { file_path: "inside.txt" })).content).toBe("     1\tinside");
    expect(
      (await box.call("Read", { file_path: path.join(outside, "secret.txt") })).content,
    ).toMatch(/^TOOL-POLICY-004/);
  });

  it("never confines a path to somewhere outside, whatever the segments", () => {
    const { dir } = setup();
    mkdirSync(path.join(dir, "a/b"), { recursive: true });
    const root = workingRoot(dir);
    const segment = fc.constantFrom("..", ".", "a", "b", "x", "", "...", "a/..", "/");
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 8 }), (segments) => {
        const result = confinePath(root, segments.join("/"));
        if (result.ok) expect(isInside(root.real, result.real)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
