import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
} from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { problem } from "@climpt/model";
import { PROMPT_CODES } from "./problems.ts";
import { type PromptSource, problemError, safeRelativePath } from "./prompt-source.ts";

/**
 * A prompt source over a folder on disk. No relative path can make it read outside `rootDir`:
 * the path is checked lexically (no `..`, absolute, NUL or backslash), then walked one segment
 * at a time, and every symlink on the way must resolve inside the root's real path. A symlink
 * that points elsewhere in the root is fine; one that leaves it is `PR-C3L-007`, whether or not
 * its target exists (so a link cannot be used to probe for files outside either).
 *
 * The file is finally opened through its resolved real path with `O_NOFOLLOW`, so swapping the
 * last segment for a symlink between the check and the read cannot redirect it.
 *
 * The file calls are synchronous on purpose. A prompt is a small local file, read once per step;
 * done asynchronously, each of the ~8 calls of one read was a thread-pool round trip, and on a
 * busy machine those waits were most of what a step cost beyond the model call (`pnpm bench`,
 * row 1). Synchronously they take microseconds of the event loop.
 */
export interface FsPromptSourceOptions {
  /**
   * A folder `rootDir` must lie inside, symlinks included: the agent folder when `rootDir` is
   * its prompt folder, so a registry's `basePath` cannot point the whole source elsewhere.
   */
  readonly within?: string | undefined;
}

export function createFsPromptSource(
  rootDir: string,
  options: FsPromptSourceOptions = {},
): PromptSource {
  const root = resolve(rootDir);
  let realRoot: Promise<string | undefined> | undefined;
  const rootReal = (): Promise<string | undefined> => {
    realRoot ??= findRealRoot(root, options.within);
    return realRoot;
  };

  return {
    describe(relativePath) {
      if (relativePath === "") return root;
      return `${root}${sep}${sep === "/" ? relativePath : relativePath.split("/").join(sep)}`;
    },
    async read(relativePath) {
      const rel = safeRelativePath(relativePath);
      const described = this.describe(rel);
      const base = await rootReal();
      // No prompt folder at all: every file in it is missing, which the resolver reports.
      if (base === undefined) return undefined;
      return readInside(base, rel, described);
    },
    async list(relativeDir) {
      const rel = relativeDir === "" ? "" : safeRelativePath(relativeDir);
      const base = await rootReal();
      if (base === undefined) return [];
      const located = locateInside(base, rel, this.describe(rel));
      if (located === undefined) return [];
      try {
        return readdirSync(located, { withFileTypes: true })
          .filter((entry) => entry.isFile() || entry.isSymbolicLink())
          .map((entry) => entry.name)
          .sort();
      } catch (error) {
        if (isMissing(error)) return [];
        throw unreadable(this.describe(rel), error);
      }
    },
  };
}

async function findRealRoot(root: string, within: string | undefined): Promise<string | undefined> {
  if (within === undefined) {
    try {
      return realpathSync.native(root);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw unreadable(root, error);
    }
  }
  const outer = resolve(within);
  const rel = relative(outer, root).split(sep).join("/");
  // Lexical first: `within` must contain `root` as written, before any link is followed.
  safeRelativePath(rel);
  let realOuter: string;
  try {
    realOuter = realpathSync.native(outer);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw unreadable(outer, error);
  }
  return locateInside(realOuter, rel, root);
}

function isInside(realRoot: string, candidate: string): boolean {
  const rel = relative(realRoot, candidate);
  // `..foo` is a legal name inside the root; only a whole `..` segment means outside.
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The prompt file at `rel` under `realRoot`, `undefined` when missing; throws on an escape. The
 * folders on the way are walked as `locateInside` walks them. The file itself is opened without
 * an `lstat` first: `O_NOFOLLOW` makes the open refuse a symlink, and only a refused open takes
 * the walk's last step (the link judged by where it leads). Nothing outside the root is opened,
 * and a prompt read, on every step, costs one system call less.
 */
function readInside(realRoot: string, rel: string, described: string): string | undefined {
  const cut = rel.lastIndexOf("/");
  // Without O_NOFOLLOW (Windows) an open would follow a link: every segment is looked at first.
  if (rel === "" || constants.O_NOFOLLOW === undefined) {
    const located = locateInside(realRoot, rel, described);
    return located === undefined ? undefined : readRegularFile(located, described);
  }
  const folder = locateInside(realRoot, cut === -1 ? "" : rel.slice(0, cut), described);
  if (folder === undefined) return undefined;
  const name = rel.slice(cut + 1);
  let fd: number;
  try {
    fd = openSync(childPath(folder, name), OPEN_FLAGS);
  } catch (error) {
    if (isMissing(error)) return undefined;
    if (!isSymlinkRefused(error)) throw unreadable(described, error);
    const located = locateInside(realRoot, name, described, folder);
    return located === undefined ? undefined : readRegularFile(located, described);
  }
  return readOpenFile(fd, described);
}

/**
 * The real path of `rel` under `realRoot` (walked from `from`, a real folder inside it),
 * `undefined` when missing; throws on an escape.
 */
function locateInside(
  realRoot: string,
  rel: string,
  described: string,
  from = realRoot,
): string | undefined {
  let current = from;
  const segments = rel === "" ? [] : rel.split("/");
  for (const segment of segments) {
    const next = childPath(current, segment);
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(next);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw unreadable(described, error);
    }
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    let target: string;
    try {
      target = realpathSync.native(next);
    } catch (error) {
      if (!isMissing(error)) throw unreadable(described, error);
      // A dangling link: judge it by where it points, so it cannot reveal files outside.
      const pointsTo = resolve(dirname(next), readlinkSync(next));
      if (!isInside(realRoot, pointsTo)) throw symlinkEscape(described, next, pointsTo);
      return undefined;
    }
    if (!isInside(realRoot, target)) throw symlinkEscape(described, next, target);
    current = target;
  }
  return current;
}

function readRegularFile(realPath: string, described: string): string {
  let fd: number;
  try {
    fd = openSync(realPath, OPEN_FLAGS);
  } catch (error) {
    throw unreadable(described, error);
  }
  return readOpenFile(fd, described);
}

/** The file open as `fd`, which it closes, when it is a regular file. */
function readOpenFile(fd: number, described: string): string {
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw problemError(
        problem(PROMPT_CODES.unreadable, `The prompt path ${described} is not a regular file.`, {
          file: described,
          hint: "Point the step at a .md file, not a folder.",
        }),
      );
    }
    return readToEnd(fd, stats.size);
  } catch (error) {
    if (typeof error === "object" && error !== null && "code" in error) {
      const code = (error as { code: unknown }).code;
      if (typeof code === "string" && code.startsWith("PR-")) throw error;
    }
    throw unreadable(described, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * The rest of the open file as UTF-8, as `readFileSync` would give it. The size `fstat` just
 * reported sizes the buffer one byte larger, so the usual file takes one `read`: a regular file
 * reads short only at its end. A file that grew since keeps being read until a read returns 0.
 */
function readToEnd(fd: number, size: number): string {
  let buffer = Buffer.allocUnsafe(size + 1);
  let length = 0;
  for (;;) {
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
    if (length < buffer.length) break;
    const larger = Buffer.allocUnsafe(buffer.length * 2);
    buffer.copy(larger, 0, 0, length);
    buffer = larger;
  }
  return buffer.toString("utf8", 0, length);
}

/**
 * `join(folder, name)` for a real (absolute, normalized) folder and one checked segment (no
 * separator, not `.` or `..`, not empty), which leave `join` nothing to normalize: without it,
 * a prompt read on every step skips a normalization per folder.
 */
function childPath(folder: string, name: string): string {
  return folder.endsWith(sep) ? `${folder}${name}` : `${folder}${sep}${name}`;
}

/**
 * How a prompt file is opened: never through a symlink, and without blocking, so a FIFO in the
 * prompt folder is refused as "not a regular file" by the fstat that follows instead of holding
 * the process until some writer opens it (a blocked synchronous open stops every timer,
 * `--max-time` included). For a regular file O_NONBLOCK changes nothing.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);

/** An `O_NOFOLLOW` open that met a symlink: ELOOP (Linux, macOS), EMLINK (FreeBSD). */
function isSymlinkRefused(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ELOOP" || code === "EMLINK";
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function symlinkEscape(described: string, link: string, target: string) {
  return problemError(
    problem(
      PROMPT_CODES.symlinkEscape,
      `The prompt path ${described} goes through the symlink ${link}, which leads outside the prompt folder (to ${target}).`,
      {
        file: described,
        hint: "Copy the file into the prompt folder, or make the link point inside it.",
      },
    ),
  );
}

function unreadable(described: string, cause: unknown) {
  const code = (cause as { code?: unknown } | null)?.code;
  const reason = typeof code === "string" ? code : String(cause);
  return problemError(
    problem(PROMPT_CODES.unreadable, `Cannot read the prompt file ${described} (${reason}).`, {
      file: described,
      hint: "Check that it is a readable regular file (permissions, symlink loops).",
    }),
    cause,
  );
}
