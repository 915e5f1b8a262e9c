import { readFileSync } from "node:fs";
import path from "node:path";
import { WORKSPACE_ROOT } from "@climpt/testing";
import { describe, expect, it } from "vitest";
import { readmeSizeFigures, staleSizeFigures } from "./readme-size.test-helper.ts";

// The release test (registry.e2e.test.ts) compares the root README's size figures with a real
// install; these tests hold the reading and the comparison it relies on.
describe("the root README's size figures", () => {
  it("are found in the README, in the form the release test reads", () => {
    const readme = readFileSync(path.join(WORKSPACE_ROOT, "README.md"), "utf8");
    const figures = readmeSizeFigures(readme);
    expect(figures).toBeDefined();
    const { total, javascript, maps, declarations, other } = figures ?? {
      total: 0,
      javascript: 0,
      maps: 0,
      declarations: 0,
      other: 0,
    };
    // The parts add up to the whole (each is rounded to a kB).
    expect(Math.abs(javascript + maps + declarations + other - total)).toBeLessThanOrEqual(2);
  });

  it("read across a line break, and undefined when the sentence is gone", () => {
    const text =
      "nothing else, 474 kB installed as published: JavaScript 110 kB, source maps 225 kB, declarations\n83 kB, manifests and READMEs 56 kB.";
    expect(readmeSizeFigures(text)).toEqual({
      total: 474,
      javascript: 110,
      maps: 225,
      declarations: 83,
      other: 56,
    });
    expect(readmeSizeFigures("about 300 kB, nothing else")).toBeUndefined();
  });

  it("are stale when a measured kind is more than 10% or 8 kB away", () => {
    const readme = { total: 474, javascript: 110, maps: 225, declarations: 83, other: 56 };
    const bytes = (kb: number) => kb * 1024;
    const same = {
      total: bytes(480),
      javascript: bytes(112),
      maps: bytes(226),
      declarations: bytes(86),
      other: bytes(56),
    };
    expect(staleSizeFigures(readme, same)).toEqual([]);
    // The 409 kB / 339 kB the issue found against a README that said "about 300 kB".
    const grown = { ...same, total: bytes(560), javascript: bytes(139) };
    expect(staleSizeFigures(readme, grown)).toEqual([
      "total: the README says 474 kB, the install has 560 kB",
      "javascript: the README says 110 kB, the install has 139 kB",
    ]);
  });
});
