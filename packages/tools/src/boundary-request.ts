import type { ClosureAction } from "@climpt/model";

/**
 * A GitHub action the model asked for in a closure step, deferred to the boundary hook. The hook
 * runs it once, and only after the closure step said `closing` and the completion chain validated
 * the run; when validation fails the request is simply dropped with the toolbox.
 */
export interface BoundaryRequest {
  readonly action: ClosureAction;
  readonly issue: number;
  readonly labels: { readonly add: readonly string[]; readonly remove: readonly string[] };
  readonly comment?: string;
}

interface PendingIssue {
  close: boolean;
  add: Set<string>;
  remove: Set<string>;
  comment: string | undefined;
}

/**
 * Collects the requests of one step. Calls about the same issue merge into one request: labels
 * accumulate (a later add cancels an earlier remove of the same label and the other way round),
 * any close call makes it a close, the last comment given wins.
 */
export class BoundaryRequestLog {
  private readonly issues = new Map<number, PendingIssue>();

  editLabels(issue: number, add: readonly string[], remove: readonly string[]): BoundaryRequest {
    const pending = this.pending(issue);
    this.applyLabels(pending, add, remove);
    return this.toRequest(issue, pending);
  }

  close(
    issue: number,
    add: readonly string[],
    remove: readonly string[],
    comment: string | undefined,
  ): BoundaryRequest {
    const pending = this.pending(issue);
    pending.close = true;
    this.applyLabels(pending, add, remove);
    if (comment !== undefined) pending.comment = comment;
    return this.toRequest(issue, pending);
  }

  /** Every request, one per issue, in the order the issues were first named. */
  requests(): BoundaryRequest[] {
    return [...this.issues].map(([issue, pending]) => this.toRequest(issue, pending));
  }

  private pending(issue: number): PendingIssue {
    let pending = this.issues.get(issue);
    if (pending === undefined) {
      pending = { close: false, add: new Set(), remove: new Set(), comment: undefined };
      this.issues.set(issue, pending);
    }
    return pending;
  }

  private applyLabels(
    pending: PendingIssue,
    add: readonly string[],
    remove: readonly string[],
  ): void {
    for (const label of add) {
      pending.remove.delete(label);
      pending.add.add(label);
    }
    for (const label of remove) {
      pending.add.delete(label);
      pending.remove.add(label);
    }
  }

  private toRequest(issue: number, pending: PendingIssue): BoundaryRequest {
    const hasLabels = pending.add.size > 0 || pending.remove.size > 0;
    const action: ClosureAction = pending.close
      ? hasLabels
        ? "label-and-close"
        : "close"
      : "label-only";
    return {
      action,
      issue,
      labels: { add: [...pending.add], remove: [...pending.remove] },
      ...(pending.comment === undefined ? {} : { comment: pending.comment }),
    };
  }
}

/** One line for the model and for logs: `close issue #12 (+done, -in-progress) with a comment`. */
export function describeBoundaryRequest(request: BoundaryRequest): string {
  const verb =
    request.action === "label-only"
      ? `change labels of issue #${request.issue}`
      : request.action === "close"
        ? `close issue #${request.issue}`
        : `change labels of and close issue #${request.issue}`;
  const labels = [
    ...request.labels.add.map((label) => `+${label}`),
    ...request.labels.remove.map((label) => `-${label}`),
  ];
  const labelPart = labels.length > 0 ? ` (${labels.join(", ")})` : "";
  const commentPart = request.comment === undefined ? "" : " with a closing comment";
  return `${verb}${labelPart}${commentPart}`;
}
