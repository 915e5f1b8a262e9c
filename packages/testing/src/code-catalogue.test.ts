/**
 * docs/codes.md is where a user looks a code up, and it is generated from the packages' code
 * tables (scripts/codes-catalogue.mjs; `pnpm lint` checks it is current). This test is the other
 * half: every code any package's source writes — a `code:` field, a `problem(…)` call, a message
 * prefix, a comment naming one — must be a row there, so a code written inline without a table
 * entry fails here, naming the file. It also holds each package's README to its code table: the
 * README's code table lists every code of the package's table (a README whose table is generated
 * agrees by construction; a table written by hand is checked here).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { codeLiterals, isSourceFile, packageSourceRoots } from "../../../scripts/code-literals.mjs";
import { buildCatalogue } from "../../../scripts/codes-catalogue.mjs";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const catalogue = readFileSync(join(root, "docs/codes.md"), "utf8");
const rows = [...catalogue.matchAll(/^\| ([A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+) \|/gm)].map(
  (match) => match[1] as string,
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => !/(?:^|\/)(?:node_modules|dist|fixtures|e2e|cassettes)\//.test(name))
    .filter((name) => isSourceFile(name))
    .map((name) => join(dir, name));
}

/** Every code the packages' non-test source writes, each with the first file that writes it. */
function emittedCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const { dir } of packageSourceRoots(root)) {
    for (const file of sourceFiles(dir)) {
      for (const code of codeLiterals(readFileSync(file, "utf8"))) {
        if (!codes.has(code)) codes.set(code, relative(root, file));
      }
    }
  }
  return codes;
}

describe("the code catalogue (docs/codes.md)", () => {
  it("has one row per code", () => {
    expect(rows.length).toBeGreaterThan(300);
    expect(rows.filter((code, index) => rows.indexOf(code) !== index)).toEqual([]);
  });

  it("has a row for every code a package's source writes", () => {
    const emitted = emittedCodes();
    // Every package with codes is scanned, so a broken scan cannot pass by finding nothing.
    expect(emitted.size).toBeGreaterThan(300);
    const catalogued = new Set(rows);
    const missing = [...emitted]
      .filter(([code]) => !catalogued.has(code))
      .map(([code, file]) => `${code} (${file})`);
    expect(missing).toEqual([]);
  });

  it("has each package's codes in that package's README code table", () => {
    const missing: string[] = [];
    const packages = new Set<string>();
    for (const row of buildCatalogue()) {
      for (const owner of row.owners) {
        packages.add(owner);
        const readme = join(root, owner === "cli" ? "apps" : "packages", owner, "README.md");
        const tableRows = readFileSync(readme, "utf8")
          .split("\n")
          .filter((line) => line.startsWith("|"));
        const listed = tableRows.some(
          (line) => line.startsWith(`| \`${row.code}\` |`) || line.startsWith(`| ${row.code} |`),
        );
        if (!listed) missing.push(`${row.code} (${relative(root, readme)})`);
      }
    }
    expect(packages.size).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
