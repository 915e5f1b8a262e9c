import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { HOST_GIT_CODES } from "./codes.ts";

// Users look codes up in one place: @climpt/registry-schema's README catalogues every package's.
it("every code of HOST_GIT_CODES has a row in the error catalogue and in this package's README", () => {
  const catalogue = readFileSync(
    new URL("../../registry-schema/README.md", import.meta.url),
    "utf8",
  );
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const codes = Object.values(HOST_GIT_CODES);
  expect(codes.filter((code) => !catalogue.includes(`\n| ${code} |`))).toEqual([]);
  expect(codes.filter((code) => !readme.includes(`\n| \`${code}\` |`))).toEqual([]);
});
