import { lstatSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import { TOOL_CODES } from "./codes.ts";

/** The working directory as given and as its real path (symbolic links resolved). */
export interface WorkingRoot {
  readonly dir: string;
  readonly real: string;
}

export type ConfinedPath =
  | {
      readonly ok: true;
      /** The real path to operate on: every existing part resolved, inside the root. */
      readonly real: string;
      /** Relative to the root, with `/` separators (`.` for the root itself): what results show. */
      readonly relative: string;
      /** Whether the path itself exists. */
      readonly exists: boolean;
    }
  | { readonly ok: false; readonly reason: string };

export function workingRoot(dir: string): WorkingRoot {
  const absolute = path.resolve(dir);
  try {
    if (!statSync(absolute).isDirectory()) throw new Error("not a directory");
    // The native realpath: one system call, where the JavaScript one lstats every segment
    // (a toolbox is created for every step execution).
    return { dir: absolute, real: realpathSync.native(absolute) };
  } catch (cause) {
    throw new ClimptError({
      code: TOOL_CODES.badWorkingDirectory,
      message: `The tools' working directory "${absolute}" does not exist or is not a directory.`,
      hint: "Pass createToolbox an existing directory as cwd (the run's working directory).",
      cause,
    });
  }
}

export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!path.isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${path.sep}`));
}

/**
 * Confines a path the model gave to the working directory. Relative paths are relative to it;
 * absolute paths must lie in it. The lexical check stops `..` and `/etc/passwd`; the real-path
 * check of the path, or of its nearest existing ancestor when it does not exist yet, stops
 * symbolic links that point out (a link to /etc, a linked directory, a file created through a
 * link). A dangling link is refused: writing through it would create its target, wherever it is.
 */
export function confinePath(root: WorkingRoot, input: string): ConfinedPath {
  if (input.includes("\0")) return { ok: false, reason: "the path contains a NUL byte." };
  const absolute = path.resolve(root.dir, input);
  if (!isInside(root.dir, absolute) && !isInside(root.real, absolute)) {
    return {
      ok: false,
      reason: `"${input}" is outside the working directory; file tools only reach files under it.`,
    };
  }

  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      lstatSync(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }

  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    return {
      ok: false,
      reason: `"${input}" goes through a symbolic link whose target does not exist; file tools do not follow it.`,
    };
  }
  if (!isInside(root.real, real)) {
    return {
      ok: false,
      reason: `"${input}" resolves through a symbolic link to a place outside the working directory.`,
    };
  }
  const target = path.join(real, ...missing);
  const relative = path.relative(root.real, target).split(path.sep).join("/") || ".";
  return { ok: true, real: target, relative, exists: missing.length === 0 };
}

/** `.git` (and anything in it) is not writable by file tools: hooks and config could run anything. */
export function isInGitDir(relative: string): boolean {
  return relative.split("/").includes(".git");
}
