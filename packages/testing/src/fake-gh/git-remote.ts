import { spawnSync } from "node:child_process";

/** gh prefers these remote names, in this order, over any other. */
const REMOTE_PRIORITY = ["upstream", "github", "origin"];

/** `OWNER/NAME` of a github.com remote URL (https, ssh, scp-like, git), or undefined. */
export function githubRepositoryOf(url: string): string | undefined {
  const match =
    /^(?:https?|git|ssh):\/\/(?:[^@/]+@)?github\.com(?::\d+)?\/([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(
      url,
    ) ?? /^(?:[^@\s]+@)?github\.com:([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(url);
  return match === null ? undefined : `${match[1]}/${match[2]}`;
}

/**
 * The repository gh would act on in `cwd` when neither `--repo` nor `GH_REPO` names one: the
 * github.com remote of the git repository there, `upstream` before `github` before `origin`
 * before the others, as gh sorts them. It runs `git remote -v` in `cwd`, as gh does (so a nested
 * repository decides for the folder it is in). Undefined outside a repository or without a
 * github.com remote; the fake then uses its default repository.
 */
export function repositoryFromGitRemotes(cwd: string): string | undefined {
  const listed = spawnSync("git", ["remote", "-v"], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 10_000,
  });
  if (listed.status !== 0 || typeof listed.stdout !== "string") return undefined;
  const remotes: { name: string; repository: string }[] = [];
  for (const line of listed.stdout.split("\n")) {
    const [name, url] = line.split(/\s+/);
    if (name === undefined || url === undefined) continue;
    const repository = githubRepositoryOf(url);
    if (repository !== undefined) remotes.push({ name, repository });
  }
  const rank = (name: string): number => {
    const index = REMOTE_PRIORITY.indexOf(name);
    return index === -1 ? REMOTE_PRIORITY.length : index;
  };
  remotes.sort((a, b) => rank(a.name) - rank(b.name));
  return remotes[0]?.repository;
}
