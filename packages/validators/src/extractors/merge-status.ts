import { stripAnsi } from "../ansi.ts";
import { pushUnique, splitLines } from "../paths.ts";
import { unmergedFiles } from "./git-status.ts";

export interface MergeStatus {
  /** `true` merged or mergeable, `false` conflicts or refused, `null` the output does not say. */
  readonly mergeable: boolean | null;
  /** Conflicted paths, when the output names them. */
  readonly conflicts: string[];
  /** GitHub's `mergeStateStatus` / `mergeable_state` (`DIRTY`, `CLEAN`, `BLOCKED`, …) if given. */
  readonly status: string | null;
}

function fromJson(text: string): MergeStatus | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null || !("mergeable" in data)) return undefined;
  const record = data as Record<string, unknown>;
  const raw = record.mergeable;
  const mergeable =
    raw === true || raw === "MERGEABLE"
      ? true
      : raw === false || raw === "CONFLICTING"
        ? false
        : null;
  const status = record.mergeStateStatus ?? record.mergeable_state;
  return { mergeable, conflicts: [], status: typeof status === "string" ? status : null };
}

function conflictPath(detail: string): string | undefined {
  const content = /^Merge conflict in (.+)$/.exec(detail);
  if (content) return content[1];
  const deleted = /^(.+?) deleted in \S+ and (?:modified|renamed)/.exec(detail);
  if (deleted) return deleted[1];
  const renamed = /^(.+?) renamed to /.exec(detail);
  if (renamed) return renamed[1];
  return undefined;
}

/**
 * Whether a merge can go through, and which files conflict: from `git merge` output
 * (`CONFLICT (content): Merge conflict in <file>`, `Automatic merge failed`, `Already up to date.`,
 * `Merge made by`, `Fast-forward`), from `git status --porcelain` (v1/v2) during a merge (unmerged
 * entries), from `git diff --name-only --diff-filter=U` (recognised from the command), and from
 * `gh pr view --json mergeable,mergeStateStatus` or the REST pull object (`mergeable`).
 */
export function parseMergeStatus(stdout: string, stderr = "", command?: string): MergeStatus {
  const json = fromJson(stdout);
  if (json) return json;
  const text = stripAnsi(`${stdout}\n${stderr}`);
  const conflicts: string[] = [];
  if (command !== undefined && /--diff-filter=U\b/.test(command)) {
    for (const line of splitLines(stripAnsi(stdout))) pushUnique(conflicts, line.trim());
    return { mergeable: conflicts.length === 0, conflicts, status: null };
  }
  let mergeable: boolean | null = null;
  for (const line of splitLines(text)) {
    const conflict = /^CONFLICT \([^)]+\): (.+)$/.exec(line);
    if (conflict) {
      mergeable = false;
      const path = conflictPath(conflict[1] as string);
      if (path !== undefined) pushUnique(conflicts, path);
      continue;
    }
    if (/^Automatic merge failed/.test(line) || /^(?:error|fatal): .*merg/i.test(line)) {
      mergeable = false;
    } else if (
      mergeable === null &&
      /^(?:Already up to date|Already up-to-date|Merge made by|Fast-forward)/.test(line)
    ) {
      mergeable = true;
    }
  }
  for (const path of unmergedFiles(stdout)) {
    pushUnique(conflicts, path);
    mergeable = false;
  }
  return { mergeable, conflicts, status: null };
}
