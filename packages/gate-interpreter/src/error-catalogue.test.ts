import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";

// Users look codes up in one place: @climpt/registry-schema's README catalogues every package's.
it("every code and family this package writes has a row in the error catalogue", () => {
  const catalogue = readFileSync(
    new URL("../../registry-schema/README.md", import.meta.url),
    "utf8",
  );
  const dir = new URL("./", import.meta.url);
  const codes = new Set<string>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".ts") || name.includes(".test")) continue;
    const source = readFileSync(new URL(name, dir), "utf8");
    for (const match of source.matchAll(/"((?:SR|AC|PR)-[A-Z]+-\d{3}|[A-Z]+(?:_[A-Z]+)+)"/g)) {
      codes.add(match[1] as string);
    }
  }
  expect([...codes].sort()).toEqual(
    expect.arrayContaining(["FAILED_STEP_ROUTING", "GATE_INTERPRETATION_ERROR", "SR-GATE-007"]),
  );
  expect([...codes].filter((code) => !catalogue.includes(`\n| ${code} |`))).toEqual([]);
});
