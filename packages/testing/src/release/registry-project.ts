/**
 * A project of a user's own, outside the monorepo, that installs from the local registry: its
 * `.npmrc` names the registry (npm and pnpm both read it), and npm's and pnpm's caches are
 * folders of the project, so what it installs comes from the registry and not from a cache an
 * earlier run filled, and nothing is left behind.
 */
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LocalRegistry } from "./local-registry.ts";
import { runTool, toolEnv } from "./run-tool.ts";

export type PackageManager = "npm" | "pnpm";

/** One installed package: `name@version`. */
export interface InstalledPackages {
  /** `name@version` of every package in node_modules, ours included, sorted. */
  readonly packages: readonly string[];
  /** Bytes of the files under node_modules (what `du --apparent-size` counts, links once). */
  readonly bytes: number;
}

export interface RegistryProject {
  readonly dir: string;
  readonly manager: PackageManager;
  /** The environment for the package manager and for the project's commands. */
  readonly env: NodeJS.ProcessEnv;
  /** `npm i [-D] …` or `pnpm add [-D] …`; resolves to the manager's output. */
  add(packages: readonly string[], options?: { dev?: boolean }): Promise<string>;
  /** What node_modules holds now. */
  installed(): Promise<InstalledPackages>;
  remove(): Promise<void>;
}

async function sizeOf(target: string, seen: Set<number>): Promise<number> {
  const stat = await lstat(target);
  if (stat.isSymbolicLink()) return 0;
  if (!stat.isDirectory()) {
    // pnpm hard-links files from its store: count each file once.
    if (stat.nlink > 1) {
      if (seen.has(stat.ino)) return 0;
      seen.add(stat.ino);
    }
    return stat.size;
  }
  let total = 0;
  for (const entry of await readdir(target)) total += await sizeOf(path.join(target, entry), seen);
  return total;
}

async function npmInstalled(dir: string): Promise<string[]> {
  const lock = JSON.parse(
    await readFile(path.join(dir, "node_modules", ".package-lock.json"), "utf8"),
  ) as { packages: Record<string, { name?: string; version?: string; link?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([location, entry]) => location.startsWith("node_modules/") && entry.link !== true)
    .map(([location, entry]) => {
      const name = entry.name ?? location.slice(location.lastIndexOf("node_modules/") + 13);
      return `${name}@${entry.version ?? ""}`;
    });
}

/** pnpm's virtual store: one folder per package version, `@scope+name@1.2.3` (peers after `_`). */
async function pnpmInstalled(dir: string): Promise<string[]> {
  const store = path.join(dir, "node_modules", ".pnpm");
  const found = new Set<string>();
  for (const entry of await readdir(store)) {
    if (entry === "node_modules" || entry.startsWith(".") || entry.endsWith(".yaml")) continue;
    const withoutPeers = entry.split("_")[0] ?? entry;
    const at = withoutPeers.lastIndexOf("@");
    found.add(`${withoutPeers.slice(0, at).replace("+", "/")}@${withoutPeers.slice(at + 1)}`);
  }
  return [...found];
}

/** A new empty project (`type: module`, a git repository is the caller's business). */
export async function createRegistryProject(
  registry: LocalRegistry,
  manager: PackageManager,
): Promise<RegistryProject> {
  const root = await mkdtemp(path.join(tmpdir(), `climpt-user-${manager}-`));
  const dir = path.join(root, "my-project");
  await mkdir(dir);
  await writeFile(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: "my-project", version: "1.0.0", private: true, type: "module" }, null, 2)}\n`,
  );
  await writeFile(path.join(dir, ".npmrc"), registry.npmrc);
  // Beside the project, not in it: the project's git status shows only what the user made.
  const caches = path.join(root, "caches");
  await mkdir(caches);
  // No user config: a ~/.npmrc with another registry or a real token is not read.
  const userConfig = path.join(caches, "npmrc");
  await writeFile(userConfig, "");
  const env = toolEnv({
    ...registry.env,
    npm_config_userconfig: userConfig,
    npm_config_cache: path.join(caches, "npm"),
    npm_config_cache_dir: path.join(caches, "pnpm-cache"),
    npm_config_store_dir: path.join(caches, "pnpm-store"),
    // Nothing asks whether to go on.
    CI: "1",
  });
  return {
    dir,
    manager,
    env,
    add(packages, options = {}) {
      const dev = options.dev === false ? [] : ["--save-dev"];
      const args =
        manager === "npm"
          ? ["install", ...dev, "--no-audit", "--no-fund", ...packages]
          : ["add", ...dev, ...packages];
      return runTool(manager, args, { cwd: dir, env });
    },
    async installed() {
      const packages = manager === "npm" ? await npmInstalled(dir) : await pnpmInstalled(dir);
      const modules = path.join(dir, "node_modules");
      return {
        packages: packages.sort(),
        bytes: existsSync(modules) ? await sizeOf(modules, new Set()) : 0,
      };
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
