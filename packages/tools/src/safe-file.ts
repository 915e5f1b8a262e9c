import { constants, promises as fs, type Stats } from "node:fs";
import path from "node:path";
import { TOOL_CODES } from "./codes.ts";

/**
 * Opening files the model names without waiting forever and without reaching files outside the
 * working directory through another name. Paths are confined first (`confinePath`); then:
 *
 * - opens never block: `O_NONBLOCK`, so a FIFO with no writer (or reader) fails or returns at
 *   once, and anything that is not a regular file is refused after `fstat` (FIFOs, sockets,
 *   devices);
 * - `O_NOFOLLOW`: a symbolic link swapped in after the check is not followed;
 * - a file with more than one link is refused: a hard link inside the working directory can be
 *   another name for a file outside it (`.git/config` of another repository, `~/.bashrc`), and
 *   nothing in the path shows that.
 */
export type SafeOpen =
  | { readonly ok: true; readonly handle: fs.FileHandle; readonly stats: Stats }
  | { readonly ok: false; readonly code: string; readonly message: string };

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isDirectory()) return "a directory";
  return "not a regular file";
}

/** Why a regular file may not be used, or undefined when it may. */
function refusal(stats: Stats, shown: string): { code: string; message: string } | undefined {
  if (!stats.isFile()) {
    return {
      code: stats.isDirectory() ? TOOL_CODES.fileNotFound : TOOL_CODES.pathOutside,
      message: `"${shown}" is ${kindOf(stats)}; file tools read and write regular files only.`,
    };
  }
  if (stats.nlink > 1) {
    return {
      code: TOOL_CODES.pathOutside,
      message: `"${shown}" has ${stats.nlink} hard links: another name for the same file may lie outside the working directory, so file tools do not touch it. Use a copy (cp) instead of a hard link.`,
    };
  }
  return undefined;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** Opens an existing regular, singly linked file for reading. */
export async function openForRead(file: string, shown: string): Promise<SafeOpen> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, READ_FLAGS);
  } catch (error) {
    return openError(error, shown);
  }
  const stats = await handle.stat();
  const refused = refusal(stats, shown);
  if (refused !== undefined) {
    await handle.close();
    return { ok: false, ...refused };
  }
  return { ok: true, handle, stats };
}

/**
 * Replaces (or creates) a regular file's content. An existing file is opened without truncating,
 * checked, then truncated through the same descriptor, so the check and the write are about the
 * same file.
 */
export async function writeSafely(
  file: string,
  shown: string,
  content: string,
): Promise<{ ok: true; created: boolean } | { ok: false; code: string; message: string }> {
  let handle: fs.FileHandle;
  let created = false;
  try {
    handle = await fs.open(file, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return openError(error, shown);
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      handle = await fs.open(
        file,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o666,
      );
      created = true;
    } catch (inner) {
      return openError(inner, shown);
    }
  }
  try {
    const refused = refusal(await handle.stat(), shown);
    if (refused !== undefined) return { ok: false, ...refused };
    await handle.truncate(0);
    await handle.write(content, 0, "utf8");
    return { ok: true, created };
  } finally {
    await handle.close();
  }
}

function openError(error: unknown, shown: string): { ok: false; code: string; message: string } {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") {
    return { ok: false, code: TOOL_CODES.fileNotFound, message: `"${shown}" does not exist.` };
  }
  if (code === "ELOOP") {
    return {
      ok: false,
      code: TOOL_CODES.pathOutside,
      message: `"${shown}" is a symbolic link; file tools do not follow it.`,
    };
  }
  if (code === "ENXIO") {
    return {
      ok: false,
      code: TOOL_CODES.pathOutside,
      message: `"${shown}" is a FIFO or socket; file tools read and write regular files only.`,
    };
  }
  if (code === "EISDIR") {
    return { ok: false, code: TOOL_CODES.fileNotFound, message: `"${shown}" is a directory.` };
  }
  return {
    ok: false,
    code: TOOL_CODES.ioFailure,
    message: `could not open "${shown}": ${(error as Error).message}`,
  };
}
