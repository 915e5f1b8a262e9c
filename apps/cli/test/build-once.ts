import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/**
 * The end-to-end tests spawn dist/bin.mjs. turbo builds it before `test` (turbo.json); a bare
 * `vitest` run builds it here when its build is missing, incomplete or older than the sources.
 */
export function setup(): void {
  // The stamp a build writes last (tsdown.shared.ts): a build stopped half-way has none.
  const stamp = path.join(packageDir, "dist", "build-complete.json");
  let builtAt = 0;
  try {
    builtAt = statSync(stamp).mtimeMs;
  } catch {
    builtAt = 0;
  }
  const sourcesAt = Math.max(
    newestMtime(path.join(packageDir, "src")),
    statSync(path.join(packageDir, "package.json")).mtimeMs,
  );
  if (builtAt >= sourcesAt) return;
  const tsdown = path.join(packageDir, "node_modules", ".bin", "tsdown");
  const built = spawnSync(tsdown, ["--logLevel", "warn"], { cwd: packageDir, encoding: "utf8" });
  if (built.status !== 0) {
    throw new Error(
      `Building the CLI for the end-to-end tests failed:\n${built.stdout}${built.stderr}`,
    );
  }
}
