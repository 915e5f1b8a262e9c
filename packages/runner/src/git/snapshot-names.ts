// The names in a run's snapshot refs, and the checks every one of them passes before it reaches
// git's command line: a run id, a label or a commit id may come from a journal (a file, or a
// fleet's Redis stream) or a remote's listing, and none of those is trusted.

/** The namespace of snapshot refs; `refs/climpt/<runId>/` holds one run's. */
export const SNAPSHOT_REFS = "refs/climpt";

/**
 * A run id as the runner makes them (`20261122T003512Z-a1b2c3`, run/run-id.ts) or a caller's
 * that is as plain: letters, digits, `_` and `-`, not starting with `-`. Nothing else is put
 * into a snapshot ref's name, so the name cannot leave the run's namespace (`..`, `/`) or become
 * an option.
 */
export function isSnapshotRunId(runId: unknown): runId is string {
  return typeof runId === "string" && /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(runId);
}

/**
 * A git remote's name (`origin`) or URL as a fleet configures it: printable, no whitespace, not
 * starting with `-` (git would read it as an option).
 */
export function isRemoteName(remote: unknown): remote is string {
  return (
    typeof remote === "string" && remote.length <= 1024 && /^[A-Za-z0-9._~:/@+][!-~]*$/.test(remote)
  );
}

/** A label as `snapshotLabel` writes it (`3-continuation.implement`, `0-start`, `%XX` escapes). */
export function isSnapshotLabel(label: unknown): label is string {
  return (
    typeof label === "string" &&
    /^\d{1,9}-[A-Za-z0-9._%-]{1,512}$/.test(label) &&
    !/\.\.|\.$|\.lock$/.test(label)
  );
}

/** A snapshot commit's id as a journal records it: a full SHA-1 or SHA-256 object id. */
export function isSnapshotCommit(commit: unknown): commit is string {
  return typeof commit === "string" && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit);
}

/**
 * A branch name as a journal records a run's base branch (`main`, `feature/x`): what git accepts
 * in `refs/heads/`, and nothing git would read as an option or a revision range. The merge of a
 * completed fork names it on git's command line.
 */
export function isPlainBranchName(name: unknown): name is string {
  return (
    typeof name === "string" &&
    name.length <= 255 &&
    /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(name) &&
    !/\.\.|\/\/|\/\.|\.$|\/$|\.lock$|\.lock\//.test(name)
  );
}
