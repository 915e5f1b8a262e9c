import { findGitLayout, type GitLayout, runHostGit } from "@climpt/host-git";
import type { ExtractorInput } from "./types.ts";

/** A diff in a retry prompt is context, not the whole change: this many characters at most. */
export const DEFAULT_DIFF_CAP_CHARS = 32_000;

const GIT_TIMEOUT_MS = 30_000;

/** Whether the text is (or contains) a unified diff. */
export function looksLikeDiff(text: string): boolean {
  return /^diff --git /m.test(text) || /^--- \S.*\n\+\+\+ \S/m.test(text) || /^@@ -\d/m.test(text);
}

/**
 * The diff cut at a line boundary to at most `cap` characters, with a last line saying how much
 * was left out, so the model knows it is not seeing everything.
 */
export function capDiff(diff: string, cap: number = DEFAULT_DIFF_CAP_CHARS): string {
  if (diff.length <= cap) return diff;
  const cut = diff.lastIndexOf("\n", cap);
  const kept = diff.slice(0, cut > 0 ? cut + 1 : cap);
  return `${kept}[diff truncated: ${diff.length - kept.length} more characters]\n`;
}

/**
 * The repository of the working directory, read from the file system (a `commondir` in a `.git`
 * directory is not followed; a linked worktree must sit under its repository's `worktrees`):
 * null outside one, or where `.git` leads somewhere git would not put it.
 */
function repositoryOf(cwd: string): GitLayout | null {
  try {
    return findGitLayout(cwd);
  } catch {
    return null;
  }
}

/**
 * Host git with the fixed configuration of @climpt/host-git: the model wrote this working tree,
 * so nothing in it (an fsmonitor, a hook, an external diff, a submodule's config) may run here.
 */
async function git(
  repo: GitLayout,
  args: readonly string[],
  input: ExtractorInput,
): Promise<string | undefined> {
  const result = await runHostGit(repo, args, {
    cwd: input.cwd,
    timeoutMs: GIT_TIMEOUT_MS,
    ...(input.env === undefined ? {} : { env: input.env }),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  return result.exitCode === 0 ? result.stdout : undefined;
}

/**
 * A capped diff for a retry prompt. When the validator's own stdout is a diff (`git diff …`),
 * that is used; otherwise `git diff HEAD` runs in the working directory (staged and unstaged
 * changes to tracked files; in a repository without commits, `git diff --cached` and `git diff`).
 * Untracked files are not in it: parseUntrackedFiles lists them. Outside a repository: `""`.
 */
export async function generateDiff(input: ExtractorInput): Promise<string> {
  if (looksLikeDiff(input.stdout)) return capDiff(`${input.stdout.trimEnd()}\n`);
  const repo = repositoryOf(input.cwd);
  if (repo === null) return "";
  const head = await git(repo, ["diff", "--no-color", "--no-ext-diff", "HEAD"], input);
  if (head !== undefined) return head === "" ? "" : capDiff(`${head}\n`);
  const staged = await git(repo, ["diff", "--no-color", "--no-ext-diff", "--cached"], input);
  const unstaged = await git(repo, ["diff", "--no-color", "--no-ext-diff"], input);
  const both = [staged, unstaged].filter(
    (part): part is string => part !== undefined && part !== "",
  );
  return both.length === 0 ? "" : capDiff(`${both.join("\n")}\n`);
}
