/**
 * Fills the local registry with the third-party packages our published packages depend on. The
 * registry has no uplinks (nothing it serves comes from elsewhere at install time), so the
 * packages a user's `npm i climpt` pulls in besides ours must be there before: npm resolves the
 * dependency ranges once against the npm registry this machine is configured with (its cache
 * first), `npm pack` fetches each resolved version's tarball, and each is published to the local
 * registry from its own manifest.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LocalRegistry, PublishedManifest } from "./local-registry.ts";
import { runTool, toolEnv } from "./run-tool.ts";
import { manifestOfTarball } from "./tarball-manifest.ts";
import type { DependencyRange } from "./workspace-packages.ts";

interface LockEntry {
  readonly name?: string;
  readonly version?: string;
  readonly link?: boolean;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
}

/** Whether an `os` / `cpu` list of package.json admits this machine (`!x` excludes x). */
function admits(list: readonly string[] | undefined, value: string): boolean {
  if (list === undefined || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  return list.includes(value) || list.every((entry) => entry.startsWith("!"));
}

/** Orders versions so that the last one published, which becomes `latest`, is the highest. */
function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const [core = "", pre] = version.split("-", 2);
    return { parts: core.split(".").map((part) => Number.parseInt(part, 10)), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < 3; index++) {
    const difference = (left.parts[index] ?? 0) - (right.parts[index] ?? 0);
    if (difference !== 0) return difference;
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  return left.pre.localeCompare(right.pre);
}

/** What was seeded: `name@version` of every package published to the local registry. */
export interface SeededPackages {
  readonly packages: readonly string[];
}

/**
 * Resolves `dependencies` with npm against the configured registry and publishes
 * every package of the resolution that runs on this machine to `registry`.
 */
export async function seedRegistry(
  registry: LocalRegistry,
  dependencies: readonly DependencyRange[],
): Promise<SeededPackages> {
  const dir = await mkdtemp(path.join(tmpdir(), "climpt-seed-"));
  try {
    await writeFile(
      path.join(dir, "package.json"),
      // Each range under an alias of its own: two packages may ask for one name differently.
      JSON.stringify({
        name: "climpt-seed",
        private: true,
        dependencies: Object.fromEntries(
          dependencies.map(({ name, range }, index) => [`seed-${index}`, `npm:${name}@${range}`]),
        ),
      }),
    );
    const env = toolEnv();
    await runTool(
      "npm",
      ["install", "--package-lock-only", "--prefer-offline", "--ignore-scripts", "--no-audit"],
      { cwd: dir, env },
    );
    const lock = JSON.parse(await readFile(path.join(dir, "package-lock.json"), "utf8")) as {
      packages: Record<string, LockEntry>;
    };
    const specs = new Set<string>();
    for (const [location, entry] of Object.entries(lock.packages)) {
      if (!location.includes("node_modules/") || entry.link === true) continue;
      if (!admits(entry.os, process.platform) || !admits(entry.cpu, process.arch)) continue;
      const name = entry.name ?? location.slice(location.lastIndexOf("node_modules/") + 13);
      specs.add(`${name}@${entry.version ?? ""}`);
    }
    const packed = JSON.parse(
      await runTool(
        "npm",
        [
          "pack",
          ...specs,
          "--json",
          "--prefer-offline",
          "--ignore-scripts",
          "--pack-destination",
          dir,
        ],
        { cwd: dir, env },
      ),
    ) as { name: string; version: string; filename: string }[];
    packed.sort((a, b) => a.name.localeCompare(b.name) || compareVersions(a.version, b.version));
    for (const tarball of packed) {
      const bytes = await readFile(
        path.join(dir, tarball.filename.replace(/^@/, "").replace("/", "-")),
      );
      const manifest = manifestOfTarball(bytes) as PublishedManifest;
      await registry.publishTarball(manifest, bytes);
    }
    return { packages: packed.map((tarball) => `${tarball.name}@${tarball.version}`) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
