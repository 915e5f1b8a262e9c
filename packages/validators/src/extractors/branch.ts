import { stripAnsi } from "../ansi.ts";
import { splitLines } from "../paths.ts";

export interface RemoteStatus {
  /** The current branch; `null` when HEAD is detached or the output does not say. */
  readonly branch: string | null;
  /** `origin/main`; `null` when the branch tracks nothing. */
  readonly upstream: string | null;
  readonly ahead: number;
  readonly behind: number;
  /** The branch tracks an upstream that no longer exists. */
  readonly gone: boolean;
}

interface BranchHeader extends RemoteStatus {
  readonly found: boolean;
}

const NOT_FOUND: BranchHeader = {
  found: false,
  branch: null,
  upstream: null,
  ahead: 0,
  behind: 0,
  gone: false,
};

/** `## main...origin/main [ahead 1, behind 2]` (porcelain v1 / `-sb` header). */
function fromShortHeader(lines: readonly string[]): BranchHeader | undefined {
  const header = lines.find((line) => line.startsWith("## "));
  if (header === undefined) return undefined;
  const body = header.slice(3).trim();
  if (/^HEAD \(no branch\)/.test(body)) return { ...NOT_FOUND, found: true };
  const unborn = /^(?:No commits yet|Initial commit) on (.+)$/.exec(body);
  if (unborn) return { ...NOT_FOUND, found: true, branch: unborn[1] as string };
  const match = /^(.+?)(?:\.\.\.(\S+))?(?: \[(.+)\])?$/.exec(body);
  if (!match) return undefined;
  const tracking = match[3] ?? "";
  return {
    found: true,
    branch: match[1] as string,
    upstream: match[2] ?? null,
    ahead: Number(/ahead (\d+)/.exec(tracking)?.[1] ?? 0),
    behind: Number(/behind (\d+)/.exec(tracking)?.[1] ?? 0),
    gone: tracking === "gone",
  };
}

/** `# branch.head`, `# branch.upstream`, `# branch.ab +1 -2` (porcelain v2 with `--branch`). */
function fromV2Headers(lines: readonly string[]): BranchHeader | undefined {
  const value = (key: string): string | undefined =>
    lines.find((line) => line.startsWith(`# branch.${key} `))?.slice(`# branch.${key} `.length);
  const head = value("head");
  if (head === undefined) return undefined;
  const upstream = value("upstream") ?? null;
  const ab = /^\+(\d+) -(\d+)$/.exec(value("ab") ?? "");
  return {
    found: true,
    branch: head === "(detached)" ? null : head,
    upstream,
    ahead: Number(ab?.[1] ?? 0),
    behind: Number(ab?.[2] ?? 0),
    // v2 prints no branch.ab line when the upstream is gone.
    gone: upstream !== null && ab === null,
  };
}

/** Plain `git status`: `On branch main`, `Your branch is ahead of 'origin/main' by 1 commit.` */
function fromLongStatus(lines: readonly string[]): BranchHeader | undefined {
  const text = lines.join("\n");
  const on = /^On branch (\S+)/m.exec(text);
  const detached = /^HEAD detached (?:at|from) /m.test(text);
  if (!on && !detached) return undefined;
  const quoted = /Your branch (?:is .*? |and )'([^']+)'/.exec(text);
  const ahead = /is ahead of '[^']+' by (\d+) commit/.exec(text);
  const behind = /is behind '[^']+' by (\d+) commit/.exec(text);
  const diverged = /have (\d+) and (\d+) different commits each/.exec(text);
  const gone = /Your branch is based on '([^']+)', but the upstream is gone/.exec(text);
  return {
    found: true,
    branch: on ? (on[1] as string) : null,
    upstream: quoted?.[1] ?? gone?.[1] ?? null,
    ahead: Number(ahead?.[1] ?? diverged?.[1] ?? 0),
    behind: Number(behind?.[1] ?? diverged?.[2] ?? 0),
    gone: gone !== null,
  };
}

/** The shape `git check-ref-format --branch` accepts, near enough for reading tool output. */
function isBranchName(name: string): boolean {
  return (
    !/[\s~^:?*[\\]/.test(name) &&
    ![...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) &&
    !name.startsWith("-") &&
    !name.startsWith("/") &&
    !name.endsWith("/") &&
    !name.endsWith(".") &&
    !name.endsWith(".lock") &&
    !name.includes("..") &&
    !name.includes("@{") &&
    !name.includes("//") &&
    !name.startsWith("{")
  );
}

function branchHeader(text: string): BranchHeader {
  const lines = splitLines(stripAnsi(text));
  return fromShortHeader(lines) ?? fromV2Headers(lines) ?? fromLongStatus(lines) ?? NOT_FOUND;
}

/**
 * The current branch from `git branch --show-current`, `git rev-parse --abbrev-ref HEAD`,
 * `git status -sb` / `--porcelain --branch` (`## main...origin/main`), `--porcelain=v2 --branch`
 * or plain `git status`. `null` for a detached HEAD (empty `--show-current`, `HEAD` from
 * rev-parse, `## HEAD (no branch)`, `(detached)`).
 */
export function parseBranchName(text: string): string | null {
  const header = branchHeader(text);
  if (header.found) return header.branch;
  // `--show-current` / `rev-parse --abbrev-ref HEAD`: exactly one line that is a valid branch name.
  const lines = splitLines(stripAnsi(text))
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const only = lines.length === 1 ? (lines[0] as string) : undefined;
  if (only === undefined || only === "HEAD" || !isBranchName(only)) return null;
  return only;
}

/**
 * Upstream, ahead and behind counts from `## main...origin/main [ahead 1, behind 2]`
 * (`git status -sb`, `--porcelain --branch`), the v2 `# branch.*` headers, or plain `git status`.
 */
export function parseRemoteStatus(text: string): RemoteStatus {
  const { found: _found, ...status } = branchHeader(text);
  return status;
}
