import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { VALIDATOR_CODES } from "./codes.ts";

// Users look codes up in one place: @climpt/registry-schema's README catalogues every package's.
it("every code of VALIDATOR_CODES has a row in the error catalogue", () => {
  const catalogue = readFileSync(
    new URL("../../registry-schema/README.md", import.meta.url),
    "utf8",
  );
  const missing = Object.values(VALIDATOR_CODES).filter(
    (code) => !catalogue.includes(`\n| ${code} |`),
  );
  expect(missing).toEqual([]);
});
