import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";

/**
 * The file each package's build writes last into its `dist` (tsdown.shared.ts writes it). A
 * build that was stopped half-way leaves none, because a build first empties `dist`.
 */
export const BUILD_STAMP = "build-complete.json";

/** The code `climpt` reports a missing or partial build with (exit 1: nothing could run). */
export const INCOMPLETE_BUILD_CODE = "AC-BUILD-001";

/** A package whose `dist` has no build stamp. */
export interface IncompleteBuild {
  readonly name: string;
  readonly dir: string;
}

interface Manifest {
  readonly name?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
}

/**
 * The folder of `name` the way Node finds a bare package name from `fromDir`: the nearest
 * `node_modules/<name>` up the folder tree (symlinks followed, as pnpm links workspace packages);
 * undefined when there is none.
 */
function packageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The first package, among `rootDir`'s own and its `@climpt/*` dependencies (transitively), whose
 * build is missing or incomplete; undefined when every one is complete. It reads package.json
 * files only, so it is cheap enough to run before every command, and it must run before any
 * `@climpt/*` module is imported: a half-written `dist` fails at import with an internal error.
 */
export function findIncompleteBuild(rootDir: string): IncompleteBuild | undefined {
  const seen = new Set<string>();
  const pending: string[] = [rootDir];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    const manifest = readManifest(dir);
    const name = manifest.name ?? dir;
    if (!existsSync(path.join(dir, "dist", BUILD_STAMP))) return { name, dir };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (!dependency.startsWith("@climpt/")) continue;
      const found = packageDir(dependency, dir);
      if (found === undefined) return { name: dependency, dir: path.join(dir, "node_modules") };
      pending.push(found);
    }
  }
  return undefined;
}

/** What `climpt` prints for an incomplete build: what is wrong, where, and the command that fixes it. */
export function incompleteBuildMessage(broken: IncompleteBuild): string {
  return [
    `climpt: ${INCOMPLETE_BUILD_CODE} the build of ${broken.name} is missing or incomplete`,
    `  (no dist/${BUILD_STAMP} in ${broken.dir}; a build was probably stopped half-way).`,
    "  Fix: run `pnpm build` at the root of the climpt checkout (or reinstall climpt), then try again.",
    "",
  ].join("\n");
}
