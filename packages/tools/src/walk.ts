import { type Dirent, promises as fs } from "node:fs";
import path from "node:path";
import { isInside, type WorkingRoot } from "./confine-path.ts";

export interface WalkOptions {
  readonly root: WorkingRoot;
  /** Directory names never entered (`.git`, `node_modules`). */
  readonly skipDirectories: ReadonlySet<string>;
  /** Stop after this many directory entries, so a huge tree cannot stall a step. */
  readonly maxEntries: number;
}

export interface WalkResult {
  /** Files under the start directory, relative to it, `/`-separated, sorted. */
  readonly files: string[];
  /** The walk stopped at maxEntries. */
  readonly truncated: boolean;
}

/**
 * Lists the files under a directory (which must already be confined). Symbolic links to
 * directories are never entered (no escape, no cycles); a symbolic link to a file is listed only
 * when its target lies inside the working directory.
 */
export async function walkFiles(start: string, options: WalkOptions): Promise<WalkResult> {
  const files: string[] = [];
  const pending: string[] = [""];
  let seen = 0;
  while (pending.length > 0) {
    const relDir = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(start, relDir), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const entry of entries) {
      seen++;
      if (seen > options.maxEntries) {
        files.sort();
        return { files, truncated: true };
      }
      const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!options.skipDirectories.has(entry.name)) pending.push(rel);
      } else if (entry.isFile()) {
        files.push(rel);
      } else if (
        entry.isSymbolicLink() &&
        (await isFileInside(path.join(start, rel), options.root))
      ) {
        files.push(rel);
      }
    }
  }
  files.sort();
  return { files, truncated: false };
}

async function isFileInside(linkPath: string, root: WorkingRoot): Promise<boolean> {
  try {
    const real = await fs.realpath(linkPath);
    return isInside(root.real, real) && (await fs.stat(real)).isFile();
  } catch {
    return false;
  }
}
