import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";

// Users look codes up in one place: @climpt/registry-schema's README catalogues every package's.
it("every code this package writes in its source has a row in the error catalogue", () => {
  const catalogue = readFileSync(
    new URL("../../registry-schema/README.md", import.meta.url),
    "utf8",
  );
  const dir = new URL("./", import.meta.url);
  const codes = new Set<string>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".ts") || name.includes(".test")) continue;
    const source = readFileSync(new URL(name, dir), "utf8");
    for (const match of source.matchAll(/"((?:SR|AC|PR)-[A-Z]+-\d{3})"/g)) {
      codes.add(match[1] as string);
    }
  }
  expect(codes.size).toBeGreaterThan(0);
  expect([...codes].filter((code) => !catalogue.includes(`\n| ${code} |`))).toEqual([]);
});
