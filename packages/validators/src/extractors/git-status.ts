import { isDependencyOrBuildPath } from "@climpt/model";
import { splitLines, unquoteGitPath } from "../paths.ts";

/** One path in `git status --porcelain` (v1 or v2) output. */
export interface GitStatusEntry {
  /** The path now (the new path of a rename or copy), unquoted. */
  readonly path: string;
  /** The path before a rename or copy. */
  readonly origPath?: string;
  /** Index (staged) status letter, `" "` when unchanged. */
  readonly index: string;
  /** Work-tree (unstaged) status letter, `" "` when unchanged. */
  readonly worktree: string;
  readonly kind: "tracked" | "untracked" | "ignored" | "unmerged";
}

const UNMERGED = new Set(["DD", "AU", "UD", "UA", "DU", "AA", "UU"]);
const V1_LINE = /^([ MTADRCU?!])([ MTADRCU?!]) (.+)$/;

/** Reads one path token: a git-quoted `"..."` string, or everything up to `stop`. */
function readPath(text: string, stop?: string): { path: string; rest: string } {
  if (text.startsWith('"')) {
    let index = 1;
    while (index < text.length) {
      const char = text[index];
      if (char === "\\") index += 2;
      else if (char === '"') break;
      else index += 1;
    }
    return { path: unquoteGitPath(text.slice(0, index + 1)), rest: text.slice(index + 1) };
  }
  const at = stop === undefined ? -1 : text.indexOf(stop);
  return at === -1 ? { path: text, rest: "" } : { path: text.slice(0, at), rest: text.slice(at) };
}

function entry(x: string, y: string, path: string, origPath?: string): GitStatusEntry {
  const index = x === "." ? " " : x;
  const worktree = y === "." ? " " : y;
  const code = `${index}${worktree}`;
  const kind =
    code === "??"
      ? "untracked"
      : code === "!!"
        ? "ignored"
        : UNMERGED.has(code)
          ? "unmerged"
          : "tracked";
  return { path, index, worktree, kind, ...(origPath === undefined ? {} : { origPath }) };
}

// v2 field counts before the path: `1` has 8, `2` has 9 (with the score), `u` has 10.
const V2_FIELDS: Readonly<Record<string, number>> = { "1": 8, "2": 9, u: 10 };

function parseV2Record(line: string): GitStatusEntry | undefined {
  const kind = line[0] as string;
  if (kind === "?" || kind === "!") {
    const path = unquoteGitPath(line.slice(2));
    return entry(kind, kind, path);
  }
  const fields = V2_FIELDS[kind];
  if (fields === undefined) return undefined;
  const parts = line.split(" ");
  const xy = parts[1] ?? "..";
  const rest = parts.slice(fields).join(" ");
  if (kind === "2") {
    const tab = rest.indexOf("\t");
    const path = unquoteGitPath(tab === -1 ? rest : rest.slice(0, tab));
    const orig = tab === -1 ? undefined : unquoteGitPath(rest.slice(tab + 1));
    return entry(xy[0] as string, xy[1] as string, path, orig);
  }
  return entry(xy[0] as string, xy[1] as string, unquoteGitPath(rest));
}

function isV2Record(line: string): boolean {
  return /^(?:[12u] [.MTADRCU]{2} |[?!] )/.test(line) && !/^[?!]{2} /.test(line);
}

/** `-z` output: NUL-terminated records, paths never quoted, a rename's old path as the next record. */
function parseNulSeparated(text: string): GitStatusEntry[] {
  const records = text.split("\0");
  const entries: GitStatusEntry[] = [];
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as string;
    if (record === "" || record.startsWith("#") || record.startsWith("## ")) continue;
    if (/^[12u] /.test(record) || /^[?!] /.test(record)) {
      const parsed = parseV2Record(record.replace(/\t.*$/s, ""));
      if (!parsed) continue;
      if (record.startsWith("2 ")) {
        const orig = records[index + 1];
        index += 1;
        entries.push(orig === undefined ? parsed : { ...parsed, origPath: orig });
      } else {
        entries.push(parsed);
      }
      continue;
    }
    const match = V1_LINE.exec(record);
    if (!match) continue;
    const [, x, y, path] = match as unknown as [string, string, string, string];
    if (x === "R" || x === "C" || y === "R" || y === "C") {
      const orig = records[index + 1];
      index += 1;
      entries.push(entry(x, y, path, orig));
    } else {
      entries.push(entry(x, y, path));
    }
  }
  return entries;
}

/**
 * The entries of `git status --porcelain` output: v1 (`XY path`, `R  old -> new`), v2
 * (`--porcelain=v2`: `1 …`, `2 …`, `u …`, `? path`), or either with `-z`. Quoted paths are
 * unquoted. Branch headers (`## …`, `# branch.…`) and lines that are not status records are
 * skipped, so output with a warning mixed in still parses.
 */
export function parseGitStatus(text: string): GitStatusEntry[] {
  if (text.includes("\0")) return parseNulSeparated(text);
  const entries: GitStatusEntry[] = [];
  for (const line of splitLines(text)) {
    if (line === "" || line.startsWith("#")) continue;
    if (isV2Record(line)) {
      const parsed = parseV2Record(line);
      if (parsed) entries.push(parsed);
      continue;
    }
    const match = V1_LINE.exec(line);
    if (!match) continue;
    const [, x, y, rest] = match as unknown as [string, string, string, string];
    if (x === "R" || x === "C" || y === "R" || y === "C") {
      const first = readPath(rest, " -> ");
      if (first.rest.startsWith(" -> ")) {
        const second = readPath(first.rest.slice(4));
        entries.push(entry(x, y, second.path, first.path));
        continue;
      }
      entries.push(entry(x, y, first.path));
      continue;
    }
    entries.push(entry(x, y, readPath(rest).path));
  }
  return entries;
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

/** Every changed path: staged, unstaged, untracked and conflicted (new path of a rename). */
export function changedFiles(text: string): string[] {
  return unique(
    parseGitStatus(text)
      .filter((item) => item.kind !== "ignored")
      .map((item) => item.path),
  );
}

/**
 * The paths a retry prompt may ask the model to commit: `changedFiles` (`untracked` false) or
 * `untrackedFiles` (true) without untracked dependency and build folders (node_modules/, dist/,
 * …: @climpt/model's DEPENDENCY_AND_BUILD_FOLDERS), which belong in .gitignore. A tracked file in such a folder stays:
 * the project commits it on purpose.
 */
export function filesToCommit(text: string, only: "changed" | "untracked"): string[] {
  return unique(
    parseGitStatus(text)
      .filter((item) =>
        only === "untracked" ? item.kind === "untracked" : item.kind !== "ignored",
      )
      .filter((item) => item.kind !== "untracked" || !isDependencyOrBuildPath(item.path))
      .map((item) => item.path),
  );
}

/** Untracked paths (`??`); an untracked folder is listed as `dir/` unless `-uall` was used. */
export function untrackedFiles(text: string): string[] {
  return unique(
    parseGitStatus(text)
      .filter((item) => item.kind === "untracked")
      .map((item) => item.path),
  );
}

/** Paths with staged changes (index column), conflicts excluded. */
export function stagedFiles(text: string): string[] {
  return unique(
    parseGitStatus(text)
      .filter((item) => item.kind === "tracked" && item.index !== " ")
      .map((item) => item.path),
  );
}

/** Paths with unstaged changes to tracked files (work-tree column), conflicts excluded. */
export function unstagedFiles(text: string): string[] {
  return unique(
    parseGitStatus(text)
      .filter((item) => item.kind === "tracked" && item.worktree !== " ")
      .map((item) => item.path),
  );
}

/** Conflicted paths (`UU`, `AA`, `DU`, … in v1; `u` records in v2). */
export function unmergedFiles(text: string): string[] {
  return unique(
    parseGitStatus(text)
      .filter((item) => item.kind === "unmerged")
      .map((item) => item.path),
  );
}
