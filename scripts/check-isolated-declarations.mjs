// Fails when a package's published declarations could not be written without a type checker.
// A publishing build writes declarations with oxc's isolated declarations (tsdown.shared.ts,
// `declarations: "isolated"`), which read each module alone: an exported declaration whose type
// only inference across files could give (an unannotated exported const holding a call's result,
// a function without a return type, a parameter whose default is not a literal, …) fails that
// build, but only when someone builds for publishing — the release test, or `pnpm release`.
// `pnpm typecheck` runs this after tsc, so the author of such a line hears of it with the
// type errors, long before a release: the same oxc as the build (the rolldown tsdown uses), over every non-test
// source of every package that uses isolated declarations, in well under a second.
//
// Usage: node scripts/check-isolated-declarations.mjs [workspace root]
// Prints every problem as `file:line:column: message` and exits 1 if there is one.
// packages/testing/src/isolated-declarations.test.ts holds the check to that.

import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SCRIPT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

// The rolldown (and so the oxc) tsdown builds with, not another copy: resolved from tsdown.
const tsdownRequire = createRequire(
  createRequire(join(SCRIPT_ROOT, "package.json")).resolve("tsdown"),
);
const { isolatedDeclarationSync } = await import(
  pathToFileURL(tsdownRequire.resolve("rolldown/experimental")).href
);

// What is not published source: tests, type tests, test helpers, fixtures.
const NOT_PUBLISHED =
  /(?:\.test(?:-d|-helper)?\.ts$|(?:^|\/)(?:fixtures|e2e|cassettes|node_modules|dist)\/)/;

/** The package folders (packages/*, apps/*) whose publishing build uses isolated declarations. */
function isolatedPackages(root) {
  const folders = [];
  for (const group of ["packages", "apps"]) {
    let names;
    try {
      names = readdirSync(join(root, group));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      let config;
      try {
        config = readFileSync(join(root, group, name, "tsdown.config.ts"), "utf8");
      } catch {
        continue; // not a built package
      }
      // A package on tsc's declarations says so in its config (tsdown.shared.ts's option).
      if (!/declarations:\s*"checked"/.test(config)) folders.push(join(group, name));
    }
  }
  return folders;
}

function sourceFiles(root, packageDir) {
  let names;
  try {
    names = readdirSync(join(root, packageDir, "src"), { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".ts") && !NOT_PUBLISHED.test(name))
    .sort()
    .map((name) => join(packageDir, "src", name));
}

/** 1-based line and column of an offset into `text`: oxc's spans count UTF-8 bytes. */
function position(text, byteOffset) {
  const before = Buffer.from(text, "utf8").subarray(0, byteOffset).toString("utf8");
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * Every exported declaration of the workspace at `root` that oxc cannot declare alone, as
 * `file:line:column: message` with the file relative to `root`.
 */
export function isolatedDeclarationProblems(root) {
  const problems = [];
  for (const packageDir of isolatedPackages(root)) {
    for (const file of sourceFiles(root, packageDir)) {
      const text = readFileSync(join(root, file), "utf8");
      const result = isolatedDeclarationSync(join(root, file), text, { stripInternal: false });
      for (const error of result.errors) {
        const start = error.labels?.[0]?.start;
        const at = start === undefined ? { line: 1, column: 1 } : position(text, start);
        problems.push(
          `${relative(root, join(root, file))}:${at.line}:${at.column}: ${error.message}`,
        );
      }
    }
  }
  return problems;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename;
if (isMain) {
  const problems = isolatedDeclarationProblems(resolve(process.argv[2] ?? SCRIPT_ROOT));
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    console.error(
      `\n${problems.length} exported declaration(s) need an explicit type: the publishing build ` +
        "writes declarations without a type checker (tsdown.shared.ts, DeclarationSource).",
    );
    process.exit(1);
  }
}
