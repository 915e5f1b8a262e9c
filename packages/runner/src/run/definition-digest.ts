import { createHash } from "node:crypto";
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
  statSync,
} from "node:fs";
import path from "node:path";
import type { DefinitionRecord } from "@climpt/protocol";

export type { DefinitionRecord } from "@climpt/protocol";

/** Bounds on what a digest reads: a folder past them is recorded as skipped. */
export const DIGEST_LIMITS: {
  readonly entries: 5000;
  readonly bytes: number;
  readonly listed: 500;
} = { entries: 5000, bytes: 256 * 1024 * 1024, listed: 500 } as const;

/** Too large: the walk stops and says why. */
class TooLarge extends Error {}

function digestOfFile(file: string, budget: { bytes: number }): string {
  // Non-blocking and without following a link: a FIFO swapped in is never waited on.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return `special:${stats.mode & constants.S_IFMT}`;
    budget.bytes -= stats.size;
    if (budget.bytes < 0) throw new TooLarge(`more than ${DIGEST_LIMITS.bytes} bytes`);
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
    return `file:${hash.digest("hex")}`;
  } finally {
    closeSync(fd);
  }
}

/** A link: where it points, and the content of the file it reaches (the loader follows it). */
function digestOfLink(file: string, budget: { bytes: number }): string {
  const target = readlinkSync(file);
  let reached = "";
  try {
    const real = realpathSync(file);
    if (statSync(real).isFile()) reached = ` ${digestOfFile(real, budget)}`;
  } catch (error) {
    if (error instanceof TooLarge) throw error;
    reached = " dangling";
  }
  return `link:${target}${reached}`;
}

/**
 * The digest of an agent folder: every entry below it except the `excluded` folders (the run's
 * journal folder, when it lies inside), links not followed into folders. Files are read without
 * blocking; a folder past `DIGEST_LIMITS` is recorded as skipped instead.
 */
export function digestDefinition(dir: string, excluded: readonly string[] = []): DefinitionRecord {
  const root = path.resolve(dir);
  const skip = new Set(excluded.map((entry) => path.resolve(entry)));
  const entries: [string, string][] = [];
  const budget = { bytes: DIGEST_LIMITS.bytes };
  const walk = (folder: string, prefix: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      if (skip.has(full)) continue;
      const relative = prefix === "" ? name : `${prefix}/${name}`;
      const stats = lstatSync(full);
      if (stats.isDirectory()) {
        walk(full, relative);
        continue;
      }
      if (entries.length >= DIGEST_LIMITS.entries) {
        throw new TooLarge(`more than ${DIGEST_LIMITS.entries} files`);
      }
      const digest = stats.isSymbolicLink()
        ? digestOfLink(full, budget)
        : stats.isFile()
          ? digestOfFile(full, budget)
          : `special:${stats.mode & constants.S_IFMT}`;
      entries.push([relative, digest]);
    }
  };
  try {
    walk(root, "");
  } catch (error) {
    if (error instanceof TooLarge) {
      return { skipped: `the agent folder ${root} holds ${error.message}` };
    }
    throw error;
  }
  const whole = createHash("sha256");
  for (const [relative, digest] of entries) whole.update(`${relative}\0${digest}\n`);
  return {
    sha256: whole.digest("hex"),
    entries: entries.length,
    ...(entries.length <= DIGEST_LIMITS.listed
      ? {
          files: Object.fromEntries(
            entries.map(([relative, digest]) => [relative, shorter(digest)]),
          ),
        }
      : {}),
  };
}

/** A listed entry's digest, short enough to keep in the journal: a changed file still differs. */
function shorter(digest: string): string {
  const hash = createHash("sha256").update(digest).digest("hex");
  return hash.slice(0, 16);
}

/** How a folder's digest now compares with an earlier one. */
export type DefinitionComparison =
  | { readonly kind: "same" }
  /** `files`: the paths added, removed or changed, when both digests list their files. */
  | { readonly kind: "changed"; readonly files: readonly string[] | null }
  /** One of them was skipped (too large): nothing could be compared. */
  | { readonly kind: "unknown"; readonly reason: string };

export function compareDefinitions(
  before: DefinitionRecord,
  after: DefinitionRecord,
): DefinitionComparison {
  if ("skipped" in before) return { kind: "unknown", reason: before.skipped };
  if ("skipped" in after) return { kind: "unknown", reason: after.skipped };
  if (before.sha256 === after.sha256) return { kind: "same" };
  const was = before.files;
  const now = after.files;
  if (was === undefined || now === undefined) return { kind: "changed", files: null };
  const files: string[] = [];
  for (const [file, digest] of Object.entries(now)) {
    if (!Object.hasOwn(was, file) || was[file] !== digest) files.push(file);
  }
  for (const file of Object.keys(was)) if (!Object.hasOwn(now, file)) files.push(file);
  return { kind: "changed", files: files.sort() };
}
