/**
 * Reads the file a sandboxed `gh … --body-file FILE` names, in the broker (outside the sandbox),
 * so the real gh never opens a path the model chose: the broker passes the content on stdin
 * (`--body-file -`). Only files inside the working directory or a folder the caller lists as
 * readable (the command's private `$TMPDIR`) are read:
 *
 * - the path is resolved against the command's directory (which must itself lie in one of those
 *   folders) and may not contain `..`;
 * - the real path of the file (every link resolved) must lie in the same folder's real path;
 * - it is opened with `O_NOFOLLOW | O_NONBLOCK` (a link swapped in last is not followed, a FIFO
 *   does not block), checked through the descriptor to be a regular file with one link and at
 *   most `MAX_BODY_FILE_BYTES`, and the descriptor's own path (`/proc/self/fd/N`) must still lie
 *   in the folder, so a directory swapped for a link between the check and the open is caught.
 */
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import { isInside, type WorkingRoot } from "../confine-path.ts";

/** The largest body file the broker reads (the same bound as a body on stdin). */
export const MAX_BODY_FILE_BYTES: number = 1024 * 1024;

export type BodyFileRead =
  | { readonly ok: true; readonly content: Buffer }
  | { readonly ok: false; readonly reason: string };

async function realOrUndefined(file: string): Promise<string | undefined> {
  try {
    return await fs.realpath(file);
  } catch {
    return undefined;
  }
}

function rootHolding(roots: readonly WorkingRoot[], file: string): WorkingRoot | undefined {
  return roots.find((root) => isInside(root.dir, file) || isInside(root.real, file));
}

/**
 * Reads `file` (as the command wrote it) for a command that ran in `cwd`, if it lies in one of
 * `roots` (the working directory first, then the readable folders).
 */
export async function readBodyFile(
  file: string,
  cwd: string,
  roots: readonly WorkingRoot[],
): Promise<BodyFileRead> {
  const shown = JSON.stringify(file);
  const refused = (why: string): BodyFileRead => ({
    ok: false,
    reason: `--body-file ${shown}: ${why} Write the body to a file in the working directory or in $TMPDIR, or pass it with --body, or on stdin with --body-file -.`,
  });
  if (file === "" || file.includes("\0")) return refused("not a file name.");
  if (file.split(/[/\\]/).includes("..")) return refused("the path may not contain `..`.");
  let absolute = file;
  if (!path.isAbsolute(file)) {
    if (!path.isAbsolute(cwd) || rootHolding(roots, cwd) === undefined) {
      return refused(
        "the command's directory is outside the working directory; give an absolute path.",
      );
    }
    absolute = path.resolve(cwd, file);
  }
  absolute = path.normalize(absolute);
  const root = rootHolding(roots, absolute);
  if (root === undefined) {
    return refused("it is outside the working directory and the command's $TMPDIR.");
  }
  const real = await realOrUndefined(absolute);
  if (real === undefined) return refused("there is no such file.");
  if (!isInside(root.real, real)) {
    return refused("it leads out of the working directory (a symbolic link).");
  }
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (!stats.isFile()) return refused("it is not a regular file.");
    if (stats.nlink > 1) {
      return refused("it has more than one hard link (another name may lie outside).");
    }
    if (stats.size > MAX_BODY_FILE_BYTES) {
      return refused(`it is larger than ${MAX_BODY_FILE_BYTES} bytes.`);
    }
    const opened = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (opened === undefined || !isInside(root.real, opened)) {
      return refused("it changed while it was opened.");
    }
    const buffer = Buffer.alloc(MAX_BODY_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_BODY_FILE_BYTES)
        return refused(`it is larger than ${MAX_BODY_FILE_BYTES} bytes.`);
    }
    return { ok: true, content: buffer.subarray(0, length) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refused(
      code === "ELOOP" ? "it is a symbolic link." : `it cannot be read (${code ?? "error"}).`,
    );
  } finally {
    await handle?.close();
  }
}
