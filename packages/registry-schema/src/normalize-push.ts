/**
 * agent.json `runner.boundaries.push` (flat shape: `behavior.push`) → `AgentPush`: the branches
 * `git push` inside the sandbox may push besides the run's own, or `"off"`. The shape is checked
 * by the field reader with the valibot schema; this checks that each declared branch is a branch
 * name or `<prefix>/*` (AC-PUSH-001), so a typo fails at `climpt validate` instead of as a push
 * the broker refuses mid-run (docs/design.md#tools-and-their-boundary).
 */

import { type AgentPush, isBranchPattern, jsonPath } from "@climpt/model";
import type { RawPush } from "./agent-file-schema.ts";
import { describeValue, type Findings, report } from "./field-reader.ts";

/** The push setting as written, and the JSON path it was written at. */
export interface WrittenPush {
  readonly value: RawPush;
  readonly path: string;
}

/** The push section of a shape's sections, when the file has one. */
export function writtenPush(value: RawPush | undefined, path: string): { push?: WrittenPush } {
  return value === undefined ? {} : { push: { value, path } };
}

/**
 * The normalized push setting, as the `push` entry of the definition; nothing when the file has
 * none (the default: the run's branch only). A bad entry is reported and left out.
 */
export function normalizePush(
  written: WrittenPush | undefined,
  findings: Findings,
): { push?: AgentPush } {
  if (written === undefined) return {};
  if (written.value === "off") return { push: { enabled: false, branches: [] } };
  const branchesPath = `${written.path}.branches`;
  const branches: string[] = [];
  (written.value.branches ?? []).forEach((entry, index) => {
    if (isBranchPattern(entry)) {
      if (!branches.includes(entry)) branches.push(entry);
      return;
    }
    report(
      findings,
      "AC-PUSH-001",
      jsonPath(branchesPath, index),
      `Declared branch ${describeValue(entry)} is neither a branch name nor "<prefix>/*".`,
      'Write a branch name as git takes it ("gh-pages", "release/next"), or a prefix followed by "/*" for every branch under it ("docs/*"). No spaces, "..", "~^:?[\\\\", "@{" or a leading "-".',
    );
  });
  return { push: { enabled: true, branches } };
}
