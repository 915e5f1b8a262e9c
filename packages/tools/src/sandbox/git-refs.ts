import { type Dirent, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A repository's refs as a map from name (`refs/heads/main`) to value: an object id, or
 * `ref: <target>` for a symbolic ref. Read from the files backend (loose files under `refs/`,
 * then `packed-refs`, a loose ref winning) without running git, so nothing in the directory read
 * can run anything; a file that is not a ref (a `.lock`, garbage) is left out.
 */
export type RefMap = Map<string, string>;

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** A ref file's value, or undefined when it holds neither an object id nor `ref: refs/…`. */
function refValue(text: string): string | undefined {
  const value = text.trim();
  if (OBJECT_ID.test(value)) return value;
  if (/^ref: refs\/\S+$/.test(value) || value === "ref: HEAD") return value;
  return undefined;
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
}

// Synchronous: a ref file is tens of bytes, and a promise per file cost more than the reads
// (4 ms for 60 refs against under 1 ms); the budget bounds how long a directory of junk holds
// the thread.
function readLoose(dir: string, prefix: string, refs: RefMap, budget: { files: number }): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const name = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) readLoose(dir, name, refs, budget);
    else if (entry.isFile() && !entry.name.endsWith(".lock") && budget.files-- > 0) {
      const value = refValue(readOr(path.join(dir, name), ""));
      if (value !== undefined) refs.set(name, value);
    }
  }
}

/** The refs of the files-backend ref store in `dir` (a common directory, or a staging copy). */
export function readRefs(dir: string): RefMap {
  const refs: RefMap = new Map();
  const packed = readOr(path.join(dir, "packed-refs"), "");
  for (const line of packed.split("\n")) {
    const match = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (refs\/\S+)$/.exec(line);
    if (match !== null) refs.set(match[2] as string, match[1] as string);
  }
  // A bound on what a directory full of junk costs to read; git's own refs are far fewer.
  readLoose(dir, "refs", refs, { files: 200_000 });
  return refs;
}

/** The value of a symbolic or detached `HEAD` file (`ref: refs/heads/x`, or an object id). */
export function readHead(file: string): string | undefined {
  return refValue(readOr(file, ""));
}

/**
 * Writes `refs` into the ref store at `dir`: every object id into one `packed-refs` file (one
 * write however many refs there are), symbolic refs as loose files.
 */
export function writeRefs(dir: string, refs: RefMap): void {
  const names = [...refs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const packed = ["# pack-refs with: sorted "];
  for (const name of names) {
    const value = refs.get(name) as string;
    if (value.startsWith("ref: ")) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), `${value}\n`);
    } else {
      packed.push(`${value} ${name}`);
    }
  }
  mkdirSync(path.join(dir, "refs", "heads"), { recursive: true });
  mkdirSync(path.join(dir, "refs", "tags"), { recursive: true });
  writeFileSync(path.join(dir, "packed-refs"), `${packed.join("\n")}\n`);
}

/** How one ref differs between two readings. */
export interface RefChange {
  readonly ref: string;
  readonly change: "created" | "moved" | "deleted";
  readonly from: string | null;
  readonly to: string | null;
}

/** Every ref that is not the same in `after` as in `before`, in name order. */
export function refChanges(before: RefMap, after: RefMap): RefChange[] {
  const changes: RefChange[] = [];
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const ref of names) {
    const from = before.get(ref) ?? null;
    const to = after.get(ref) ?? null;
    if (from === to) continue;
    changes.push({
      ref,
      change: from === null ? "created" : to === null ? "deleted" : "moved",
      from,
      to,
    });
  }
  return changes;
}
