import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDir, useTempDirs } from "./temp-dirs.ts";
import { waitFor, waitUntil } from "./wait-for.ts";

describe("waitUntil", () => {
  it("returns true once the condition holds, false when the bound passes first", async () => {
    let polls = 0;
    expect(await waitUntil(() => ++polls === 3, 60_000, 1)).toBe(true);
    expect(polls).toBe(3);
    expect(await waitUntil(() => false, 30, 5)).toBe(false);
  });

  it("awaits an asynchronous condition", async () => {
    let polls = 0;
    expect(await waitUntil(async () => ++polls === 2, 60_000, 1)).toBe(true);
  });
});

describe("waitFor", () => {
  it("resolves once the condition holds", async () => {
    let polls = 0;
    await waitFor(() => ++polls === 4, { intervalMs: 1 });
    expect(polls).toBe(4);
  });

  it("throws naming what it waited for when the bound passes", async () => {
    await expect(waitFor(() => false, { what: "the pidfile", limitMs: 30 })).rejects.toThrow(
      /waited 0 s for the pidfile; it never came/,
    );
  });

  it("gives up at once when `failed` says the thing can no longer happen", async () => {
    const started = Date.now();
    await expect(
      waitFor(() => false, { what: "a reply", failed: () => "the server closed" }),
    ).rejects.toThrow("gave up waiting for a reply: the server closed");
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

const fileDirs = useTempDirs(afterAll, "climpt-testing-file-");
const seen: string[] = [];
afterAll(() => {
  // Registered after useTempDirs' hook, so it runs first (after hooks run in reverse): the
  // folders are still there here, and the hook above removes them.
  for (const dir of seen) expect(existsSync(dir)).toBe(true);
});

describe("temporary folders", () => {
  it("makeTempDir makes a fresh real folder; removeTempDir removes it and tolerates a second call", () => {
    const dir = makeTempDir("climpt-testing-");
    expect(path.basename(dir)).toMatch(/^climpt-testing-/);
    writeFileSync(path.join(dir, "file"), "x");
    removeTempDir(dir);
    expect(existsSync(dir)).toBe(false);
    removeTempDir(dir);
  });

  it("useTempDirs removes its folders when the hook it was given runs", () => {
    let cleanUp: (() => void) | undefined;
    const tempDir = useTempDirs((hook) => {
      cleanUp = hook;
    });
    const a = tempDir();
    const b = tempDir("climpt-testing-b-");
    expect(a).not.toBe(b);
    expect(path.basename(b)).toMatch(/^climpt-testing-b-/);
    expect(existsSync(a) && existsSync(b)).toBe(true);
    cleanUp?.();
    expect(existsSync(a) || existsSync(b)).toBe(false);
  });

  it("a folder for the file outlives the test that made it", () => {
    seen.push(fileDirs());
  });
});
