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
// Usage: node scripts/check-isolated-declarations.mjs
// Prints every problem as `file:line:column: message` and exits 1 if there is one.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

// The rolldown (and so the oxc) tsdown builds with, not another copy: resolved from tsdown.
const tsdownRequire = createRequire(createRequire(join(ROOT, "package.json")).resolve("tsdown"));
const { isolatedDeclarationSync } = await import(
  pathToFileURL(tsdownRequire.resolve("rolldown/experimental")).href
);

// What is not published source: tests, type tests, test helpers, fixtures.
const NOT_PUBLISHED =
  /(?:\.test(?:-d|-helper)?\.ts$|(?:^|\/)(?:fixtures|e2e|cassettes|node_modules|dist)\/)/;

/** The package folders (packages/*, apps/*) whose publishing build uses isolated declarations. */
function isolatedPackages() {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed
    .split("\n")
    .filter((path) => /^(?:packages|apps)\/[^/]+\/tsdown\.config\.ts$/.test(path))
    .filter((config) => {
      const text = readFileSync(join(ROOT, config), "utf8");
      // A package on tsc declarations says so in its config (tsdown.shared.ts's option).
      return /declarations:\s*"checked"/.test(text) === false;
    })
    .map((config) => dirname(config));
}

function sourceFiles(packageDir) {
  const listed = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "--", "src"],
    { cwd: join(ROOT, packageDir), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  return listed
    .split("\n")
    .filter((path) => path.endsWith(".ts") && !NOT_PUBLISHED.test(path))
    .map((path) => join(packageDir, path));
}

/** 1-based line and column of a byte offset… oxc's spans are UTF-8 byte offsets. */
function position(text, byteOffset) {
  const before = Buffer.from(text, "utf8").subarray(0, byteOffset).toString("utf8");
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

const problems = [];
for (const packageDir of isolatedPackages()) {
  for (const file of sourceFiles(packageDir)) {
    let text;
    try {
      text = readFileSync(join(ROOT, file), "utf8");
    } catch {
      continue; // deleted in the work tree but still in the index
    }
    const result = isolatedDeclarationSync(join(ROOT, file), text, { stripInternal: false });
    for (const error of result.errors) {
      const start = error.labels?.[0]?.start;
      const at = start === undefined ? { line: 1, column: 1 } : position(text, start);
      problems.push(`${file}:${at.line}:${at.column}: ${error.message}`);
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(
    `\n${problems.length} exported declaration(s) need an explicit type: the publishing build ` +
      "writes declarations without a type checker (tsdown.shared.ts, DeclarationSource).",
  );
  process.exit(1);
}
