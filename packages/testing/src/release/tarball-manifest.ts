/**
 * The package.json inside an npm tarball (a gzipped tar whose entries sit under one top folder,
 * `package/` by npm's convention but not always), read without unpacking anything to disk.
 */
import { gunzipSync } from "node:zlib";

const BLOCK = 512;

/** Reads a NUL-terminated field of a tar header. */
function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString("utf8");
}

/** The parsed `<top>/package.json` of the tarball; throws when it has none. */
export function manifestOfTarball(tarball: Buffer): Record<string, unknown> {
  const tar = gunzipSync(tarball);
  let offset = 0;
  // A pax header (type `x`) may carry the long name of the entry after it.
  let longName: string | undefined;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156] ?? 48);
    const prefix = field(header, 345, 155);
    const name =
      longName ?? (prefix === "" ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`);
    const body = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    longName = undefined;
    if (type === "x") {
      const match = /\d+ path=([^\n]*)\n/.exec(body.toString("utf8"));
      longName = match?.[1];
    } else if ((type === "0" || type === "\0") && /^[^/]+\/package\.json$/.test(name)) {
      return JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    }
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error("The tarball has no package.json in its top folder.");
}
