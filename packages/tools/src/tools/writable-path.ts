import { TOOL_CODES } from "../codes.ts";
import { type ConfinedPath, confinePath, isInGitDir, type WorkingRoot } from "../confine-path.ts";
import { protectedPathOf, type ResolvedProtectedPath } from "../protected-paths.ts";

/**
 * A path Write or Edit may change: confined to the working directory, outside `.git`, and outside
 * the protected paths (the run's journal folder, the agent definitions), checked on the real path
 * so a link into one of them is refused as well.
 */
export function writablePath(
  root: WorkingRoot,
  input: string,
  protectedPaths: readonly ResolvedProtectedPath[] = [],
): Extract<ConfinedPath, { ok: true }> | { ok: false; code: string; reason: string } {
  const target = confinePath(root, input);
  if (!target.ok) return { ok: false, code: TOOL_CODES.pathOutside, reason: target.reason };
  if (isInGitDir(target.relative)) {
    return {
      ok: false,
      code: TOOL_CODES.pathOutside,
      reason: `"${input}" is inside .git; file tools do not change the repository's internals (hooks and config could run anything). Use git commands through Bash.`,
    };
  }
  const guarded = protectedPathOf(protectedPaths, target.real);
  if (guarded !== undefined) {
    return {
      ok: false,
      code: TOOL_CODES.pathOutside,
      reason: `"${input}" is inside ${guarded.relative === "." ? "the working directory" : guarded.relative}, which no tool of this run may change: ${guarded.reason}`,
    };
  }
  return target;
}
