import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRegularFile, readRegularFileSync } from "./regular-file.ts";

const dir = mkdtempSync(path.join(tmpdir(), "climpt-regular-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fifo = path.join(dir, "pipe");
execFileSync("mkfifo", [fifo]);
const file = path.join(dir, "file.json");
writeFileSync(file, '{"a":1}');
const link = path.join(dir, "link.json");
symlinkSync(file, link);
mkdirSync(path.join(dir, "folder"));

const readers = {
  async: readRegularFile,
  sync: async (name: string, options: Parameters<typeof readRegularFileSync>[1]) =>
    readRegularFileSync(name, options),
};

describe.each(Object.entries(readers))("readRegularFile (%s)", (_name, read) => {
  it("reads a regular file", async () => {
    const result = await read(file, { maxBytes: 100 });
    expect(result.ok && result.bytes.toString("utf8")).toBe('{"a":1}');
  });

  it("refuses a FIFO nobody writes to at once, instead of waiting for a writer", async () => {
    // Without O_NONBLOCK the open itself would wait for a writer: the test's time limit.
    expect(await read(fifo, { maxBytes: 100 })).toMatchObject({
      ok: false,
      reason: "not-regular",
      kind: "FIFO",
    });
  });

  it("refuses a device and a folder", async () => {
    expect(await read("/dev/zero", { maxBytes: 100 })).toMatchObject({
      reason: "not-regular",
      kind: "character device",
    });
    expect(await read(path.join(dir, "folder"), { maxBytes: 100 })).toMatchObject({
      reason: "not-regular",
      kind: "folder",
    });
  });

  it("refuses a file larger than the cap, and reads one exactly at it", async () => {
    expect(await read(file, { maxBytes: 6 })).toMatchObject({ reason: "too-large", size: 7 });
    expect((await read(file, { maxBytes: 7 })).ok).toBe(true);
  });

  it("follows a symlink unless told not to", async () => {
    expect((await read(link, { maxBytes: 100 })).ok).toBe(true);
    expect(await read(link, { maxBytes: 100, noFollow: true })).toMatchObject({
      reason: "not-regular",
      kind: "symbolic link",
    });
  });

  it("says a missing file is missing", async () => {
    expect(await read(path.join(dir, "nothing"), { maxBytes: 100 })).toMatchObject({
      reason: "missing",
    });
  });
});
