import { promises as fs, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runHostGit } from "@climpt/host-git";
import { TOOL_CODES } from "../codes.ts";
import { importStagedObjects } from "./git-object-import.ts";
import { type RefChange, readHead, readRefs, refChanges } from "./git-refs.ts";
import { type GitStaging, stagingIndexDigest } from "./git-staging.ts";

/** What the host took back from a sandboxed command's git, and what it left in the sandbox. */
export interface GitSettlement {
  /** The run's ref (`refs/heads/<branch>`, or `HEAD` when detached), when the command moved it. */
  readonly kept: { readonly ref: string; readonly from: string | null; readonly to: string } | null;
  /** Objects (and packs) taken into the repository. */
  readonly objects: number;
  /** Whether the index was taken back. */
  readonly index: boolean;
  /** Refs other than the run's the command created, moved or deleted: the repository's are unchanged. */
  readonly notKept: readonly RefChange[];
  /** Where HEAD pointed when the command ended, when that was not where it was given (not kept). */
  readonly headMoved: string | null;
  /** What the host refused to take back, and why. */
  readonly problems: readonly string[];
}

export interface SettleOptions {
  /** The caller's environment for host git (identity, PATH). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The run's ref's value as the sandbox had it at the end (HEAD's own when detached). */
function stagedRunValue(staging: GitStaging, refs: Map<string, string>): string | null {
  if (staging.runRef !== "HEAD") return refs.get(staging.runRef) ?? null;
  const head = readHead(path.join(staging.dir, "HEAD"));
  return head === undefined || head.startsWith("ref: ") ? null : head;
}

async function keepRunRef(
  staging: GitStaging,
  from: string | null,
  to: string,
  options: SettleOptions,
): Promise<string | undefined> {
  // update-ref itself refuses an object the repository lacks, and anything but a commit on a
  // branch or HEAD: no separate check (a git process less per commit).
  const updated = await runHostGit(
    staging.repo,
    [
      "update-ref",
      ...(staging.runRef === "HEAD" ? ["--no-deref"] : []),
      "-m",
      "climpt: a sandboxed command",
      staging.runRef,
      to,
      from ?? "",
    ],
    options.env === undefined ? {} : { env: options.env },
  );
  if (updated.exitCode === 0) return undefined;
  const stderr = updated.stderr.trim();
  const why = /non-commit object/.test(stderr)
    ? "which is not a commit"
    : /nonexistent object/.test(stderr)
      ? "which is not in the repository"
      : `which the repository refused (${stderr || updated.refused || `exit ${updated.exitCode}`})`;
  return `${staging.runRef} was moved to ${to}, ${why}; it stays at ${from ?? "nothing"}.`;
}

/** Why git cannot read the index the command left, or undefined when it can. */
async function checkIndex(
  staging: GitStaging,
  options: SettleOptions,
): Promise<string | undefined> {
  // git reads (and checks the checksum of) the whole index whatever the pathspec: one that
  // matches nothing keeps the output empty however large the index is.
  const checked = await runHostGit(
    staging.repo,
    ["ls-files", "--stage", "--", ":(literal).climpt-matches-nothing/"],
    {
      indexFile: path.join(staging.dir, "index"),
      ...(options.env === undefined ? {} : { env: options.env }),
    },
  );
  if (checked.exitCode === 0) return undefined;
  return `the index the command left is not one git reads (${checked.stderr.trim() || checked.refused || `exit ${checked.exitCode}`}); the repository's index is unchanged.`;
}

/**
 * Writes the checked index into the repository's git directory the way git does: an exclusive
 * `index.lock`, then a rename over `index`.
 */
async function keepIndex(staging: GitStaging): Promise<string | undefined> {
  const lock = path.join(staging.repo.gitDir, "index.lock");
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(lock, "wx");
  } catch {
    return `${lock} exists (another git is working in the repository); the repository's index is unchanged.`;
  }
  try {
    await handle.writeFile(await fs.readFile(path.join(staging.dir, "index")));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(lock, path.join(staging.repo.gitDir, "index"));
  return undefined;
}

/**
 * The host's step after a sandboxed command (and before anything else acts on the repository):
 * takes into the repository, checked, what committing produced in the staging git directory —
 * new objects (`git unpack-objects --strict`), the index (when git reads it), and the run's own
 * ref (a commit, moved compare-and-swap from where the command started) — and reports every
 * other ref the command changed, and a moved HEAD, as not kept: the repository's never changed.
 * May be called again during the same command (the push broker does, before pushing); each call
 * takes what is new since the last.
 */
export function settleGitAfterCommand(
  staging: GitStaging,
  options: SettleOptions = {},
): Promise<GitSettlement> {
  // One settle at a time per staging directory: a push the command left running in the
  // background may still settle while the command's own end does.
  const previous = settling.get(staging) ?? Promise.resolve();
  const next = previous.then(() => settleCaught(staging, options));
  settling.set(
    staging,
    next.catch(() => undefined),
  );
  return next;
}

const settling = new WeakMap<GitStaging, Promise<unknown>>();

async function settleCaught(staging: GitStaging, options: SettleOptions): Promise<GitSettlement> {
  try {
    return await settle(staging, options);
  } catch (error) {
    // The repository is as it was before the command; the model learns its git work is lost.
    return {
      kept: null,
      objects: 0,
      index: false,
      notKept: [],
      headMoved: null,
      problems: [
        `the host could not take back what the command did with git: ${(error as Error).message}`,
      ],
    };
  }
}

async function settle(staging: GitStaging, options: SettleOptions): Promise<GitSettlement> {
  const problems: string[] = [];
  // The index points at blobs but git reads it without them: it is checked while the objects
  // go in, and written only after them.
  const digest = stagingIndexDigest(staging);
  const indexChanged = digest !== staging.indexDigest && digest !== null;
  const [objects, indexReadable] = await Promise.all([
    importStagedObjects(staging.repo, path.join(staging.dir, "objects"), options.env),
    indexChanged ? checkIndex(staging, options) : Promise.resolve(undefined),
  ]);
  problems.push(...objects.problems.map((problem) => `not kept: ${problem}`));

  const refs = readRefs(staging.dir);
  const head = readHead(path.join(staging.dir, "HEAD")) ?? null;
  const from = staging.runValue;
  const to = stagedRunValue(staging, refs);
  let kept: GitSettlement["kept"] = null;
  if (to !== from) {
    const refused =
      to === null
        ? `${staging.runRef} was deleted inside the sandbox (or left detached); it stays at ${from ?? "nothing"}.`
        : await keepRunRef(staging, from, to, options);
    if (refused === undefined && to !== null) {
      kept = { ref: staging.runRef, from, to };
      staging.runValue = to;
    } else if (refused !== undefined) {
      problems.push(refused);
    }
  }

  let index = false;
  if (digest !== staging.indexDigest) {
    const refused =
      digest === null
        ? "the index was removed inside the sandbox; the repository's is unchanged."
        : (indexReadable ?? (await keepIndex(staging)));
    if (refused === undefined) index = true;
    else problems.push(refused);
  }

  const others = (map: Map<string, string>): Map<string, string> => {
    const copy = new Map(map);
    copy.delete(staging.runRef);
    return copy;
  };
  const notKept = refChanges(others(staging.refs), others(refs));
  // Detached, HEAD is the run's ref: it may move to another commit, not onto a branch.
  const headMoved =
    staging.runRef === "HEAD"
      ? head === null || head.startsWith("ref: ")
        ? (head ?? "(removed)")
        : null
      : head === staging.head
        ? null
        : (head ?? "(removed)");

  // What the next call compares against: this call's reading, with the run's ref as the
  // repository now has it.
  staging.refs = others(refs);
  if (staging.runRef !== "HEAD" && staging.runValue !== null) {
    staging.refs.set(staging.runRef, staging.runValue);
  }
  staging.indexDigest = digest;
  return { kept, objects: objects.imported, index, notKept, headMoved, problems };
}

/**
 * Shows the command the refs the host changed while it runs (a push it asked for updates
 * `refs/remotes/<remote>/<branch>`): each ref the repository now has otherwise than the staging
 * copy was given it, and that the command has not changed itself, is written into the staging
 * directory, so `git rev-parse @{u}` after `git push -u` in the same command finds it. Runs in
 * turn with settling.
 */
export function refreshStagedRefs(staging: GitStaging): Promise<void> {
  const previous = settling.get(staging) ?? Promise.resolve();
  const next = previous.then(() => {
    const real = readRefs(staging.repo.commonDir);
    const staged = readRefs(staging.dir);
    for (const [ref, value] of real) {
      if (ref === staging.runRef || value.startsWith("ref: ")) continue;
      const given = staging.refs.get(ref);
      if (value === given || staged.get(ref) !== given) continue;
      const file = path.join(staging.dir, ref);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `${value}\n`);
      staging.refs.set(ref, value);
    }
  });
  settling.set(
    staging,
    next.catch(() => undefined),
  );
  return next;
}

const SHOWN_CHANGES = 20;

function short(value: string | null): string {
  if (value === null) return "nothing";
  return value.startsWith("ref: ") ? value.slice("ref: ".length) : value.slice(0, 12);
}

function describeChange(change: RefChange): string {
  if (change.change === "created") return `${change.ref} created at ${short(change.to)}`;
  if (change.change === "deleted") return `${change.ref} deleted`;
  return `${change.ref} moved to ${short(change.to)}`;
}

/** One thing the model is told about a command's git, and the run's journal records. */
export interface GitSettlementNote {
  readonly code: string;
  readonly message: string;
}

/**
 * What the model is told after a command whose git did something the host did not keep
 * (`TOOL-GIT-001`: refs, HEAD) or refused to take back (`TOOL-GIT-002`); empty when everything
 * the command did with git was kept.
 */
export function describeSettlement(
  staging: GitStaging,
  settled: GitSettlement,
): GitSettlementNote[] {
  const notKept: string[] = [];
  const own = staging.runRef === "HEAD" ? "HEAD (detached)" : staging.runRef;
  if (settled.notKept.length > 0) {
    const shown = settled.notKept.slice(0, SHOWN_CHANGES).map(describeChange);
    const more = settled.notKept.length - shown.length;
    notKept.push(
      `only the run's own ref ${own} changes in the repository from inside the sandbox; these changes stayed in the sandbox's copy and are gone: ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}.`,
    );
  }
  if (settled.headMoved !== null) {
    notKept.push(
      `HEAD pointed to ${short(settled.headMoved)} when the command ended; it stays on ${own} (the working tree keeps what the command left in it).`,
    );
  }
  const notes: GitSettlementNote[] = [];
  if (notKept.length > 0) notes.push({ code: TOOL_CODES.gitNotKept, message: notKept.join(" ") });
  if (settled.problems.length > 0) {
    notes.push({ code: TOOL_CODES.gitRefused, message: settled.problems.join(" ") });
  }
  return notes;
}
