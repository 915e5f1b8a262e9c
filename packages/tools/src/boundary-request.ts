import type { ClosureAction } from "@climpt/model";

/** How `gh pr merge` merges: `--merge`, `--squash` or `--rebase`. */
export type MergeMethod = "merge" | "squash" | "rebase";

/** gh's `--reason` of `gh issue close`. */
export type CloseReason = "completed" | "not planned";

/**
 * An issue action the model asked for in a closure step, deferred to the boundary hook. The hook
 * runs it once, and only after the closure step said `closing` and the completion chain validated
 * the run; when validation fails the request is simply dropped with the toolbox.
 */
export interface IssueBoundaryRequest {
  readonly action: ClosureAction;
  readonly issue: number;
  readonly labels: { readonly add: readonly string[]; readonly remove: readonly string[] };
  readonly comment?: string;
  readonly reason?: CloseReason;
  /**
   * Lower-case `owner/repo` when the request named a repository (`-R`) the agent declares;
   * absent: the run's own repository.
   */
  readonly repository?: string;
}

/**
 * A pull request merge asked for in a closure step (`gh pr merge N --squash`), deferred to the
 * boundary hook like a close. Label changes of the same pull request asked for after the merge
 * request ride along: the hook applies them after the merge, and not at all when it fails.
 */
export interface MergeBoundaryRequest {
  readonly action: "merge";
  readonly pullRequest: number;
  readonly method: MergeMethod;
  readonly deleteBranch: boolean;
  readonly labels: { readonly add: readonly string[]; readonly remove: readonly string[] };
  readonly repository?: string;
}

export type BoundaryRequest = IssueBoundaryRequest | MergeBoundaryRequest;

interface Pending {
  close: boolean;
  add: Set<string>;
  remove: Set<string>;
  comment: string | undefined;
  reason: CloseReason | undefined;
  merge: { method: MergeMethod; deleteBranch: boolean } | undefined;
}

type Kind = "issue" | "pullRequest";

/** Where a request goes: its repository (absent: the run's own) and number. */
export interface RequestPlace {
  readonly repository?: string | undefined;
}

/**
 * Collects the requests of one step. Calls about the same issue (or pull request) merge into one
 * request: labels accumulate (a later add cancels an earlier remove of the same label and the
 * other way round), any close call makes it a close, the last comment given wins.
 */
export class BoundaryRequestLog {
  private readonly entries = new Map<
    string,
    { kind: Kind; number: number; repository: string | undefined; pending: Pending }
  >();

  editLabels(
    issue: number,
    add: readonly string[],
    remove: readonly string[],
    place: RequestPlace = {},
  ): BoundaryRequest {
    const entry = this.entry("issue", issue, place.repository);
    this.applyLabels(entry.pending, add, remove);
    return this.toRequest(entry);
  }

  close(
    issue: number,
    add: readonly string[],
    remove: readonly string[],
    comment: string | undefined,
    place: RequestPlace & { readonly reason?: CloseReason | undefined } = {},
  ): BoundaryRequest {
    const entry = this.entry("issue", issue, place.repository);
    entry.pending.close = true;
    this.applyLabels(entry.pending, add, remove);
    if (comment !== undefined) entry.pending.comment = comment;
    if (place.reason !== undefined) entry.pending.reason = place.reason;
    return this.toRequest(entry);
  }

  /** A merge of a pull request; a later call's method and branch deletion win. */
  merge(
    pullRequest: number,
    method: MergeMethod,
    deleteBranch: boolean,
    place: RequestPlace = {},
  ): BoundaryRequest {
    const entry = this.entry("pullRequest", pullRequest, place.repository);
    entry.pending.merge = { method, deleteBranch };
    return this.toRequest(entry);
  }

  /** Whether a merge of this pull request is recorded (its label changes then wait for it). */
  mergeRecorded(pullRequest: number, place: RequestPlace = {}): boolean {
    return (
      this.entries.get(keyOf("pullRequest", pullRequest, place.repository))?.pending.merge !==
      undefined
    );
  }

  /** Label changes of a pull request whose merge is recorded: applied after the merge. */
  editPullRequestLabels(
    pullRequest: number,
    add: readonly string[],
    remove: readonly string[],
    place: RequestPlace = {},
  ): BoundaryRequest {
    const entry = this.entry("pullRequest", pullRequest, place.repository);
    this.applyLabels(entry.pending, add, remove);
    return this.toRequest(entry);
  }

  /** Every request, one per issue or pull request, in the order they were first named. */
  requests(): BoundaryRequest[] {
    return [...this.entries.values()]
      .filter((entry) => entry.kind === "issue" || entry.pending.merge !== undefined)
      .map((entry) => this.toRequest(entry));
  }

  private entry(kind: Kind, number: number, repository: string | undefined) {
    const key = keyOf(kind, number, repository);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = {
        kind,
        number,
        repository,
        pending: {
          close: false,
          add: new Set(),
          remove: new Set(),
          comment: undefined,
          reason: undefined,
          merge: undefined,
        },
      };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private applyLabels(pending: Pending, add: readonly string[], remove: readonly string[]): void {
    for (const label of add) {
      pending.remove.delete(label);
      pending.add.add(label);
    }
    for (const label of remove) {
      pending.add.delete(label);
      pending.remove.add(label);
    }
  }

  private toRequest(entry: {
    kind: Kind;
    number: number;
    repository: string | undefined;
    pending: Pending;
  }): BoundaryRequest {
    const { pending } = entry;
    const labels = { add: [...pending.add], remove: [...pending.remove] };
    const repository = entry.repository === undefined ? {} : { repository: entry.repository };
    if (entry.kind === "pullRequest") {
      const merge = pending.merge ?? { method: "merge" as const, deleteBranch: false };
      return {
        action: "merge",
        pullRequest: entry.number,
        method: merge.method,
        deleteBranch: merge.deleteBranch,
        labels,
        ...repository,
      };
    }
    const hasLabels = labels.add.length > 0 || labels.remove.length > 0;
    const action: ClosureAction = pending.close
      ? hasLabels
        ? "label-and-close"
        : "close"
      : "label-only";
    return {
      action,
      issue: entry.number,
      labels,
      ...(pending.comment === undefined ? {} : { comment: pending.comment }),
      ...(pending.reason === undefined ? {} : { reason: pending.reason }),
      ...repository,
    };
  }
}

function keyOf(kind: Kind, number: number, repository: string | undefined): string {
  return `${repository ?? ""}#${kind}#${number}`;
}

/** One line for the model and for logs: `close issue #12 (+done, -in-progress) with a comment`. */
export function describeBoundaryRequest(request: BoundaryRequest): string {
  const labels = [
    ...request.labels.add.map((label) => `+${label}`),
    ...request.labels.remove.map((label) => `-${label}`),
  ];
  const labelPart = labels.length > 0 ? ` (${labels.join(", ")})` : "";
  const where = request.repository === undefined ? "" : ` of ${request.repository}`;
  if (request.action === "merge") {
    const how = `${request.method}${request.deleteBranch ? ", deleting the branch" : ""}`;
    const then = labels.length > 0 ? `, then change its labels${labelPart}` : "";
    return `merge pull request #${request.pullRequest}${where} (${how})${then}`;
  }
  const verb =
    request.action === "label-only"
      ? `change labels of issue #${request.issue}${where}`
      : request.action === "close"
        ? `close issue #${request.issue}${where}`
        : `change labels of and close issue #${request.issue}${where}`;
  const reasonPart = request.reason === undefined ? "" : ` as ${request.reason}`;
  const commentPart = request.comment === undefined ? "" : " with a closing comment";
  return `${verb}${labelPart}${reasonPart}${commentPart}`;
}
