import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import { HOST_GIT_CODES } from "./codes.ts";

/**
 * Where a working tree's git data is, computed once from the file system and then passed to git
 * explicitly (`GIT_DIR`, `GIT_COMMON_DIR`, `GIT_WORK_TREE`), so git never looks for it again: a
 * `commondir` file or a rewritten `.git` file appearing later changes nothing git does.
 */
export interface GitLayout {
  /** The working tree's top folder (the folder holding `.git`). */
  readonly workTree: string;
  /** This working tree's git directory: `.git`, or `<common>/worktrees/<id>` for a linked worktree. */
  readonly gitDir: string;
  /** The repository's common directory (objects, refs, config): `gitDir` unless linked. */
  readonly commonDir: string;
  /** Whether the working tree names its git directory with a `.git` directory or a `.git` file. */
  readonly dotGit: "directory" | "file";
}

function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function kindOf(file: string): "directory" | "file" | undefined {
  try {
    const stats = statSync(file);
    return stats.isDirectory() ? "directory" : stats.isFile() ? "file" : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `dir` holds what every git directory holds (`HEAD`, `objects` or `commondir`). */
function looksLikeGitDir(dir: string): boolean {
  return (
    kindOf(path.join(dir, "HEAD")) === "file" &&
    (kindOf(path.join(dir, "objects")) === "directory" ||
      kindOf(path.join(dir, "commondir")) === "file")
  );
}

function layoutError(code: string, message: string, hint: string): ClimptError {
  return new ClimptError({ code, message, hint });
}

/** The path a `.git` file names (`gitdir: <path>`, relative to the file's folder). */
export function readGitFile(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const match = /^gitdir: *(.+?)\s*$/m.exec(text);
  return match?.[1] === undefined ? undefined : path.resolve(path.dirname(file), match[1]);
}

function linkedLayout(workTree: string, dotGit: string, expectCommonDir?: string): GitLayout {
  const named = readGitFile(dotGit);
  if (named === undefined || !looksLikeGitDir(named)) {
    throw layoutError(
      HOST_GIT_CODES.notARepository,
      `${dotGit} does not name a git directory (a "gitdir: <path>" line leading to one).`,
      "Repair the worktree (`git worktree repair` in the repository) or remove it.",
    );
  }
  const gitDir = real(named);
  // A worktree of the repository the caller knows: its common directory is that repository's,
  // whatever a commondir file there says now.
  if (
    expectCommonDir !== undefined &&
    path.dirname(gitDir) === path.join(real(expectCommonDir), "worktrees")
  ) {
    return { workTree, gitDir, commonDir: real(expectCommonDir), dotGit: "file" };
  }
  const commondirFile = path.join(gitDir, "commondir");
  if (kindOf(commondirFile) !== "file") {
    // A separate git directory (`git init --separate-git-dir`) or a submodule's: not linked.
    return { workTree, gitDir, commonDir: gitDir, dotGit: "file" };
  }
  const commonDir = real(path.resolve(gitDir, readFileSync(commondirFile, "utf8").trim()));
  // `git worktree add` puts a linked worktree's git directory at <common>/worktrees/<id>.
  if (
    real(path.dirname(gitDir)) !== path.join(commonDir, "worktrees") ||
    !looksLikeGitDir(commonDir)
  ) {
    throw layoutError(
      HOST_GIT_CODES.unexpectedLayout,
      `${dotGit} leads to ${gitDir}, whose common directory ${commonDir} is not where \`git worktree add\` puts it (${gitDir} would be inside ${path.join(commonDir, "worktrees")}).`,
      "Repair the worktree from its repository (`git worktree repair <path>`), or remove it and make it again.",
    );
  }
  return { workTree, gitDir, commonDir, dotGit: "file" };
}

/**
 * The git layout of the working tree holding `start` (the nearest folder at or above it with a
 * `.git`), read from the file system without running git; null outside any repository.
 *
 * A `.git` directory is its own common directory: a `commondir` file inside it is ignored (git
 * itself would follow it, and only a linked worktree's git directory ever has one). A `.git` file
 * is followed to its git directory, and a linked one must sit at `<common>/worktrees/<id>`.
 * `expectCommonDir`, when given, is the repository the working tree must belong to: a git
 * directory at `<expectCommonDir>/worktrees/<id>` has it as its common directory (its
 * `commondir` file is not read), anything else is `GIT-HOST-004`.
 */
export function findGitLayout(
  start: string,
  options: { readonly expectCommonDir?: string } = {},
): GitLayout | null {
  for (let dir = real(start); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    let layout: GitLayout | undefined;
    const kind = kindOf(dotGit);
    if (kind === "directory" && looksLikeGitDir(dotGit)) {
      // A symbolic link named .git is followed (as git does), to its real directory.
      const gitDir = real(dotGit);
      layout = { workTree: dir, gitDir, commonDir: gitDir, dotGit: "directory" };
    } else if (kind === "file") {
      layout = linkedLayout(dir, dotGit, options.expectCommonDir);
    }
    if (layout !== undefined) {
      const expected = options.expectCommonDir;
      if (expected !== undefined && real(expected) !== layout.commonDir) {
        throw layoutError(
          HOST_GIT_CODES.unexpectedLayout,
          `${dotGit} belongs to the repository at ${layout.commonDir}, not to ${real(expected)}.`,
          `Check that ${dir} is a worktree of the repository (\`git worktree list\` there).`,
        );
      }
      return layout;
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** `findGitLayout`, with `GIT-HOST-001` instead of null outside a repository. */
export function gitLayoutOf(
  start: string,
  options: { readonly expectCommonDir?: string } = {},
): GitLayout {
  const layout = findGitLayout(start, options);
  if (layout === null) {
    throw layoutError(
      HOST_GIT_CODES.notARepository,
      `${start} is not inside a git working tree.`,
      "Run inside a git repository (`git init`), or pass the repository's folder.",
    );
  }
  return layout;
}

/**
 * Why running git in `layout` now would not mean the repository the layout names, or undefined.
 * git reads a git directory's `commondir` file for refs even when `GIT_COMMON_DIR` says
 * otherwise (its files ref backend does), so the file must still say what the layout does:
 * absent in a repository's own git directory, the common directory in a linked worktree's.
 */
export function layoutDeparture(layout: GitLayout): string | undefined {
  const file = path.join(layout.gitDir, "commondir");
  let text: string | undefined;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    text = undefined;
  }
  // An empty commondir names nowhere (git refuses to read it): a sandbox's placeholder for the
  // absent file it keeps read-only, not a redirection.
  if (text === "" && layout.gitDir === layout.commonDir) text = undefined;
  if (layout.gitDir === layout.commonDir) {
    return text === undefined
      ? undefined
      : `${file} appeared (it names ${text.trim()}): git would take its refs from there.`;
  }
  if (text === undefined) return `${file} is gone: git would not find the repository's refs.`;
  const named = real(path.resolve(layout.gitDir, text.trim()));
  return named === layout.commonDir
    ? undefined
    : `${file} names ${named}, not the repository's ${layout.commonDir}: git would take its refs from there.`;
}
