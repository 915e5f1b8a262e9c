import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { SDK_ADAPTER_CODES } from "./errors.ts";

// Users look codes up in one place: @climpt/registry-schema's README catalogues every package's.
it("every code of SDK_ADAPTER_CODES has a row in the error catalogue", () => {
  const catalogue = readFileSync(
    new URL("../../registry-schema/README.md", import.meta.url),
    "utf8",
  );
  const missing = Object.values(SDK_ADAPTER_CODES).filter(
    (code) => !catalogue.includes(`\n| ${code} |`),
  );
  expect(missing).toEqual([]);
});
