/**
 * The packages of this workspace as the release sees them: name, version, folder, and whether
 * they are published (`private` is not).
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo root: the nearest folder above this file (src/ or the bundle in dist/) with pnpm-workspace.yaml. */
export const WORKSPACE_ROOT: string = findWorkspaceRoot(
  path.dirname(fileURLToPath(import.meta.url)),
);

function findWorkspaceRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, "pnpm-workspace.yaml"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No pnpm-workspace.yaml above ${from}.`);
    dir = parent;
  }
  return `${dir}${path.sep}`;
}

/** A workspace package: its name, folder, and whether it is published. */
export interface WorkspacePackage {
  readonly name: string;
  readonly version: string;
  readonly dir: string;
  readonly private: boolean;
}

/** Every package of the workspace (packages/*, apps/*), in folder order. */
export async function workspacePackages(): Promise<WorkspacePackage[]> {
  const found: WorkspacePackage[] = [];
  for (const group of ["packages", "apps"]) {
    const groupDir = path.join(WORKSPACE_ROOT, group);
    for (const entry of (await readdir(groupDir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const manifestFile = path.join(groupDir, entry.name, "package.json");
      if (!entry.isDirectory() || !existsSync(manifestFile)) continue;
      const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as {
        name: string;
        version: string;
        private?: boolean;
      };
      found.push({
        name: manifest.name,
        version: manifest.version,
        dir: path.dirname(manifestFile),
        private: manifest.private === true,
      });
    }
  }
  return found;
}

/** A dependency a published package declares: the package and the range it asks for. */
export interface DependencyRange {
  readonly name: string;
  readonly range: string;
}

/**
 * The third-party `dependencies` that installing `roots` pulls in besides our packages (through
 * their `workspace:` dependencies, not their optional peers), each distinct range once; `peers`
 * adds those optional peers of the packages visited, with their ranges.
 */
export async function thirdPartyDependenciesOf(
  roots: readonly string[],
  peers: readonly string[] = [],
): Promise<DependencyRange[]> {
  const byName = new Map((await workspacePackages()).map((pkg) => [pkg.name, pkg]));
  const wanted = new Map<string, DependencyRange>();
  const visited = new Set<string>();
  const visit = async (name: string): Promise<void> => {
    const pkg = byName.get(name);
    if (pkg === undefined || visited.has(name)) return;
    visited.add(name);
    const manifest = JSON.parse(await readFile(path.join(pkg.dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const chosenPeers = Object.entries(manifest.peerDependencies ?? {}).filter(([peer]) =>
      peers.includes(peer),
    );
    for (const [dependency, range] of [
      ...Object.entries(manifest.dependencies ?? {}),
      ...chosenPeers,
    ]) {
      if (range.startsWith("workspace:")) await visit(dependency);
      else wanted.set(`${dependency}@${range}`, { name: dependency, range });
    }
  };
  for (const root of roots) await visit(root);
  return [...wanted.values()];
}
