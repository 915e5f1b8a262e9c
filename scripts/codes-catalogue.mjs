// Writes docs/codes.md, the one catalogue of every code climpt reports, from the packages' code
// tables; `--check` (run by `pnpm lint`) fails when the file is not what the tables say, so the
// catalogue cannot drift from the code. A code table is an exported `const …_CODES = { … }`
// (optionally inside `Object.freeze(…)`) in a package's non-test source. Its entries take one of
// two forms:
//   /** Meaning. Example: `a message`. Fix: what to do. */  name: "CODE",
//   /** Example: `a message`. Fix: what to do. */            "CODE": "Meaning.",
// The doc comment's "Example:" and "Fix:" parts are optional. "Emitted by" lists the packages
// whose table holds the code and the packages whose source writes it.
//
// It also fills the code table of each README that holds the markers of renderReadmes below.
//
// Usage: node scripts/codes-catalogue.mjs [--check]

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { codeLiterals, isSourceFile, packageSourceRoots } from "./code-literals.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "docs/codes.md");

/** The files under `dir` that are package source (not tests, fixtures or build output). */
function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!["node_modules", "dist", "fixtures", "e2e", "cassettes"].includes(entry.name)) {
        files.push(...sourceFiles(path));
      }
    } else if (isSourceFile(entry.name)) {
      files.push(path);
    }
  }
  return files;
}

/** Splits a doc comment into its meaning, its example and its fix. */
function splitDoc(text) {
  const flat = text.replace(/\s+/g, " ").trim();
  const fixAt = flat.search(/(?:^| )Fix: /);
  const exampleAt = flat.search(/(?:^| )Example: /);
  const cut = (from, to) => flat.slice(from, to === -1 ? undefined : to).trim();
  const meaningEnd = [fixAt, exampleAt].filter((at) => at !== -1).sort((a, b) => a - b)[0] ?? -1;
  return {
    meaning: cut(0, meaningEnd),
    example:
      exampleAt === -1
        ? ""
        : cut(exampleAt, fixAt > exampleAt ? fixAt : -1).replace(/^Example: /, ""),
    fix: fixAt === -1 ? "" : cut(fixAt, exampleAt > fixAt ? exampleAt : -1).replace(/^Fix: /, ""),
  };
}

function docOf(node, source) {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const doc = ranges
    .map((range) => source.text.slice(range.pos, range.end))
    .find((c) => c.startsWith("/**"));
  if (doc === undefined) return "";
  return doc
    .replace(/^\/\*\*|\*\/$/g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))
    .join("\n");
}

/** Every entry of every code table in one file, as { code, meaning, example, fix, table }. */
function tableEntries(file) {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const entries = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const name = declaration.name.getText(source);
      if (!name.endsWith("_CODES") || declaration.initializer === undefined) continue;
      let value = declaration.initializer;
      while (
        ts.isAsExpression(value) ||
        ts.isCallExpression(value) ||
        ts.isSatisfiesExpression(value)
      ) {
        value = ts.isCallExpression(value) ? value.arguments[0] : value.expression;
      }
      if (!ts.isObjectLiteralExpression(value)) continue;
      for (const property of value.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isStringLiteral(property.initializer))
          continue;
        const key = ts.isStringLiteral(property.name)
          ? property.name.text
          : property.name.getText(source);
        const text = property.initializer.text;
        const doc = splitDoc(docOf(property, source));
        if (codeLiterals(`"${key}"`).length === 1) {
          entries.push({
            code: key,
            ...doc,
            meaning: text.replace(/\s+/g, " ").trim(),
            table: name,
          });
        } else {
          entries.push({ code: text, ...doc, table: name });
        }
      }
    }
  }
  return entries;
}

/** The catalogue: one row per code, in code order. */
export function buildCatalogue() {
  const rows = new Map();
  for (const { name, dir } of packageSourceRoots(root)) {
    for (const file of sourceFiles(dir)) {
      for (const entry of tableEntries(file)) {
        const row = rows.get(entry.code);
        if (row === undefined) {
          rows.set(entry.code, { ...entry, owners: new Set([name]), emitters: new Set() });
        } else {
          row.owners.add(name);
          for (const part of ["meaning", "example", "fix"]) {
            if (row[part] === "") row[part] = entry[part];
          }
        }
      }
    }
  }
  for (const { name, dir } of packageSourceRoots(root)) {
    for (const file of sourceFiles(dir)) {
      for (const code of codeLiterals(readFileSync(file, "utf8")))
        rows.get(code)?.emitters.add(name);
    }
  }
  return [...rows.values()].sort((a, b) => a.code.localeCompare(b.code));
}

const cell = (text) => text.replace(/\|/g, "\\|").replace(/\\\\\|/g, "\\|");

export function renderCatalogue(rows) {
  const lines = [
    "# Codes",
    "",
    "<!-- Generated by scripts/codes-catalogue.mjs from the packages' code tables (`…_CODES` in",
    "their source); edit a table and run `node scripts/codes-catalogue.mjs`. `pnpm lint` checks it. -->",
    "",
    "Every code a climpt package reports, one row each. A code never changes meaning: when two",
    "packages notice the same mistake they report it with the same code. What a `Problem` or a",
    "failed result carries is described in [@climpt/registry-schema's README](../packages/registry-schema/README.md#error-catalogue)",
    "and the code families in [design.md](design.md#errors). Every problem is an error unless its",
    "meaning says *warning*.",
    "",
    `${rows.length} codes.`,
    "",
    "| code | emitted by | meaning | example message | fix |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const row of rows) {
    const packages = [...new Set([...row.owners, ...row.emitters])].sort().join(", ");
    lines.push(
      `| ${row.code} | ${packages} | ${cell(row.meaning)} | ${cell(row.example)} | ${cell(row.fix)} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const BEGIN =
  "<!-- codes: generated from this package's code table by scripts/codes-catalogue.mjs -->";
const END = "<!-- /codes -->";

/**
 * A README that holds the two markers gets its package's codes between them, so its code table
 * agrees with the code table by construction. Other READMEs keep a code table written by hand
 * (packages/testing/src/code-catalogue.test.ts checks it lists every code of the package's table).
 */
export function renderReadmes(rows) {
  const readmes = new Map();
  for (const { name, dir } of packageSourceRoots(root)) {
    const readme = join(dir, "../README.md");
    let text;
    try {
      text = readFileSync(readme, "utf8");
    } catch {
      continue;
    }
    const begin = text.indexOf(BEGIN);
    const end = text.indexOf(END, begin);
    if (begin === -1 || end === -1 || readmes.has(readme)) continue;
    const table = [
      "| code | meaning | fix |",
      "| --- | --- | --- |",
      ...rows
        .filter((row) => row.owners.has(name))
        .map((row) => `| \`${row.code}\` | ${cell(row.meaning)} | ${cell(row.fix)} |`),
    ];
    readmes.set(
      readme,
      `${text.slice(0, begin + BEGIN.length)}\n\n${table.join("\n")}\n\n${text.slice(end)}`,
    );
  }
  return readmes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = buildCatalogue();
  const files = new Map([[target, renderCatalogue(rows)], ...renderReadmes(rows)]);
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const [file, text] of files) {
    let current = "";
    try {
      current = readFileSync(file, "utf8");
    } catch {}
    if (current === text) continue;
    stale++;
    if (check) {
      console.error(
        `${relative(root, file)} is not what the code tables say: run node scripts/codes-catalogue.mjs`,
      );
    } else {
      writeFileSync(file, text);
      console.log(`wrote ${relative(root, file)}`);
    }
  }
  if (check && stale > 0) process.exit(1);
}
