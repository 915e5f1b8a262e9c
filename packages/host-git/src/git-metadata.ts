import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { GitMetadata } from "@climpt/model";
import type { GitLayout } from "./git-layout.ts";

// The record's type lives in @climpt/model (the journal's `run_start` carries it, and
// @climpt/protocol may depend on model alone); this file reads and compares it.
export type { GitMetadata } from "@climpt/model";

/** One difference between two readings, for a message: what changed and where. */
export interface GitMetadataChange {
  readonly what: string;
  readonly file: string;
  readonly before: string;
  readonly after: string;
}

/**
 * Whether `file` is an empty regular file. A sandbox that keeps an absent path read-only binds
 * /dev/null over an empty file it creates (Claude Code's sandbox does so for
 * `.git/config.worktree`), and such a file can say nothing: an empty `config.worktree` sets
 * nothing, an empty `commondir` names nowhere (git refuses to read it). It counts as absent.
 */
function isEmptyFile(file: string): boolean {
  try {
    const stats = lstatSync(file);
    return stats.isFile() && stats.size === 0;
  } catch {
    return false;
  }
}

function readOrNull(file: string): string | null {
  if (isEmptyFile(file)) return null;
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function dotGitState(file: string): string {
  try {
    const stats = lstatSync(file);
    if (stats.isSymbolicLink()) return `symlink:${realpathSync(file)}`;
    if (stats.isDirectory()) return `directory:${realpathSync(file)}`;
    if (stats.isFile()) return `file:${readFileSync(file, "utf8")}`;
    return "other";
  } catch {
    return "missing";
  }
}

function hashOrNull(file: string): string | null {
  const text = readOrNull(file);
  return text === null ? null : createHash("sha256").update(text).digest("hex");
}

/** Reads the metadata of `layout` now, at the layout's paths (nothing is discovered again). */
export function readGitMetadata(layout: GitLayout): GitMetadata {
  return {
    workTree: layout.workTree,
    gitDir: layout.gitDir,
    commonDir: layout.commonDir,
    dotGit: dotGitState(path.join(layout.workTree, ".git")),
    commondir: readOrNull(path.join(layout.gitDir, "commondir")),
    gitdirFile: readOrNull(path.join(layout.gitDir, "gitdir")),
    configWorktree: hashOrNull(path.join(layout.gitDir, "config.worktree")),
    repository:
      existsSync(path.join(layout.gitDir, "HEAD")) &&
      existsSync(path.join(layout.commonDir, "objects"))
        ? "present"
        : "missing",
  };
}

function shown(value: string | null): string {
  if (value === null) return "absent";
  const oneLine = value.replace(/\n$/, "").replaceAll("\n", "\\n");
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

/**
 * What differs between the metadata a run recorded and a reading now, at the recorded paths.
 * Empty when nothing changed.
 */
export function gitMetadataChanges(recorded: GitMetadata): GitMetadataChange[] {
  const layout: GitLayout = {
    workTree: recorded.workTree,
    gitDir: recorded.gitDir,
    commonDir: recorded.commonDir,
    dotGit: recorded.dotGit.startsWith("file:") ? "file" : "directory",
  };
  const now = readGitMetadata(layout);
  const changes: GitMetadataChange[] = [];
  const compare = (what: string, file: string, before: string | null, after: string | null) => {
    if (before !== after) changes.push({ what, file, before: shown(before), after: shown(after) });
  };
  compare(
    "the working tree's .git",
    path.join(recorded.workTree, ".git"),
    recorded.dotGit,
    now.dotGit,
  );
  compare(
    "the commondir file",
    path.join(recorded.gitDir, "commondir"),
    recorded.commondir,
    now.commondir,
  );
  compare(
    "the gitdir file",
    path.join(recorded.gitDir, "gitdir"),
    recorded.gitdirFile,
    now.gitdirFile,
  );
  compare(
    "config.worktree (its SHA-256)",
    path.join(recorded.gitDir, "config.worktree"),
    recorded.configWorktree,
    now.configWorktree,
  );
  compare("the repository", recorded.gitDir, recorded.repository, now.repository);
  return changes;
}
