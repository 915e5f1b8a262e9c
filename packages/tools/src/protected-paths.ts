import { realpathSync } from "node:fs";
import path from "node:path";
import type { ProtectedPath } from "@climpt/model";
import { confinePath, isInside, type WorkingRoot } from "./confine-path.ts";

// `ProtectedPath` lives in @climpt/model (the `StepExecutor` seam in @climpt/protocol hands it
// to every executor, and protocol may depend on model alone); re-exported here by name.
export type { ProtectedPath } from "@climpt/model";

/** A protected path where the file tools and the sandbox meet it. */
export interface ResolvedProtectedPath {
  /** Its real path (symbolic links resolved; an absent tail kept as written). */
  readonly real: string;
  /** Relative to the working directory, with `/`, for messages. */
  readonly relative: string;
  readonly reason: string;
}

/**
 * The protected paths that lie in the working directory, resolved as the file tools resolve a
 * path the model gives; the others are out of the tools' reach already and are left out.
 */
export function resolveProtectedPaths(
  root: WorkingRoot,
  paths: readonly ProtectedPath[],
): ResolvedProtectedPath[] {
  const resolved: ResolvedProtectedPath[] = [];
  const add = (real: string, relative: string, reason: string): void => {
    if (!resolved.some((known) => known.real === real)) resolved.push({ real, relative, reason });
  };
  for (const entry of paths) {
    const confined = confinePath(root, entry.path);
    if (confined.ok) add(confined.real, confined.relative, entry.reason);
    // One that holds the working directory (an agent run in its own folder) protects all of it.
    else if (isInside(realOrResolved(path.resolve(root.dir, entry.path)), root.real)) {
      add(root.real, ".", entry.reason);
    }
  }
  return resolved;
}

/** The protected path that holds `real` (a path the file tools resolved), if any. */
export function protectedPathOf(
  paths: readonly ResolvedProtectedPath[],
  real: string,
): ResolvedProtectedPath | undefined {
  return paths.find((entry) => isInside(entry.real, real));
}

function realOrResolved(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
