import { TOOL_CODES } from "../codes.ts";
import { type ConfinedPath, confinePath, isInGitDir, type WorkingRoot } from "../confine-path.ts";

/** A path Write or Edit may change: confined to the working directory and outside `.git`. */
export function writablePath(
  root: WorkingRoot,
  input: string,
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
  return target;
}
