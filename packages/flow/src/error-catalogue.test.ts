import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { FLOW_FINDING_CODES } from "./flow-codes.ts";

// Users look codes up in one place: @climpt/registry-schema's README catalogues every package's.
it("every flow finding code has a row in the error catalogue", () => {
  const catalogue = readFileSync(
    new URL("../../registry-schema/README.md", import.meta.url),
    "utf8",
  );
  const missing = Object.keys(FLOW_FINDING_CODES).filter(
    (code) => !catalogue.includes(`\n| ${code} |`),
  );
  expect(Object.keys(FLOW_FINDING_CODES).length).toBeGreaterThan(10);
  expect(missing).toEqual([]);
});
