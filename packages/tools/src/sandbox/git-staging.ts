import { createHash } from "node:crypto";
import {
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import type { GitLayout } from "@climpt/host-git";
import { type RefMap, readHead, readRefs, writeRefs } from "./git-refs.ts";

/**
 * The git directory a sandboxed command sees, and what the host needs to take back from it
 * (docs/design.md#tools-and-their-boundary).
 *
 * Inside the sandbox the repository's real git directories are read-only, whole: no file in them
 * can be created, changed or removed (`commondir`, `config.worktree`, refs, packed refs, HEAD,
 * hooks, objects), and neither can the working tree's `.git`. What git writes goes to a private
 * staging directory made for the command, which sits where the sandbox looks for the git
 * directory: over `.git` (a `.git` directory), or named by a `.git` file shown in place of the
 * real one (a linked worktree). It holds copies of HEAD, the index and every ref, the repository's
 * configuration and hooks as read-only links, and an object directory of its own that borrows the
 * repository's objects (alternates). After the command the host takes back, checked, only what
 * committing produces: new objects, the index, and the run's own branch (settleGitAfterCommand).
 */
export interface GitStaging {
  /** The repository, as the host sees it. */
  readonly repo: GitLayout;
  /** The staging git directory (writable inside the sandbox). */
  readonly dir: string;
  /** Where the repository's common directory is shown read-only inside the sandbox. */
  readonly view: string;
  /** A linked worktree: the `.git` file shown in place of the working tree's (`gitdir: <dir>`). */
  readonly dotGitFile: string | null;
  /** The ref sandboxed git may move: `refs/heads/<branch>`, or `HEAD` when it is detached. */
  readonly runRef: string;
  /** HEAD as written into the staging directory. */
  readonly head: string;
  /** The refs as the sandbox was given them, then as last settled. */
  refs: RefMap;
  /** The run's ref's value as given, then as the repository has it after the last settle. */
  runValue: string | null;
  /** The index's digest as given, then as last settled (null: there was none). */
  indexDigest: string | null;
}

function digestOf(file: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return null;
  }
}

/** Copies a file when it exists (a copy-on-write clone where the file system has them). */
function copyIfPresent(from: string, to: string): void {
  try {
    copyFileSync(from, to, constants.COPYFILE_FICLONE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function linkIfPresent(target: string, real: string, link: string): void {
  if (existsSync(real)) symlinkSync(target, link);
}

/** The path inside the sandbox of `file`, a path inside the repository's common directory. */
function viewed(staging: Pick<GitStaging, "repo" | "view">, file: string): string {
  return path.join(staging.view, path.relative(staging.repo.commonDir, file));
}

/**
 * Makes the staging git directory for one sandboxed command in `layoutDir` (the command's own
 * temporary folder, removed after it). Synchronous: some twenty small files and links, which
 * cost less this way than as promises.
 */
export function prepareGitStaging(repo: GitLayout, layoutDir: string): GitStaging {
  const dir = path.join(layoutDir, "git");
  const view = path.join(layoutDir, "git-repository");
  for (const sub of [["objects", "info"], ["objects", "pack"], ["info"], ["logs", "refs"]]) {
    mkdirSync(path.join(dir, ...sub), { recursive: true });
  }
  mkdirSync(view);
  const head = readHead(path.join(repo.gitDir, "HEAD")) ?? "ref: refs/heads/main";
  const runRef = head.startsWith("ref: ") ? head.slice("ref: ".length) : "HEAD";
  const refs = readRefs(repo.commonDir);
  const shape = { repo, view };
  // A linked worktree's git directory is <common>/worktrees/<id>: inside the view as well.
  const gitDirView = viewed(shape, repo.gitDir);
  writeFileSync(path.join(dir, "HEAD"), `${head}\n`);
  writeRefs(dir, refs);
  writeFileSync(
    path.join(dir, "objects", "info", "alternates"),
    `${viewed(shape, path.join(repo.commonDir, "objects"))}\n`,
  );
  copyIfPresent(path.join(repo.gitDir, "index"), path.join(dir, "index"));
  copyIfPresent(path.join(repo.commonDir, "shallow"), path.join(dir, "shallow"));
  // `git stash list` reads the stash's reflog.
  copyIfPresent(
    path.join(repo.commonDir, "logs", "refs", "stash"),
    path.join(dir, "logs", "refs", "stash"),
  );
  // Read-only inside: the links lead into the repository's directory, shown read-only.
  symlinkSync(viewed(shape, path.join(repo.commonDir, "config")), path.join(dir, "config"));
  linkIfPresent(
    path.join(gitDirView, "config.worktree"),
    path.join(repo.gitDir, "config.worktree"),
    path.join(dir, "config.worktree"),
  );
  for (const name of ["hooks", "modules"]) {
    linkIfPresent(
      viewed(shape, path.join(repo.commonDir, name)),
      path.join(repo.commonDir, name),
      path.join(dir, name),
    );
  }
  for (const [name, from] of [
    ["exclude", repo.commonDir],
    ["attributes", repo.commonDir],
    ["sparse-checkout", repo.gitDir],
  ] as const) {
    const real = path.join(from, "info", name);
    linkIfPresent(viewed(shape, real), real, path.join(dir, "info", name));
  }
  let dotGitFile: string | null = null;
  if (repo.dotGit === "file") {
    dotGitFile = path.join(layoutDir, "dot-git");
    writeFileSync(dotGitFile, `gitdir: ${dir}\n`);
  }
  return {
    repo,
    dir,
    view,
    dotGitFile,
    runRef,
    head,
    refs,
    runValue: runRef === "HEAD" ? head : (refs.get(runRef) ?? null),
    indexDigest: digestOf(path.join(dir, "index")),
  };
}

/** The staging index's digest now (null: none), for what settling compares. */
export function stagingIndexDigest(staging: GitStaging): string | null {
  return digestOf(path.join(staging.dir, "index"));
}

/**
 * What the sandbox's policy needs for the staging: the staging directory writable; the
 * repository's directories and the working tree's `.git` read-only (and readable where the
 * user's home directory is hidden).
 */
export function stagingPolicy(staging: GitStaging): {
  readonly writable: readonly string[];
  readonly readOnly: readonly string[];
  readonly readable: readonly string[];
} {
  const { repo } = staging;
  const dotGit = path.join(repo.workTree, ".git");
  const readOnly = [...new Set([repo.commonDir, repo.gitDir, dotGit])];
  return { writable: [staging.dir], readOnly, readable: readOnly };
}

/**
 * The shell command that runs `$CLIMPT_SANDBOX_COMMAND` (the model's command, passed in the
 * environment so it is never quoted twice) with the staging directory in place: a nested
 * bubblewrap inside the sandbox, with every capability dropped, that shows the repository's
 * common directory read-only at `view` and the staging directory where git looks. Should a
 * command undo that view, it finds the sandbox's read-only repository beneath.
 */
export function stagingCommand(staging: GitStaging, bwrap: string): string {
  const { repo } = staging;
  const dotGit = path.join(repo.workTree, ".git");
  const binds =
    staging.dotGitFile === null
      ? ["--bind", staging.dir, dotGit]
      : ["--ro-bind", staging.dotGitFile, dotGit];
  const words = [
    bwrap,
    "--bind",
    "/",
    "/",
    "--dev-bind",
    "/dev",
    "/dev",
    "--ro-bind",
    repo.commonDir,
    staging.view,
    ...binds,
    "--unshare-user",
    "--cap-drop",
    "ALL",
    // No --die-with-parent: the sandbox's PID namespace ends with the sandbox, this with it
    // (and bubblewrap 0.8 fails "open /proc/N/ns/ns" with it and --unshare-user in some setups).
    "--unsetenv",
    STAGED_COMMAND_VARIABLE,
    "--",
    "/bin/sh",
    "-c",
  ];
  return `exec ${words.map(shellWord).join(" ")} "$${STAGED_COMMAND_VARIABLE}"`;
}

/** The variable that carries the model's command into `stagingCommand`. */
export const STAGED_COMMAND_VARIABLE = "CLIMPT_SANDBOX_COMMAND";

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
