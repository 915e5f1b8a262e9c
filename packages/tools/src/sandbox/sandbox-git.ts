import { accessSync, constants } from "node:fs";
import path from "node:path";
import {
  findGitLayout,
  type GitLayout,
  runGitOutsideRepository,
  runHostGit,
} from "@climpt/host-git";
import { type GitStaging, prepareGitStaging } from "./git-staging.ts";

/**
 * The repository a sandboxed command works in, when its working directory is in one; null
 * otherwise. A `.git` that leads somewhere `git worktree add` never puts a git directory is
 * treated as no repository (the command still cannot change that `.git`: see gitGuardPaths).
 */
export function repositoryOf(root: string): GitLayout | null {
  try {
    return findGitLayout(root);
  } catch {
    return null;
  }
}

/** The staging git directory for one command in a repository (git-staging.ts). */
export function stageGit(repo: GitLayout, layoutDir: string): GitStaging {
  return prepareGitStaging(repo, layoutDir);
}

/**
 * Every `.git` from the working directory up: read-only inside the sandbox even where no
 * repository was recognised, so a command cannot put one where the host's git would find it.
 */
export function gitGuardPaths(root: string): string[] {
  const found: string[] = [];
  for (let dir = root; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    try {
      accessSync(dotGit);
      found.push(dotGit);
    } catch {
      // none here
    }
    if (path.dirname(dir) === dir) return found;
  }
}

let bwrapFound: string | undefined;

/** bubblewrap's absolute path (on the host's PATH), for the nested sandbox of git-staging.ts. */
export function bwrapPath(pathVariable: string = process.env.PATH ?? ""): string {
  if (bwrapFound !== undefined) return bwrapFound;
  for (const dir of [...pathVariable.split(":"), "/usr/bin", "/bin", "/usr/local/bin"]) {
    if (dir === "") continue;
    const candidate = path.join(dir, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      bwrapFound = candidate;
      return candidate;
    } catch {
      // not here
    }
  }
  return "bwrap";
}

const identityCache = new Map<string, Promise<string>>();

/**
 * The user's git identity (and default branch) as the repository sees it, for the private HOME's
 * `.gitconfig`: read by host git (fixed configuration, explicit directories), outside any
 * repository when there is none.
 */
export function gitIdentity(
  repo: GitLayout | null,
  env: Readonly<Record<string, string>>,
): Promise<string> {
  const key = repo?.gitDir ?? "";
  let cached = identityCache.get(key);
  if (cached === undefined) {
    cached = (async () => {
      const lines: string[] = [];
      for (const [section, name] of [
        ["user", "name"],
        ["user", "email"],
        ["init", "defaultBranch"],
      ] as const) {
        const args = ["config", "--get", `${section}.${name}`];
        const result =
          repo === null
            ? await runGitOutsideRepository(args, { env, timeoutMs: 5000 })
            : await runHostGit(repo, args, { env, timeoutMs: 5000 });
        const value = result.exitCode === 0 ? result.stdout.trim() : "";
        if (value !== "" && !/[\n"\\]/.test(value))
          lines.push(`[${section}]\n\t${name} = "${value}"`);
      }
      return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    })();
    identityCache.set(key, cached);
  }
  return cached;
}
