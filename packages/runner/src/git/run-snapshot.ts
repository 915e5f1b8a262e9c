import { copyFile, mkdir, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { type GitLayout, type HostGitResult, runHostGit } from "@climpt/host-git";
import { SNAPSHOT_REFS } from "./snapshot-names.ts";
import { removeRemoteRunSnapshots } from "./snapshot-remote.ts";

/**
 * Snapshots of a run's working tree (docs/design.md#the-journal-and-resume): at its start and at
 * every step end, the state of the working tree — committed, staged, modified and untracked
 * files alike, ignored ones left out — as one commit under the run's own ref,
 * `refs/climpt/<runId>/<iteration>-<stepId>`. `climpt fork` starts a fork's working tree there.
 *
 * Nothing of the user's is touched: the commits are made with `write-tree` / `commit-tree` from
 * index files of the run's own (a copy of the repository's index, in a temporary folder), never
 * the repository's index, and no branch moves. Every git runs through @climpt/host-git (explicit
 * directories, no hooks, no fsmonitor, a timeout).
 *
 * A snapshot commit's first parent is the commit checked out (HEAD); when the index differed
 * from HEAD, a second parent is a commit of the index as it was (parent HEAD), as in `git
 * stash`. So a fork restores what was committed, what was staged and what was only in the
 * working tree. A repository without a commit yet gets no snapshot.
 */

export { SNAPSHOT_REFS };

/** The empty tree's id in SHA-1 and in SHA-256 repositories. */
const EMPTY_TREES: ReadonlySet<string> = new Set([
  "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
]);

/** A snapshot is machine bookkeeping: it never waits long, and never for the user's identity. */
const SNAPSHOT_TIMEOUT_MS = 60_000;
const SNAPSHOT_IDENTITY = {
  GIT_AUTHOR_NAME: "climpt",
  GIT_AUTHOR_EMAIL: "climpt@localhost",
  GIT_COMMITTER_NAME: "climpt",
  GIT_COMMITTER_EMAIL: "climpt@localhost",
};

/**
 * One ref-name component for a snapshot label: `<iteration>-<stepId>`, or `0-start`. A step id
 * may be any string (docs/design.md#two-dialects-one-model), so every character git forbids in
 * a ref (and `%` itself) is written `%XX` (UTF-8 bytes), and so are dots when the name would
 * otherwise hold `..` or end in `.` or `.lock`.
 */
export function snapshotLabel(iteration: number, stepId: string): string {
  let encoded = "";
  for (const char of stepId) {
    if (/^[A-Za-z0-9._-]$/.test(char)) encoded += char;
    else
      for (const byte of Buffer.from(char, "utf8"))
        encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  if (/\.\.|\.$|\.lock$/.test(encoded)) encoded = encoded.replaceAll(".", "%2E");
  return `${iteration}-${encoded}`;
}

/** The ref of one snapshot. */
export function snapshotRef(runId: string, label: string): string {
  return `${SNAPSHOT_REFS}/${runId}/${label}`;
}

export type SnapshotResult =
  | { readonly ok: true; readonly commit: string; readonly ms: number }
  | { readonly ok: false; readonly reason: string };

function failure(args: readonly string[], result: HostGitResult): string {
  const why =
    result.refused ??
    (result.stderr.trim() || (result.timedOut ? "timed out" : (result.spawnError ?? "")));
  return `git ${args[0]} failed${why === "" ? "" : `: ${why}`}`;
}

/**
 * Takes a run's snapshots. `open` makes its temporary folder (two index files: a copy of the
 * repository's index for the staged state, and the run's working-tree index, kept across
 * snapshots so git rehashes only files whose stat changed); `close` removes it.
 */
export class RunSnapshots {
  private worktreeIndexReady = false;
  /** The repository index's tree at the last snapshot, keyed by the index file's stat. */
  private lastIndex: { readonly key: string; readonly tree: string } | undefined;

  private constructor(
    private readonly layout: GitLayout,
    private readonly runId: string,
    private readonly folder: string,
    private readonly env: Readonly<Record<string, string | undefined>>,
  ) {}

  static async open(options: {
    readonly layout: GitLayout;
    readonly runId: string;
    readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  }): Promise<RunSnapshots> {
    // In the repository's git directory, not TMPDIR: a kill -9 leaves it where the resumed run
    // (same run id) takes it up again and removes it, instead of an orphan in TMPDIR.
    const folder = path.join(options.layout.gitDir, "climpt-snapshots", options.runId);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    return new RunSnapshots(options.layout, options.runId, folder, {
      ...process.env,
      ...options.env,
      ...SNAPSHOT_IDENTITY,
    });
  }

  private git(args: readonly string[], indexFile?: string): Promise<HostGitResult> {
    return runHostGit(this.layout, args, {
      env: this.env,
      timeoutMs: SNAPSHOT_TIMEOUT_MS,
      ...(indexFile === undefined ? {} : { indexFile }),
    });
  }

  /** A copy of the repository's index (absent: none yet), so no git here ever writes it. */
  private async copyIndex(to: string): Promise<void> {
    try {
      await copyFile(path.join(this.layout.gitDir, "index"), to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await rm(to, { force: true });
    }
  }

  /** The tree of the index file `indexFile` holds, or why not. */
  private async writeTree(indexFile: string): Promise<string | { reason: string }> {
    const args = ["write-tree"];
    const result = await this.git(args, indexFile);
    if (result.exitCode !== 0) return { reason: failure(args, result) };
    const tree = result.stdout.trim();
    // git knows the empty tree without storing it, and `write-tree` of an empty index does not
    // write it: a snapshot commit of an emptied working tree would point at an object the
    // repository does not hold (`git fsck`: missing tree). It is written once, explicitly.
    if (EMPTY_TREES.has(tree)) {
      const store = ["hash-object", "-w", "-t", "tree", "--stdin"];
      const stored = await runHostGit(this.layout, store, {
        env: this.env,
        timeoutMs: SNAPSHOT_TIMEOUT_MS,
        input: "",
      });
      if (stored.exitCode !== 0) return { reason: failure(store, stored) };
    }
    return tree;
  }

  /** The working tree as a tree: the run's index brought up to date with `add -A`. */
  private async worktreeTree(): Promise<string | { reason: string }> {
    const index = path.join(this.folder, "worktree-index");
    if (!this.worktreeIndexReady) {
      // Starting from the repository's index gives git its stat cache: unchanged files are not
      // read again.
      await this.copyIndex(index);
      this.worktreeIndexReady = true;
    }
    const args = ["add", "--all", "--", "."];
    const added = await this.git(args, index);
    if (added.exitCode !== 0) return { reason: failure(args, added) };
    return this.writeTree(index);
  }

  private async commitTree(tree: string, parents: readonly string[], message: string) {
    const args = [
      "commit-tree",
      "--no-gpg-sign",
      ...parents.flatMap((parent) => ["-p", parent]),
      "-m",
      message,
      tree,
    ];
    const result = await this.git(args);
    return result.exitCode === 0 ? result.stdout.trim() : { reason: failure(args, result) };
  }

  /**
   * The tree of the repository's index, from a copy of it. The index changes only when git
   * runs (an add, a commit), so an index file with the stat it had last time is not read again.
   */
  private async indexTree(): Promise<string | { reason: string }> {
    const file = path.join(this.layout.gitDir, "index");
    let key = "absent";
    try {
      const info = await stat(file);
      key = `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (this.lastIndex?.key === key) return this.lastIndex.tree;
    const staged = path.join(this.folder, "staged-index");
    await this.copyIndex(staged);
    const tree = await this.writeTree(staged);
    if (typeof tree === "string") this.lastIndex = { key, tree };
    return tree;
  }

  /** Records the working tree now under `refs/climpt/<runId>/<label>`. Never throws. */
  async take(label: string): Promise<SnapshotResult> {
    const started = performance.now();
    try {
      // HEAD's commit and tree in one git; an unborn HEAD fails it.
      const [head, indexTree, worktreeTree] = await Promise.all([
        this.git(["rev-parse", "HEAD^{commit}", "HEAD^{tree}"]),
        this.indexTree(),
        this.worktreeTree(),
      ]);
      const [headCommit, headTree] = head.stdout.trim().split("\n");
      if (head.exitCode !== 0 || headCommit === undefined || headTree === undefined) {
        return { ok: false, reason: "the repository has no commit yet (HEAD is unborn)" };
      }
      if (typeof indexTree !== "string") return { ok: false, reason: indexTree.reason };
      if (typeof worktreeTree !== "string") return { ok: false, reason: worktreeTree.reason };
      // The index as a second parent only when something is staged: most steps stage nothing.
      const parents = [headCommit];
      if (indexTree !== headTree) {
        const index = await this.commitTree(indexTree, [headCommit], `climpt index ${this.runId}`);
        if (typeof index !== "string") return { ok: false, reason: index.reason };
        parents.push(index);
      }
      const commit = await this.commitTree(
        worktreeTree,
        parents,
        `climpt snapshot ${this.runId} ${label}`,
      );
      if (typeof commit !== "string") return { ok: false, reason: commit.reason };
      const refArgs = ["update-ref", snapshotRef(this.runId, label), commit];
      const ref = await this.git(refArgs);
      if (ref.exitCode !== 0) return { ok: false, reason: failure(refArgs, ref) };
      return { ok: true, commit, ms: performance.now() - started };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
    // The shared parent goes too once no run's folder is left in it.
    await rmdir(path.dirname(this.folder)).catch(() => undefined);
  }
}

/** Host git in `layout` for the snapshot refs; a failure throws with git's stderr. */
async function refGit(
  layout: GitLayout,
  args: readonly string[],
  options: { readonly input?: string; readonly env?: Readonly<Record<string, string | undefined>> },
): Promise<string> {
  const result = await runHostGit(layout, args, {
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
  });
  if (result.exitCode !== 0) throw new Error(failure(args, result));
  return result.stdout;
}

/** The snapshot refs of run `runId`, by name. */
export async function runSnapshotRefs(
  layout: GitLayout,
  runId: string,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const out = await refGit(
    layout,
    ["for-each-ref", "--format=%(refname)", `${SNAPSHOT_REFS}/${runId}/`],
    env === undefined ? {} : { env },
  );
  return out.split("\n").filter((line) => line !== "");
}

/**
 * Removes run `runId`'s snapshot refs (its commits become unreachable and git's own garbage
 * collection drops them); returns how many there were here. With `remote` (a fleet's run, whose
 * refs were pushed there: snapshot-remote.ts), the remote's refs of the run go too, first.
 */
export async function removeRunSnapshots(
  layout: GitLayout,
  runId: string,
  env?: Readonly<Record<string, string | undefined>>,
  options: { readonly remote?: string } = {},
): Promise<number> {
  if (options.remote !== undefined)
    await removeRemoteRunSnapshots(layout, options.remote, runId, env);
  const refs = await runSnapshotRefs(layout, runId, env);
  if (refs.length === 0) return 0;
  await refGit(layout, ["update-ref", "--stdin"], {
    input: refs.map((ref) => `delete ${ref}\n`).join(""),
    ...(env === undefined ? {} : { env }),
  });
  return refs.length;
}

/**
 * Points refs of run `runId` at existing snapshot commits (a fork's copies of its source's
 * snapshots, so they outlive the source's refs): `labels` maps each label to its commit.
 */
export async function adoptSnapshots(
  layout: GitLayout,
  runId: string,
  labels: ReadonlyMap<string, string>,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  if (labels.size === 0) return;
  let input = "";
  for (const [label, commit] of labels) input += `update ${snapshotRef(runId, label)} ${commit}\n`;
  await refGit(layout, ["update-ref", "--stdin"], { input, ...(env === undefined ? {} : { env }) });
}
