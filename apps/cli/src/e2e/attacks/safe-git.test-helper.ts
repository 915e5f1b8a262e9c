/**
 * Git as the attack suite's own inspector runs it: on a git directory of its own whose
 * `objects`, `refs`, `packed-refs` and `logs` are links to the repository's real ones, with a
 * config it wrote, and no global or system configuration. A planted `commondir`, `.git` file,
 * `config.worktree` or include is not there to follow (GIT_COMMON_DIR does not override a
 * `commondir` file), so the suite sees the truth about refs and objects without running what the
 * attacker left behind; running that is what the user-git check does on purpose.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

export interface SafeGitResult {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs git on a pristine view of the git directory `gitDir` (made and removed per call). */
export function safeGit(gitDir: string, args: readonly string[]): SafeGitResult {
  const view = mkdtempSync(path.join(tmpdir(), "climpt-attack-git-view-"));
  try {
    for (const name of ["objects", "refs", "packed-refs", "logs"]) {
      if (existsSync(path.join(gitDir, name)))
        symlinkSync(path.join(gitDir, name), path.join(view, name));
    }
    if (existsSync(path.join(gitDir, "HEAD")))
      copyFileSync(path.join(gitDir, "HEAD"), path.join(view, "HEAD"));
    writeFileSync(
      path.join(view, "config"),
      "[core]\n\trepositoryformatversion = 0\n\tbare = true\n",
    );
    const result = spawnSync(
      "git",
      ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", ...args],
      {
        cwd: view,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: view,
          GIT_DIR: view,
          GIT_CONFIG_GLOBAL: "/dev/null",
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          GIT_OPTIONAL_LOCKS: "0",
        },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    return { ok: result.status === 0, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
  } finally {
    rmSync(view, { recursive: true, force: true });
  }
}

export interface RepoSnapshot {
  /** `refname objectname`, one per ref (packed and loose alike), sorted; null when unreadable. */
  readonly refs: ReadonlyMap<string, string> | null;
  /** What `.git/HEAD` says (a symbolic ref or a commit). */
  readonly head: string | null;
  /** A hash of the main checkout's index (`.git/index`): the user's staged work. */
  readonly index: string | null;
}

/** The refs and HEAD of the repository whose work tree is `repo`. */
export function snapshotRepo(repo: string): RepoSnapshot {
  const gitDir = path.join(repo, ".git");
  if (!existsSync(gitDir)) return { refs: null, head: null, index: null };
  const listed = safeGit(gitDir, ["for-each-ref", "--format=%(refname) %(objectname)"]);
  const head = safeGit(gitDir, ["symbolic-ref", "-q", "HEAD"]);
  const refs = new Map<string, string>();
  for (const line of listed.stdout.split("\n")) {
    const [name, object] = line.split(" ");
    if (name !== undefined && name !== "" && object !== undefined) refs.set(name, object);
  }
  let index: string | null = null;
  try {
    index = createHash("sha256")
      .update(readFileSync(path.join(gitDir, "index")))
      .digest("hex");
  } catch {
    index = null;
  }
  return {
    refs: listed.ok ? refs : null,
    head: head.ok ? head.stdout.trim() : null,
    index,
  };
}

/** `git fsck` of the real git directory: every object reachable from every ref is there. */
export function fsck(repo: string): SafeGitResult {
  return safeGit(path.join(repo, ".git"), ["fsck", "--no-dangling", "--no-progress"]);
}

/** Whether `ancestor` is an ancestor of (or equal to) `descendant`. */
export function isAncestor(repo: string, ancestor: string, descendant: string): boolean {
  return safeGit(path.join(repo, ".git"), ["merge-base", "--is-ancestor", ancestor, descendant]).ok;
}
