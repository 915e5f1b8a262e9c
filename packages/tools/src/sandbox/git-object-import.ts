import { createHash } from "node:crypto";
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { deflateSync, inflateSync } from "node:zlib";
import { type GitLayout, runHostGit } from "@climpt/host-git";

/** Pack object type numbers (gitformat-pack). */
const PACK_TYPES: Readonly<Record<string, number>> = { commit: 1, tree: 2, blob: 3, tag: 4 };

/** Blobs sent to git in one pack at most (memory held at once). */
const BATCH_BYTES = 128 * 1024 * 1024;

/** A loose object bigger than this is not taken back (git itself writes big files into packs). */
const MAX_LOOSE_OBJECT_BYTES = 512 * 1024 * 1024;

export interface ObjectImport {
  /** Objects taken into the repository. */
  readonly imported: number;
  /** What was not taken back, and why (a malformed object, a refused pack). */
  readonly problems: readonly string[];
}

interface LooseObject {
  readonly file: string;
  readonly type: string;
  readonly body: Buffer;
}

/** A loose object file's content when it is what its name says it is; else why not. */
function readLoose(file: string, name: string, data: Buffer): LooseObject | string {
  let raw: Buffer;
  try {
    raw = inflateSync(data, { maxOutputLength: MAX_LOOSE_OBJECT_BYTES + 64 });
  } catch (error) {
    return `${name}: not a zlib stream (${(error as Error).message})`;
  }
  const nul = raw.indexOf(0);
  const header = /^(commit|tree|blob|tag) (\d+)$/.exec(
    raw.subarray(0, Math.max(nul, 0)).toString("latin1"),
  );
  if (nul < 0 || header === null) return `${name}: no object header`;
  const body = raw.subarray(nul + 1);
  if (Number(header[2]) !== body.length)
    return `${name}: its header says ${header[2]} bytes, it has ${body.length}`;
  const hash = createHash(name.length === 64 ? "sha256" : "sha1")
    .update(raw)
    .digest("hex");
  if (hash !== name) return `${name}: its content hashes to ${hash}`;
  return { file, type: header[1] as string, body };
}

function packEntryHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let rest = size >>> 4;
  let byte = (type << 4) | (size & 0x0f);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

/** A pack (version 2) holding `objects`, as git's `unpack-objects` reads it. */
function* packOf(objects: readonly LooseObject[], hashName: "sha1" | "sha256"): Generator<Buffer> {
  const hash = createHash(hashName);
  const emit = (chunk: Buffer): Buffer => {
    hash.update(chunk);
    return chunk;
  };
  const header = Buffer.alloc(12);
  header.write("PACK", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects.length, 8);
  yield emit(header);
  for (const object of objects) {
    yield emit(packEntryHeader(PACK_TYPES[object.type] as number, object.body.length));
    yield emit(deflateSync(object.body, { level: 1 }));
  }
  yield hash.digest();
}

async function listLoose(objectsDir: string): Promise<{ file: string; name: string }[]> {
  const found: { file: string; name: string }[] = [];
  const fanouts = await fs.readdir(objectsDir).catch(() => [] as string[]);
  for (const fanout of fanouts) {
    if (!/^[0-9a-f]{2}$/.test(fanout)) continue;
    for (const rest of await fs
      .readdir(path.join(objectsDir, fanout))
      .catch(() => [] as string[])) {
      if (/^(?:[0-9a-f]{38}|[0-9a-f]{62})$/.test(rest)) {
        found.push({ file: path.join(objectsDir, fanout, rest), name: fanout + rest });
      }
    }
  }
  return found;
}

async function unpack(
  repo: GitLayout,
  input: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  env: Readonly<Record<string, string | undefined>> | undefined,
): Promise<string | undefined> {
  const stream = (async function* () {
    yield* input;
  })();
  const result = await runHostGit(repo, ["unpack-objects", "-q", "--strict"], {
    input: stream,
    timeoutMs: 600_000,
    ...(env === undefined ? {} : { env }),
  });
  if (result.exitCode === 0) return undefined;
  return result.stderr.trim() || (result.timedOut ? "timed out" : `exit ${result.exitCode}`);
}

/**
 * Takes the objects a sandboxed command wrote into the staging object directory into the
 * repository, through `git unpack-objects --strict`: git checks each object is well formed and
 * that everything it points at exists, and refuses the lot otherwise. Loose objects are checked
 * here first (their content hashes to their name) and sent as one pack; packs the command made
 * (`git gc`, `git repack` inside) are sent as they are. Whatever was taken is removed from the
 * staging directory, so a second call takes only what is new since.
 */
export async function importStagedObjects(
  repo: GitLayout,
  stagingObjects: string,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<ObjectImport> {
  const problems: string[] = [];
  let imported = 0;
  const packDir = path.join(stagingObjects, "pack");
  const packs = (await fs.readdir(packDir).catch(() => [] as string[])).filter((name) =>
    /^pack-[0-9a-f]+\.pack$/.test(name),
  );
  for (const name of packs) {
    const file = path.join(packDir, name);
    const failed = await unpack(repo, createReadStream(file), env);
    if (failed === undefined) {
      imported++;
      const base = file.slice(0, -".pack".length);
      for (const suffix of [".pack", ".idx", ".rev", ".keep", ".bitmap", ".promisor"]) {
        await fs.rm(base + suffix, { force: true });
      }
    } else {
      problems.push(`pack ${name}: ${failed}`);
    }
  }
  // Blobs point at nothing, so they may go in batches (a bound on memory); trees, commits and
  // tags go last, together, when everything they point at is there.
  let batch: LooseObject[] = [];
  let batchBytes = 0;
  const linked: LooseObject[] = [];
  let hashName: "sha1" | "sha256" = "sha1";
  const send = async (objects: LooseObject[]): Promise<void> => {
    if (objects.length === 0) return;
    const failed = await unpack(repo, packOf(objects, hashName), env);
    if (failed === undefined) {
      imported += objects.length;
      await Promise.all(objects.map((object) => fs.rm(object.file, { force: true })));
    } else {
      problems.push(`${objects.length} new objects: ${failed}`);
    }
  };
  for (const { file, name } of await listLoose(stagingObjects)) {
    const data = await fs.readFile(file).catch(() => undefined);
    if (data === undefined) continue;
    const object = readLoose(file, name, data);
    if (typeof object === "string") {
      problems.push(`object ${object}`);
      continue;
    }
    if (name.length === 64) hashName = "sha256";
    if (object.type !== "blob") {
      linked.push(object);
      continue;
    }
    batch.push(object);
    batchBytes += object.body.length;
    if (batchBytes >= BATCH_BYTES) {
      await send(batch);
      batch = [];
      batchBytes = 0;
    }
  }
  await send(batch);
  await send(linked);
  return { imported, problems };
}
