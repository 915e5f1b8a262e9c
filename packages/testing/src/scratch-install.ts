/**
 * Installs workspace packages the way a user gets them: `pnpm pack` each one (which rewrites
 * `workspace:^` ranges to real versions and keeps only the published `files`), then
 * `npm install` the tarballs into an empty project outside the monorepo. What lands in that
 * project's node_modules is exactly what `npm install <package>` would pull in, so tests can
 * assert on dependency weight and import the packages without the workspace's node_modules.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The monorepo root: this file is two folders below it in both src/ and dist/. */
export const WORKSPACE_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

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

/** The workspace packages with these names; throws on a name the workspace does not have. */
export async function workspacePackagesNamed(
  names: readonly string[],
): Promise<WorkspacePackage[]> {
  const all = await workspacePackages();
  return names.map((name) => {
    const found = all.find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`No workspace package is named ${name}.`);
    return found;
  });
}

/** One package in the scratch project's node_modules. */
export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
  /** Relative to the scratch project, e.g. `node_modules/@climpt/router`. */
  readonly location: string;
}

export interface ScratchInstall {
  /** The scratch project (outside the monorepo). */
  readonly dir: string;
  /** The tarballs `pnpm pack` wrote, by package name. */
  readonly tarballs: Readonly<Record<string, string>>;
  /** Every package npm installed, ours included, sorted by location. */
  readonly installed: readonly InstalledPackage[];
  /** Bytes of all files under node_modules (npm's own bookkeeping included). */
  readonly sizeBytes: number;
  /** Runs `node --input-type=module` in the project with `source`; resolves to its stdout. */
  runModule(source: string): Promise<string>;
  /** Deletes the scratch project. */
  remove(): Promise<void>;
}

export interface ScratchInstallOptions {
  /** Workspace packages to pack and install, all at once (their `@climpt/*` deps included). */
  readonly packages: readonly WorkspacePackage[];
  /** Extra `npm install` flags; the defaults prefer the local cache and run no scripts. */
  readonly npmFlags?: readonly string[];
  /** Parent of the scratch project; the OS temp folder by default. */
  readonly parentDir?: string;
}

/** The environment for pnpm and npm: without the `npm_*` variables of a surrounding pnpm run. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_")) env[key] = value;
  }
  return { ...env, npm_config_update_notifier: "false", npm_config_fund: "false" };
}

async function packOne(pkg: WorkspacePackage, destination: string): Promise<string> {
  const before = new Set(await readdir(destination));
  await run("pnpm", ["pack", "--pack-destination", destination], {
    cwd: pkg.dir,
    env: cleanEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  const added = (await readdir(destination)).filter(
    (name) => name.endsWith(".tgz") && !before.has(name),
  );
  if (added.length !== 1) {
    throw new Error(`pnpm pack in ${pkg.dir} wrote ${added.length} tarballs, expected 1.`);
  }
  return path.join(destination, added[0] as string);
}

async function sizeOf(target: string): Promise<number> {
  const stat = await lstat(target);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of await readdir(target)) total += await sizeOf(path.join(target, entry));
  return total;
}

/**
 * Packs `options.packages` and installs the tarballs together into a new project. Each
 * `@climpt/*` package is pinned to its tarball (dependency and override), so npm never asks the
 * registry for our packages; their other dependencies come from the npm cache or the registry.
 */
export async function installPackedPackages(
  options: ScratchInstallOptions,
): Promise<ScratchInstall> {
  const dir = await mkdtemp(path.join(options.parentDir ?? tmpdir(), "climpt-scratch-"));
  try {
    const tarballDir = path.join(dir, "tarballs");
    await mkdir(tarballDir);
    const tarballs: Record<string, string> = {};
    // One at a time: two `pnpm pack` in one destination could not tell their tarballs apart.
    for (const pkg of options.packages) tarballs[pkg.name] = await packOne(pkg, tarballDir);
    const specs = Object.fromEntries(
      Object.entries(tarballs).map(([name, file]) => [
        name,
        `file:./${path.relative(dir, file).split(path.sep).join("/")}`,
      ]),
    );
    await writeFile(
      path.join(dir, "package.json"),
      `${JSON.stringify(
        {
          name: "climpt-scratch",
          private: true,
          type: "module",
          dependencies: specs,
          overrides: specs,
        },
        null,
        2,
      )}\n`,
    );
    const flags = options.npmFlags ?? [
      "--prefer-offline",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
    ];
    await run("npm", ["install", ...flags], {
      cwd: dir,
      env: cleanEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
    const lock = JSON.parse(
      await readFile(path.join(dir, "node_modules", ".package-lock.json"), "utf8"),
    ) as { packages: Record<string, { name?: string; version?: string; link?: boolean }> };
    const installed: InstalledPackage[] = Object.entries(lock.packages)
      .filter(([location]) => location.startsWith("node_modules/"))
      .map(([location, entry]) => ({
        name: entry.name ?? location.slice(location.lastIndexOf("node_modules/") + 13),
        version: entry.version ?? "",
        location,
      }))
      .sort((a, b) => a.location.localeCompare(b.location));
    const sizeBytes = await sizeOf(path.join(dir, "node_modules"));
    return {
      dir,
      tarballs,
      installed,
      sizeBytes,
      async runModule(source) {
        const { stdout } = await run(process.execPath, ["--input-type=module", "-e", source], {
          cwd: dir,
          env: cleanEnv(),
        });
        return stdout;
      },
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
