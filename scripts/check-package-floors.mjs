// Fails when a package imports a workspace package its manifest does not let it: a package's
// source (not its tests) may import only the packages in its `dependencies` /
// `peerDependencies`, which sit on lower floors (scripts/package-graph.mjs), so nothing imports
// upward or sideways; a test may also import its `devDependencies`. An import the manifest does
// not declare works in the workspace (pnpm links every package) and breaks once the package is
// installed on its own. Run by `pnpm lint`.
//
// A few packages are kept on the bottom floors on purpose (docs/design.md#packages): their whole
// run-time dependency list is pinned in PINNED_DEPENDENCIES, so adding a dependency to one of them
// fails here even when the import it serves would point down.
//
// Usage: node scripts/check-package-floors.mjs [root]

import { readdirSync, readFileSync } from "node:fs";
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

/**
 * Packages whose run-time dependencies (`dependencies` and `peerDependencies`, workspace or not)
 * must be exactly these, each with why. A team builds its own runner on model, gate-interpreter,
 * router and protocol without installing the rest; one added dependency would pull it in.
 */
export const PINNED_DEPENDENCIES = new Map([
  ["@climpt/model", { dependencies: [], why: "the shared vocabulary: it depends on nothing" }],
  [
    "@climpt/gate-interpreter",
    {
      dependencies: ["@climpt/model"],
      why: "pure: a custom runner installs it with the model alone",
    },
  ],
  [
    "@climpt/router",
    {
      dependencies: ["@climpt/model"],
      why: "pure: a custom runner installs it with the model alone",
    },
  ],
  [
    "@climpt/protocol",
    {
      dependencies: ["@climpt/model"],
      why: "the contracts between runners, executors and readers of runs: the records a journal carries live in @climpt/model",
    },
  ],
]);
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

/**
 * The pinned packages whose manifests list other run-time dependencies than PINNED_DEPENDENCIES
 * allows, one line each.
 */
export function pinnedDependencyViolations(root, pinned = PINNED_DEPENDENCIES) {
  const violations = [];
  const dirs = new Map(workspacePackages(root).map((pkg) => [pkg.name, pkg.dir]));
  for (const [name, { dependencies: allowed, why }] of pinned) {
    const dir = dirs.get(name);
    if (dir === undefined) {
      violations.push(
        `PACKAGE-FLOOR-004 ${name} is pinned in scripts/check-package-floors.mjs but is not a workspace package: delete it from PINNED_DEPENDENCIES.`,
      );
      continue;
    }
    const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
    const actual = [
      ...new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]),
    ].sort();
    const expected = [...allowed].sort();
    if (actual.join("\n") === expected.join("\n")) continue;
    const extra = actual.filter((dependency) => !expected.includes(dependency));
    const missing = expected.filter((dependency) => !actual.includes(dependency));
    violations.push(
      `PACKAGE-FLOOR-003 ${dir}/package.json: ${name} must depend on exactly [${expected.join(", ")}] (${why}); ${[
        extra.length > 0 ? `it also lists ${extra.join(", ")}` : "",
        missing.length > 0 ? `it lacks ${missing.join(", ")}` : "",
      ]
        .filter((part) => part !== "")
        .join(
          " and ",
        )}. Move what it needs into @climpt/model (re-export it by name from the old place) instead of adding the dependency.`,
    );
  }
  return violations;
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
  const { packages, floors, violations: importViolations } = floorViolations(root);
  const violations = [...importViolations, ...pinnedDependencyViolations(root)];
  for (const line of violations) console.error(line);
  if (violations.length > 0) {
    console.error(
      "Import only what the package's manifest declares. A package may depend only on lower floors: move what you need down into the package that owns it (or @climpt/model) instead of importing upward.",
    );
    process.exit(1);
  }
  const top = Math.max(...floors.values());
  console.log(
    `check-package-floors: ${packages.length} packages on ${top + 1} floors; every import is declared and points down; ${PINNED_DEPENDENCIES.size} pinned packages depend on what they may.`,
  );
}
