import { type GitLayout, runHostGit } from "@climpt/host-git";

const GIT_TIMEOUT_MS = 60_000;

/** What the run's work is compared with; the caller (the runner) decides it. */
export interface BaselineTarget {
  /**
   * A branch (`refs/heads/main`) or a commit: the comparison runs on the merge base of the
   * working tree's `HEAD` and it.
   */
  readonly ref: string;
  /** How the base is named to people and the model ("main", "the run's start"). */
  readonly name: string;
  /**
   * The merge base when the run started. The model writes the branch's history: by rewriting it
   * onto an older commit it could move the merge base back to where a test it breaks already
   * failed. A merge base that is not this commit or a descendant of it is therefore refused.
   */
  readonly startBase?: string;
}

export type BaseCommit =
  | { readonly ok: true; readonly sha: string }
  | { readonly ok: false; readonly reason: string };

/** The merge base of `HEAD` in `repo` and the target, checked against the one at the start. */
export async function resolveBaseCommit(
  repo: GitLayout,
  target: BaselineTarget,
  options: {
    readonly env?: Readonly<Record<string, string | undefined>>;
    readonly signal?: AbortSignal;
  } = {},
): Promise<BaseCommit> {
  const run = (args: readonly string[]) =>
    runHostGit(repo, args, {
      timeoutMs: GIT_TIMEOUT_MS,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  // `--end-of-options`: the ref comes from the run's options, never read as a flag.
  const merged = await run(["merge-base", "--end-of-options", "HEAD", target.ref]);
  const sha = merged.stdout.trim();
  if (merged.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(sha)) {
    const why = merged.refused ?? (merged.stderr.trim() || "they share no history");
    return { ok: false, reason: `there is no merge base of HEAD and ${target.name}: ${why}` };
  }
  if (target.startBase !== undefined && target.startBase !== sha) {
    const ancestor = await run([
      "merge-base",
      "--is-ancestor",
      "--end-of-options",
      target.startBase,
      sha,
    ]);
    if (ancestor.exitCode !== 0) {
      return {
        ok: false,
        reason: `the merge base of HEAD and ${target.name} (${sha.slice(0, 12)}) is not the one the run started from (${target.startBase.slice(0, 12)}) nor a later commit: the branch's history was rewritten onto an older base`,
      };
    }
  }
  return { ok: true, sha };
}
