// Fails when a package imports a workspace package its manifest does not let it: a package's
// source (not its tests) may import only the packages in its `dependencies` /
// `peerDependencies`, which sit on lower floors (scripts/package-graph.mjs), so nothing imports
// upward or sideways; a test may also import its `devDependencies`. An import the manifest does
// not declare works in the workspace (pnpm links every package) and breaks once the package is
// installed on its own. Run by `pnpm lint`.
//
// Usage: node scripts/check-package-floors.mjs [root]

import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { importedSpecifiers } from "./module-imports.mjs";
import { packageFloors, packageOfSpecifier, workspacePackages } from "./package-graph.mjs";

const SOURCE = /\.(?:ts|mts|cts|tsx|js|mjs|cjs)$/;
/**
 * Tests, type tests, test helpers, benchmarks, examples type-checked with the tests, and the
 * harnesses of end-to-end suites (an `e2e/` folder): what runs only in the package's own checks.
 */
const TEST = /(?:(?:\.test(?:-d)?|\.test-helper|\.bench|\.example)\.[a-z]+$|\/e2e\/)/;

/**
 * Imports that break the floors today and are known, each with why it is still there. An entry
 * that no longer occurs fails the check too, so the list only shrinks.
 */
const KNOWN = new Map([]);
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "fixtures", "cassettes"]);

function sourceFiles(directory) {
  const files = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name)) files.push(path);
  }
  return files;
}

/** The imports that break the floors, one line each. */
export function floorViolations(root) {
  const packages = workspacePackages(root);
  const floors = packageFloors(packages);
  const names = new Set(packages.map((pkg) => pkg.name));
  const violations = [];
  const unused = new Set(KNOWN.keys());
  for (const pkg of packages) {
    const src = join(root, pkg.dir, "src");
    let files;
    try {
      files = sourceFiles(src);
    } catch {
      continue; // no src folder
    }
    for (const file of files) {
      const isTest = TEST.test(file);
      const allowed = new Set([
        pkg.name,
        ...pkg.dependencies,
        ...(isTest ? pkg.devDependencies : []),
      ]);
      for (const specifier of importedSpecifiers(file)) {
        const target = packageOfSpecifier(specifier, names);
        if (target === undefined || allowed.has(target)) continue;
        const where = file.slice(root.length + 1);
        if (unused.delete(`${where} -> ${target}`) || KNOWN.has(`${where} -> ${target}`)) continue;
        const direction =
          floors.get(target) >= floors.get(pkg.name)
            ? `floor ${floors.get(target)}, not below ${pkg.name}'s floor ${floors.get(pkg.name)}`
            : `floor ${floors.get(target)}`;
        violations.push(
          `PACKAGE-FLOOR-001 ${where} imports ${target} (${direction}), which ${pkg.dir}/package.json does not list in ${isTest ? "dependencies or devDependencies" : "dependencies"}.`,
        );
      }
    }
  }
  for (const entry of unused) {
    violations.push(
      `PACKAGE-FLOOR-002 "${entry}" is listed as a known exception in scripts/check-package-floors.mjs but no longer occurs: delete it from KNOWN.`,
    );
  }
  return { packages, floors, violations };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename;
if (isMain) {
  const root = resolve(process.argv[2] ?? ".");
  const { packages, floors, violations } = floorViolations(root);
  for (const line of violations) console.error(line);
  if (violations.length > 0) {
    console.error(
      "Import only what the package's manifest declares. A package may depend only on lower floors: move what you need down into the package that owns it (or @climpt/model) instead of importing upward.",
    );
    process.exit(1);
  }
  const top = Math.max(...floors.values());
  console.log(
    `check-package-floors: ${packages.length} packages on ${top + 1} floors; every import is declared and points down.`,
  );
}
