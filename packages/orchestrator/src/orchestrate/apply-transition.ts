import type { OrchestratorError } from "../codes.ts";
import type { GhClient, GhIssue, GhIssueDetail } from "../github/gh-client.ts";
import {
  applyLabelChange,
  isEmptyChange,
  type LabelChange,
} from "../phase-machine/label-changes.ts";
import type { PendingTransition } from "../state/issue-record.ts";
import { lockLostProblem } from "../state/lock-lost.ts";

export interface AppliedTransition {
  readonly commented: boolean;
  readonly relabelled: boolean;
  readonly closed: boolean;
  /** The issue as the transition left it (its labels and state after the calls above). */
  readonly issue: GhIssue;
}

/**
 * Applies a decided transition on GitHub, so that doing it again is harmless: a pass that
 * crashed half-way finishes it on the next pass without doubling anything.
 *
 * 1. The comment first, unless a comment with its marker is already on the issue: it is the
 *    only step that cannot be undone, and the marker makes it happen once.
 * 2. The labels in one `gh issue edit` (add and remove together), reduced to what the issue
 *    does not have yet: the issue is never without a phase label, and a failed edit leaves it
 *    in its old phase, where the next pass finds the pending transition and tries again.
 * 3. Close last, only an open issue, once its labels say the workflow is done.
 *
 * `holds` is asked right before each of those writes: an orchestrator that no longer holds the
 * issue's lock (another worker took it) writes nothing more (`ORC-STATE-003`); the holder that
 * took the issue finds the transition pending in the record and finishes it.
 *
 * `current`: the issue as this pass read it moments ago (`FRESH_ISSUE_READ_MS`), for a transition
 * decided in this pass — nothing of it can be on GitHub yet, so the read is not made again (one
 * `gh` process less per transition). Without it (finishing a transition a crashed pass left),
 * the issue is read here.
 */
export async function applyTransition(
  gh: GhClient,
  issue: number,
  transition: PendingTransition,
  holds: () => Promise<boolean> = async () => true,
  current?: GhIssueDetail,
): Promise<{ ok: true; value: AppliedTransition } | { ok: false; error: OrchestratorError }> {
  const lost = { ok: false as const, error: lockLostProblem(issue, "before a change on GitHub") };
  const view =
    current === undefined ? await gh.viewIssue(issue) : { ok: true as const, value: current };
  if (!view.ok) return view;
  let commented = false;
  if (transition.comment !== null) {
    const marker = transition.marker;
    const posted =
      marker !== null && view.value.comments.some((comment) => comment.body.includes(marker));
    if (!posted) {
      if (!(await holds())) return lost;
      const done = await gh.comment(issue, transition.comment);
      if (!done.ok) return done;
      commented = true;
    }
  }
  const have = view.value.labels.map((label) => label.toLowerCase());
  const change: LabelChange = {
    add: transition.add.filter((label) => !have.includes(label.toLowerCase())),
    remove: transition.remove.filter((label) => have.includes(label.toLowerCase())),
  };
  const relabelled = !isEmptyChange(change);
  if (relabelled) {
    if (!(await holds())) return lost;
    const done = await gh.editLabels(issue, change);
    if (!done.ok) return done;
  }
  let closed = false;
  if (transition.close && view.value.state === "OPEN") {
    if (!(await holds())) return lost;
    const done = await gh.close(issue);
    if (!done.ok) return done;
    closed = true;
  }
  const issueAfter: GhIssue = {
    ...view.value,
    labels: applyLabelChange(view.value.labels, change),
    state: closed ? "CLOSED" : view.value.state,
  };
  return { ok: true, value: { commented, relabelled, closed, issue: issueAfter } };
}
