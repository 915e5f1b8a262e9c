import type { ClosureAction, JsonValue } from "@climpt/model";

/**
 * An issue action the closure step asked for through a tool or `gh issue close`. Tools never act
 * on GitHub themselves (docs/design.md#the-boundary-hook): they record requests, and the boundary
 * hook carries them out after validated completion, on the run's own issue only unless agent.json
 * declares more (`integrations.github.targets`).
 */
export interface IssueBoundaryRequest {
  readonly action: ClosureAction;
  /** The issue; default the closure output's `issue.number`, else the `issue` parameter. */
  readonly issue?: number | string;
  readonly labels?: {
    readonly add?: readonly string[];
    readonly remove?: readonly string[];
  };
  /** The comment `gh issue close` posts. */
  readonly comment?: string;
  /** `gh issue close --reason`. */
  readonly reason?: "completed" | "not planned";
  /** Lower-case `owner/repo` of a repository agent.json declares; absent: the run's own. */
  readonly repository?: string;
}

/** A pull request merge a closure step asked for (`gh pr merge N --squash`), and labels after it. */
export interface MergeBoundaryRequest {
  readonly action: "merge";
  readonly pullRequest: number | string;
  readonly method: "merge" | "squash" | "rebase";
  readonly deleteBranch?: boolean;
  /** Label changes of the pull request, made after the merge succeeded. */
  readonly labels?: {
    readonly add?: readonly string[];
    readonly remove?: readonly string[];
  };
  readonly repository?: string;
}

/** A boundary action the closure step asked for, deferred to the boundary hook. */
export type BoundaryRequest = IssueBoundaryRequest | MergeBoundaryRequest;

export const CLOSURE_ACTIONS: readonly ClosureAction[] = ["close", "label-only", "label-and-close"];

export function isClosureAction(value: unknown): value is ClosureAction {
  return typeof value === "string" && (CLOSURE_ACTIONS as readonly string[]).includes(value);
}

/** Whether an action ends with the issue closed. */
export function closesIssue(action: ClosureAction): boolean {
  return action === "close" || action === "label-and-close";
}

type JsonRecord = { readonly [key: string]: JsonValue };

export function asRecord(value: JsonValue | undefined): JsonRecord | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as JsonRecord)
    : undefined;
}

/** The string entries of a JSON array (others ignored); `[]` for anything else. */
export function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : [];
}
