// Fails when the relative imports inside a package form a cycle. A cycle means no file of it
// can be read, tested or moved without the others, and the order in which Node evaluates them
// decides which one sees the other's exports still undefined. Run by `pnpm lint`.
//
// Every `.ts` file under each package's `src` (packages/*/src, apps/*/src) is a node; every
// relative import, `export … from`, `import type` and `import("…")` is an edge. Type-only
// imports count too: they vanish at run time, but a cycle through them still ties the files
// together, and it is usually one value import away from a real one. Imports of other packages
// are not followed: scripts/check-package-floors.mjs checks those against the manifests.
// The cycles are the strongly connected components of more than one file (Tarjan's algorithm),
// plus any file that imports itself.
//
// Usage: node scripts/check-import-cycles.mjs [--list] [root]
//   --list  print the cycles and exit 0 (to measure without failing)

import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { importedSpecifiers } from "./module-imports.mjs";

function parseArguments(argv) {
  let list = false;
  let root = ".";
  for (const arg of argv) {
    if (arg === "--list") list = true;
    else root = arg;
  }
  return { list, root: resolve(root) };
}

function isDirectory(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The `src` folder of every package and app under `root`. */
function sourceRoots(root) {
  const roots = [];
  for (const floor of ["packages", "apps"]) {
    const parent = join(root, floor);
    if (!isDirectory(parent)) continue;
    for (const name of readdirSync(parent).sort()) {
      const src = join(parent, name, "src");
      if (isDirectory(src)) roots.push(src);
    }
  }
  return roots;
}

function typeScriptFiles(directory) {
  const files = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "fixtures") continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...typeScriptFiles(path));
    else if (/\.(?:ts|mts|cts|tsx)$/.test(entry.name)) files.push(path);
  }
  return files;
}

/** The file a relative specifier names, or undefined when it names none of the known files. */
function resolveRelative(fromFile, specifier, known) {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [
    base,
    base.replace(/\.(?:m|c)?js$/, ".ts"),
    `${base}.ts`,
    join(base, "index.ts"),
  ];
  return candidates.find((candidate) => known.has(candidate));
}

/** Strongly connected components (Tarjan), iterative so a deep chain cannot overflow the stack. */
function stronglyConnectedComponents(graph) {
  let nextIndex = 0;
  const index = new Map();
  const lowLink = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, edges: [...graph.get(start)], next: 0 }];
    index.set(start, nextIndex);
    lowLink.set(start, nextIndex);
    nextIndex++;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.next < frame.edges.length) {
        const target = frame.edges[frame.next++];
        if (!index.has(target)) {
          index.set(target, nextIndex);
          lowLink.set(target, nextIndex);
          nextIndex++;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edges: [...graph.get(target)], next: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        lowLink.set(parent, Math.min(lowLink.get(parent), lowLink.get(frame.node)));
      }
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** The import graph of every package's sources and its cycles, each a sorted list of files. */
export function findImportCycles(root) {
  const files = sourceRoots(root).flatMap(typeScriptFiles);
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const specifier of importedSpecifiers(file)) {
      const target = resolveRelative(file, specifier, known);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, targets);
  }
  const cycles = stronglyConnectedComponents(graph)
    .filter((component) => component.length > 1 || graph.get(component[0]).has(component[0]))
    .map((component) => component.map((file) => relative(root, file)).sort());
  cycles.sort((a, b) => a[0].localeCompare(b[0]));
  return { fileCount: files.length, cycles, graph };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename;
if (isMain) {
  const { list, root } = parseArguments(process.argv.slice(2));
  const { fileCount, cycles, graph } = findImportCycles(root);
  for (const cycle of cycles) {
    console.error(`IMPORT-CYCLE-001 ${cycle.length} files import each other in a cycle:`);
    const members = new Set(cycle.map((file) => resolve(root, file)));
    for (const file of cycle) {
      const inCycle = [...graph.get(resolve(root, file))]
        .filter((target) => members.has(target))
        .map((target) => relative(root, target))
        .sort();
      console.error(`  ${file} imports ${inCycle.join(", ")}`);
    }
  }
  if (cycles.length > 0 && !list) {
    console.error(
      "Break each cycle: move the piece both files need into a file of its own that both import, or invert the dependency (pass a function or a value in instead of importing it).",
    );
    process.exit(1);
  }
  console.log(`check-import-cycles: ${fileCount} files, ${cycles.length} import cycles.`);
}
