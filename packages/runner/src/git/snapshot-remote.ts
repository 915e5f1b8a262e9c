import { type GitLayout, type HostGitResult, runHostGit } from "@climpt/host-git";
import { isRemoteName, isSnapshotLabel, isSnapshotRunId, SNAPSHOT_REFS } from "./snapshot-names.ts";

/**
 * A run's snapshot refs on a git remote: a fleet pushes `refs/climpt/<runId>/*` with the issue's
 * branch (its workers do not share a repository), `climpt fork --queue` fetches the ones a fork
 * needs from there, and removing a run's refs can remove the remote's too. Only the run's own
 * namespace is ever named: no branch, tag or other run's ref is pushed, fetched or deleted.
 *
 * Every name that reaches git's command line here is checked first (snapshot-names.ts): a run id read from Redis or typed by a user, a remote name,
 * and ref names a remote lists are untrusted, and an argument beginning with `-` would be an
 * option to git.
 */

/** A fetch or push talks to a remote: bounded, so a stalled network cannot hang a run or a fork. */
const REMOTE_TIMEOUT_MS = 300_000;

function namespace(runId: string): string {
  if (!isSnapshotRunId(runId)) throw new Error(`"${runId}" is not a run id`);
  return `${SNAPSHOT_REFS}/${runId}/`;
}

function checkRemote(remote: string): void {
  if (!isRemoteName(remote)) throw new Error(`"${remote}" is not a git remote's name or URL`);
}

async function remoteGit(
  layout: GitLayout,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> | undefined,
): Promise<string> {
  const result: HostGitResult = await runHostGit(layout, args, {
    timeoutMs: REMOTE_TIMEOUT_MS,
    ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
  });
  if (result.exitCode === 0) return result.stdout;
  const why =
    result.refused ??
    (result.stderr.trim() || (result.timedOut ? "timed out" : (result.spawnError ?? "")));
  throw new Error(`git ${args[0]} failed${why === "" ? "" : `: ${why}`}`);
}

/**
 * The refspec that pushes run `runId`'s snapshot refs, forced within the run's namespace only:
 * `pushRunSnapshots` pushes it alone; a fleet's step end adds it to the issue branch's push, so a
 * step end stays one `git push`. Throws when `runId` is not a run id (it may come from Redis).
 */
export function runSnapshotRefspec(runId: string): string {
  const refs = namespace(runId);
  return `+${refs}*:${refs}*`;
}

/**
 * Pushes run `runId`'s snapshot refs to `remote`, forced within the run's namespace only (a
 * resumed run takes a step's snapshot again: a new commit under the same label). Refs the remote
 * has and this repository lacks (pushed by the worker that ran the run before) are left there.
 */
export async function pushRunSnapshots(
  layout: GitLayout,
  remote: string,
  runId: string,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const refspec = runSnapshotRefspec(runId);
  checkRemote(remote);
  await remoteGit(layout, ["push", "-q", "--no-verify", remote, refspec], env);
}

/**
 * Fetches the snapshots `labels` of run `runId` from `remote` into this repository's objects,
 * without a ref (no `FETCH_HEAD`, no tags): the caller points refs of its own at the commits it
 * needs (a fork's `adoptSnapshots`). Throws with git's stderr when the remote lacks one.
 */
export async function fetchRunSnapshots(
  layout: GitLayout,
  remote: string,
  runId: string,
  labels: readonly string[],
  env?: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const refs = namespace(runId);
  checkRemote(remote);
  if (labels.length === 0) return;
  for (const label of labels) {
    if (!isSnapshotLabel(label)) throw new Error(`"${label}" is not a snapshot label`);
  }
  await remoteGit(
    layout,
    [
      "fetch",
      "-q",
      "--no-tags",
      "--no-write-fetch-head",
      "--no-recurse-submodules",
      remote,
      ...labels.map((label) => `${refs}${label}`),
    ],
    env,
  );
}

/**
 * Deletes run `runId`'s snapshot refs on `remote` (every one the remote lists under the run's
 * namespace, whoever pushed it); returns how many. A listed name that is not a snapshot label
 * is left alone: it was not written by climpt.
 */
export async function removeRemoteRunSnapshots(
  layout: GitLayout,
  remote: string,
  runId: string,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const refs = namespace(runId);
  checkRemote(remote);
  const listed = await remoteGit(layout, ["ls-remote", "--refs", remote, `${refs}*`], env);
  const names = listed
    .split("\n")
    .map((line) => line.split("\t")[1] ?? "")
    .filter((name) => name.startsWith(refs) && isSnapshotLabel(name.slice(refs.length)));
  if (names.length === 0) return 0;
  await remoteGit(layout, ["push", "-q", "--no-verify", remote, ...names.map((n) => `:${n}`)], env);
  return names.length;
}
