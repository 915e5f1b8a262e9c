/**
 * Branch names as `git check-ref-format --branch` accepts them, checked without running git: the
 * sandbox's push broker (@climpt/tools) reads them from what the model asked for, and the loader
 * (@climpt/registry-schema) from the branches an agent declares it may push.
 */

const MAX_BRANCH_CHARS = 255;

/** Whether `name` is a valid branch name (`refs/heads/<name>` a valid ref). */
export function isBranchName(name: string): boolean {
  if (name === "" || name.length > MAX_BRANCH_CHARS || name === "@" || name === "HEAD")
    return false;
  if (name.startsWith("-") || name.startsWith("/") || name.endsWith("/")) return false;
  if (name.endsWith(".") || name.includes("..") || name.includes("//") || name.includes("@{")) {
    return false;
  }
  // Control characters and space, and the characters refs reserve for revision syntax and globs.
  for (const char of name) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  if (/[~^:?*[\\]/.test(name)) return false;
  return name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"));
}

/**
 * A declared branch: a branch name, or `<prefix>/*` for every branch under a prefix (`docs/*`
 * covers `docs/a` and `docs/a/b`, not `docs`).
 */
export function isBranchPattern(entry: string): boolean {
  return entry.endsWith("/*") ? isBranchName(entry.slice(0, -2)) : isBranchName(entry);
}

/** Whether `branch` is `entry`, or lies under the prefix of a `<prefix>/*` entry. */
export function branchMatches(entry: string, branch: string): boolean {
  return entry.endsWith("/*") ? branch.startsWith(entry.slice(0, -1)) : entry === branch;
}
