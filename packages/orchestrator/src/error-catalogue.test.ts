import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ORCHESTRATOR_CODES } from "./codes.ts";

// Users look codes up in one place: @climpt/registry-schema's README catalogues every package's.
const catalogue = readFileSync(new URL("../../registry-schema/README.md", import.meta.url), "utf8");
const rows = [...catalogue.matchAll(/^\| ((?:WF|ORC)-[A-Z]+-\d{3}) \|/gm)].map((match) => match[1]);

it("gives every code of ORCHESTRATOR_CODES one row in the error catalogue", () => {
  const missing = Object.values(ORCHESTRATOR_CODES).filter((code) => !rows.includes(code));
  expect(missing).toEqual([]);
  expect(rows.filter((code, index) => rows.indexOf(code) !== index)).toEqual([]);
});

it("uses no code in its source that the catalogue does not list", () => {
  const dir = path.dirname(new URL(import.meta.url).pathname);
  const sources = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
    (name) => name.endsWith(".ts") && !name.includes(".test"),
  );
  const used = new Set<string>();
  for (const name of sources) {
    for (const match of readFileSync(path.join(dir, name), "utf8").matchAll(
      /"((?:WF|ORC)-[A-Z]+-\d{3})"/g,
    )) {
      used.add(match[1] as string);
    }
  }
  expect(used.size).toBe(76);
  expect([...used].filter((code) => !rows.includes(code))).toEqual([]);
});
