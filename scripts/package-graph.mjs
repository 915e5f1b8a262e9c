// The workspace's package graph as the manifests declare it, shared by package-diagram.mjs
// (the diagram in docs/design.md) and check-package-floors.mjs (the imports that lint allows).
//
// A package's floor is how high it sits: 0 when it depends on no workspace package at run time,
// else one above the highest package among its `dependencies`. Only `dependencies` and
// `peerDependencies` count: `devDependencies` are what a package's tests and builds use, and a
// test may drive a package from a higher floor (the viewer's tests make journals with the
// runner) without the package depending on it.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The folders pnpm-workspace.yaml lists (`dir/*` or `dir`), as they are on disk. */
function workspaceFolders(root) {
  const yaml = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const globs = [];
  let inPackages = false;
  for (const line of yaml.split("\n")) {
    if (/^packages:\s*$/.test(line)) {
      inPackages = true;
      continue;
    }
    if (inPackages) {
      const item = /^\s+-\s+["']?([^"'\s]+)["']?\s*$/.exec(line);
      if (item !== null) globs.push(item[1]);
      else if (/^\S/.test(line)) inPackages = false;
    }
  }
  const folders = [];
  for (const glob of globs) {
    if (glob.endsWith("/*")) {
      const parent = glob.slice(0, -2);
      for (const name of readdirSync(join(root, parent)).sort()) {
        if (existsSync(join(root, parent, name, "package.json"))) folders.push(`${parent}/${name}`);
      }
    } else if (existsSync(join(root, glob, "package.json"))) {
      folders.push(glob);
    }
  }
  return folders;
}

/**
 * Every workspace package: its name, folder, and the workspace packages it depends on at run
 * time (`dependencies`, `peerDependencies`) and for its tests and build (`devDependencies`).
 */
export function workspacePackages(root) {
  const manifests = workspaceFolders(root).map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")),
  }));
  const names = new Set(manifests.map(({ manifest }) => manifest.name));
  const inWorkspace = (field) => Object.keys(field ?? {}).filter((name) => names.has(name));
  return manifests
    .map(({ dir, manifest }) => ({
      name: manifest.name,
      dir,
      private: manifest.private === true,
      dependencies: [
        ...new Set([
          ...inWorkspace(manifest.dependencies),
          ...inWorkspace(manifest.peerDependencies),
        ]),
      ].sort(),
      devDependencies: inWorkspace(manifest.devDependencies).sort(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Each package's floor (see the top of this file); throws on a dependency cycle. */
export function packageFloors(packages) {
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const floors = new Map();
  const visiting = new Set();
  const floorOf = (name, path) => {
    const known = floors.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) {
      throw new Error(
        `The packages depend on each other in a cycle: ${[...path, name].join(" → ")}`,
      );
    }
    visiting.add(name);
    let floor = 0;
    for (const dependency of byName.get(name).dependencies) {
      floor = Math.max(floor, floorOf(dependency, [...path, name]) + 1);
    }
    visiting.delete(name);
    floors.set(name, floor);
    return floor;
  };
  for (const pkg of packages) floorOf(pkg.name, []);
  return floors;
}

/** The workspace package a module specifier names (`@climpt/x/sub` → `@climpt/x`), if any. */
export function packageOfSpecifier(specifier, names) {
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return names.has(name) ? name : undefined;
}
