/**
 * Reading a file a user or a model can replace with something that is not a file. Every
 * definition, journal and cassette climpt reads lives in a folder the agent's own commands can
 * write to; a FIFO there would hold a plain `open()` until some writer comes (a
 * synchronous one stops every timer of the process, `--max-time` included), and `/dev/zero` or a
 * huge file would be read until memory runs out. These functions open without blocking, refuse
 * anything but a regular file, and stop reading past a size cap.
 *
 * Exported for the other packages that read such files (the runner's journals, the viewer, the
 * orchestrator's workflow.json, the CLI).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";

export interface RegularFileOptions {
  /** The largest file accepted, in bytes; a larger one is `too-large` and is not read. */
  readonly maxBytes: number;
  /**
   * Refuse a symbolic link as the last path segment (`O_NOFOLLOW`). For callers that resolved
   * the path themselves (a realpath checked to lie inside a folder), so a link swapped in after
   * the check is not followed. Default false: a link is followed as `readFile` would.
   */
  readonly noFollow?: boolean;
}

/** Why a file was not read. */
export type RegularFileFailure =
  | { readonly reason: "missing"; readonly detail: string }
  | { readonly reason: "not-regular"; readonly kind: SpecialFileKind; readonly detail: string }
  | { readonly reason: "too-large"; readonly size: number; readonly detail: string }
  | { readonly reason: "unreadable"; readonly errno: string; readonly detail: string };

export type SpecialFileKind =
  | "folder"
  | "FIFO"
  | "socket"
  | "character device"
  | "block device"
  | "symbolic link"
  | "special file";

export type RegularFileResult =
  | { readonly ok: true; readonly bytes: Buffer }
  | ({ readonly ok: false } & RegularFileFailure);

/**
 * How a file is opened: read-only and without blocking, so a FIFO opens at once (and is then
 * refused by the fstat that follows) instead of waiting for a writer. For a regular file
 * O_NONBLOCK changes nothing.
 */
function openFlags(noFollow: boolean | undefined): number {
  return (
    constants.O_RDONLY |
    (constants.O_NONBLOCK ?? 0) |
    (noFollow === true ? (constants.O_NOFOLLOW ?? 0) : 0)
  );
}

interface StatLike {
  readonly size: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSymbolicLink(): boolean;
}

function kindOf(stats: StatLike): SpecialFileKind {
  if (stats.isDirectory()) return "folder";
  if (stats.isFIFO()) return "FIFO";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice()) return "character device";
  if (stats.isBlockDevice()) return "block device";
  if (stats.isSymbolicLink()) return "symbolic link";
  return "special file";
}

/** What an fstat says about the file: undefined when it may be read. */
function refusal(stats: StatLike, maxBytes: number): RegularFileFailure | undefined {
  if (!stats.isFile()) {
    const kind = kindOf(stats);
    return { reason: "not-regular", kind, detail: `is a ${kind}, not a regular file` };
  }
  if (stats.size > maxBytes) {
    return {
      reason: "too-large",
      size: stats.size,
      detail: `is ${stats.size} bytes, more than the ${maxBytes} accepted`,
    };
  }
  return undefined;
}

function openFailure(error: unknown): RegularFileFailure {
  const errno = (error as NodeJS.ErrnoException | null)?.code ?? "EIO";
  if (errno === "ENOENT" || errno === "ENOTDIR") {
    return { reason: "missing", detail: "does not exist" };
  }
  // O_NOFOLLOW met a link: ELOOP (Linux, macOS), EMLINK (FreeBSD).
  if (errno === "ELOOP" || errno === "EMLINK") {
    return { reason: "not-regular", kind: "symbolic link", detail: "is a symbolic link" };
  }
  return { reason: "unreadable", errno, detail: `cannot be read (${errno})` };
}

const tooLarge = (size: number, maxBytes: number): RegularFileFailure => ({
  reason: "too-large",
  size,
  detail: `grew past the ${maxBytes} bytes accepted while it was read`,
});

/** Reads a regular file of at most `maxBytes` bytes; never blocks on a FIFO or a device. */
export async function readRegularFile(
  file: string,
  options: RegularFileOptions,
): Promise<RegularFileResult> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, openFlags(options.noFollow));
  } catch (error) {
    return { ok: false, ...openFailure(error) };
  }
  try {
    const stats = await handle.stat();
    const refused = refusal(stats, options.maxBytes);
    if (refused !== undefined) return { ok: false, ...refused };
    // One byte more than the size, so a file that did not grow is read to its end at once and a
    // file that grew past the cap is seen to have.
    let buffer: Buffer = Buffer.allocUnsafe(Math.min(stats.size, options.maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > options.maxBytes) return { ok: false, ...tooLarge(length, options.maxBytes) };
      if (length === buffer.length) buffer = grown(buffer, length, options.maxBytes);
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch (error) {
    return { ok: false, ...openFailure(error) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** `readRegularFile`, synchronously (for callers that are synchronous already). */
export function readRegularFileSync(file: string, options: RegularFileOptions): RegularFileResult {
  let fd: number;
  try {
    fd = openSync(file, openFlags(options.noFollow));
  } catch (error) {
    return { ok: false, ...openFailure(error) };
  }
  try {
    const stats = fstatSync(fd);
    const refused = refusal(stats, options.maxBytes);
    if (refused !== undefined) return { ok: false, ...refused };
    let buffer: Buffer = Buffer.allocUnsafe(Math.min(stats.size, options.maxBytes) + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > options.maxBytes) return { ok: false, ...tooLarge(length, options.maxBytes) };
      if (length === buffer.length) buffer = grown(buffer, length, options.maxBytes);
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch (error) {
    return { ok: false, ...openFailure(error) };
  } finally {
    closeSync(fd);
  }
}

/** A buffer twice as large (at most one byte past the cap) holding the first `length` bytes. */
function grown(buffer: Buffer, length: number, maxBytes: number): Buffer {
  const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
  buffer.copy(larger, 0, 0, length);
  return larger;
}
