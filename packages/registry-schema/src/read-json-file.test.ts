import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { nestingOf } from "@climpt/model";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, readJsonFile } from "./read-json-file.ts";

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A file in a folder of its own, read as the loader reads definition files. */
async function read(text: string) {
  const folder = await mkdtemp(path.join(tmpdir(), "climpt-json-"));
  folders.push(folder);
  const file = path.join(folder, "definition.json");
  await writeFile(file, text);
  return readJsonFile(file, folder);
}

const arrays = (levels: number): string => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("readJsonFile's nesting limit", () => {
  it("accepts a value nested exactly MAX_JSON_DEPTH levels deep and refuses one level more", async () => {
    expect((await read(arrays(MAX_JSON_DEPTH))).ok).toBe(true);
    const deeper = await read(`{"a":${arrays(MAX_JSON_DEPTH)}}`);
    expect(deeper).toMatchObject({ ok: false, code: "SR-LOAD-013" });
    expect(deeper.ok ? "" : deeper.reason).toContain("$.a");
  });

  it("does not count brackets inside strings, escaped quotes included", async () => {
    const text = JSON.stringify({ note: `"\\${"[{".repeat(5_000)}`, list: [[1]] });
    expect(nestingOf(text)).toBe(3);
    expect((await read(text)).ok).toBe(true);
  });
});
