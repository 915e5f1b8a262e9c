/**
 * The README's error catalogue is where a user looks a code up, so every code this package can
 * emit needs a row there. (Each package with a code table checks its own codes against the same
 * README.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const start = readme.indexOf("## Error catalogue\n");
const end = readme.indexOf("\n## ", start + 1);
const catalogue = readme.slice(start, end === -1 ? undefined : end);
/** The code in the first cell of every table row of the catalogue, in order. */
const rows = [...catalogue.matchAll(/^\| `?([A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+)`? \|/gm)].map(
  (match) => match[1] as string,
);

function missing(codes: Iterable<string>): string[] {
  const catalogued = new Set(rows);
  return [...new Set(codes)].filter((code) => !catalogued.has(code)).sort();
}

describe("the README error catalogue", () => {
  it("has a section with rows", () => {
    expect(start).toBeGreaterThan(-1);
    expect(rows.length).toBeGreaterThan(100);
  });

  it("gives each code one row, so no code has two meanings", () => {
    const twice = rows.filter((code, index) => rows.indexOf(code) !== index);
    expect(twice).toEqual([]);
  });

  it("lists every code the loader writes in its source", () => {
    const dir = new URL("./", import.meta.url);
    const codes: string[] = [];
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".ts") || name.includes(".test")) continue;
      const source = readFileSync(new URL(name, dir), "utf8");
      for (const match of source.matchAll(/"((?:SR|AC|PR)-[A-Z]+-\d{3})"/g)) {
        codes.push(match[1] as string);
      }
    }
    expect(codes.length).toBeGreaterThan(30);
    expect(missing(codes)).toEqual([]);
  });
});
