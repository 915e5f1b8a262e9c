/**
 * Folders a package manager, a virtual environment or a build writes, which a repository ignores
 * rather than commits. When one of them is untracked, `git status --porcelain` lists it, and a
 * retry prompt built from that list would ask the model to commit thousands of generated files
 * (node_modules/ in a repository without a .gitignore is the usual case). The fix belongs to the
 * repository (a .gitignore line), not to the model, so the git status extractors of @climpt/validators leave these out
 * of what a retry prompt lists, and `climpt validate` / the run's start name them with that fix.
 *
 * Only names that are generated output in every ecosystem that uses them are here: `vendor/`
 * (committed on purpose in Go and PHP projects), `out/` and `lib/` (often sources) are not.
 */
export const DEPENDENCY_AND_BUILD_FOLDERS: readonly string[] = [
  // JavaScript / TypeScript: dependencies, then build output and tool caches.
  "node_modules",
  "bower_components",
  ".pnpm-store",
  ".yarn",
  "dist",
  "build",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".parcel-cache",
  "coverage",
  // Python: virtual environments and caches.
  ".venv",
  "venv",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".tox",
  // Rust and Maven (target/), Gradle.
  "target",
  ".gradle",
];

const FOLDERS: ReadonlySet<string> = new Set(DEPENDENCY_AND_BUILD_FOLDERS);

/**
 * The dependency or build folder `path` is in or names (`node_modules/`, `app/dist/x.js` →
 * `node_modules/`, `app/dist/`), as git prints it relative to the repository; undefined for any
 * other path. Any depth counts: a workspace package has its own node_modules/.
 */
export function dependencyOrBuildFolderOf(path: string): string | undefined {
  // The last segment is a file, or empty when git wrote a folder with its slash (`dist/`).
  const folders = path.split("/").slice(0, -1);
  const at = folders.findIndex((segment) => FOLDERS.has(segment));
  return at === -1 ? undefined : `${folders.slice(0, at + 1).join("/")}/`;
}

/** Whether `path` is a dependency or build folder or inside one (`dependencyOrBuildFolderOf`). */
export function isDependencyOrBuildPath(path: string): boolean {
  return dependencyOrBuildFolderOf(path) !== undefined;
}
