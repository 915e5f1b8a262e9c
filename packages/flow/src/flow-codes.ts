import type { Problem } from "@climpt/model";

/**
 * The codes static flow analysis emits. SR-TRANS and SR-INTENT numbers start at 101 so they
 * never collide with the loader's own SR-TRANS / SR-INTENT codes (schema-level checks).
 */
export const FLOW_FINDING_CODES = {
  /**
   * Example: `The registry names no entry step: it has neither entryStep nor entryStepMapping, so
   * no run can start and no step is reachable.` Fix: Add `entryStep` or `entryStepMapping`.
   */
  "SR-FLOW-001": "The registry names no entry step (no entryStep and no entryStepMapping).",
  /**
   * Example: `Entry step names "initial.isue", which is not a step of this registry.` Fix: Name a
   * work step as the entry.
   */
  "SR-FLOW-002": "An entry step names a step that does not exist or is a section step.",
  /**
   * Example: `Step "continuation.old" is not reachable from any entry step, so it never runs.` Fix:
   * Add a transition into it, make it an entry, or remove it.
   */
  "SR-FLOW-003": "A flow step is not reachable from any entry step.",
  /**
   * Example: `From step "continuation.issue" no completion can be reached: no path leads to a
   * closure step's "closing" …` Fix: Route that part of the flow towards a closure step.
   */
  "SR-FLOW-004": "No completion (terminal edge) is reachable from a reachable step.",
  /**
   * Example: `Steps "initial.analyze", "continuation.analyze" form a cycle in which no edge is
   * bounded: only the run-wide iteration cap stops it.` Fix: Bound an edge of the cycle, or declare
   * the run cap you accept (`"limits": { "maxIterations": N }` in agent.json; `climpt validate`
   * then passes `ignore: ["SR-FLOW-005"]`).
   */
  "SR-FLOW-005":
    "A cycle in which no edge carries a bound: only the run-wide iteration cap stops it.",
  /**
   * Example: `Step "closure.issue" reads "plan" of step "initial.issue" through its uvVariables
   * entry "initial_issue_plan", but "initial.issue" hands off no key "plan", so the prompt variable
   * never gets a value.` Fix: Add the key to the writer's handoff, or fix the name.
   */
  "SR-FLOW-006": "A handoff key is read that no step writes.",
  /**
   * Example: `Step "closure.issue" reads "notes" through its uvVariables entry
   * "initial_review_notes", but not every path from the entry into "closure.issue" passes through
   * step "initial.review", …` Fix: Route every path through the writer, or read a key always
   * written before.
   */
  "SR-FLOW-007":
    "A handoff key is read that is not written on every path from the entry into the reader.",
  /**
   * Example: `Transition "next" of step "initial.issue" targets "continuation.isue", which is not a
   * step of this registry.` Fix: Point it at an existing step id.
   */
  "SR-TRANS-101": "A transition targets a step that does not exist.",
  /**
   * Example: `Transition "next" of step "initial.issue" targets "section.context", a section step:
   * sections are prompt fragments with no flow.` Fix: Target a work, verification or closure step.
   */
  "SR-TRANS-102": "A transition targets a section step, which has no flow.",
  /**
   * Example: `Step "continuation.issue" maps intent "handoff" to "target": null, but only "closing"
   * (completion) and "abort" (a failed run) may end the flow.` Fix: Give it a step target.
   */
  "SR-TRANS-103":
    "A `target: null` (terminal) transition on an intent other than `closing` and `abort`.",
  /**
   * Example: `Step "closure.issue" maps "closing" to a step, but closing ends the flow: …` Fix:
   * Write `"closing": { "target": null }`; use `repeat` to go back.
   */
  "SR-TRANS-104": "A `closing` transition with a step target: closing is terminal.",
  /**
   * Example: `Work step "initial.issue" hands off to "continuation.review" (work), from which no
   * closure step can be reached, so the handoff can never lead to completion.` Fix: Point `handoff`
   * at a closure step (or a step leading to one).
   */
  "SR-TRANS-105": "A work step's `handoff` leads nowhere near a closure step.",
  /**
   * Example: `Closure step "closure.issue" repeats into verification step "verification.check"; …`
   * Fix: Repeat into a work step or the closure itself.
   */
  "SR-TRANS-106": "A closure step's `repeat` targets a verification step.",
  /**
   * Example: `Step "verification.check" escalates to "initial.issue", a work step; escalate routes
   * to a verification support step.` Fix: Point it at a verification step.
   */
  "SR-TRANS-107": "An `escalate` transition targets a step that is not a verification step.",
  /**
   * Example: `Work step "initial.report" goes to closure step "closure.facilitation" with "next";
   * …` Fix: Map `handoff` to the closure step and point `next` at a work or verification step.
   */
  "SR-TRANS-108": "A work step's `next` or `jump` targets a closure step (only `handoff` crosses).",
  /**
   * Example: `Step "initial.issue" allows intent "handoff" but declares no transition for it, so
   * the router cannot route it.` Fix: Add the transition or drop the intent.
   */
  "SR-INTENT-101": "An allowed intent has no transition.",
  /**
   * Example: `Step "initial.issue" declares a transition for intent "jump", which its
   * structuredGate.allowedIntents does not allow, so the transition can never be taken.` Fix: Allow
   * the intent or remove the transition.
   */
  "SR-INTENT-102": "A transition for an intent the step's gate does not allow.",
  /**
   * Example: `Step "initial.issue" allows "repeat" but declares no repeat transition; the router
   * keeps it on the same step.` Fix: Declare `"repeat": { "target": … }`.
   */
  "SR-INTENT-103": "`repeat` is allowed but has no transition: the router stays on the step.",
  /**
   * Example: `Step "initial.issue" allows "jump" with a targetField but declares no jump
   * transition, so its targets are chosen at run time …` Fix: Declare the possible targets under
   * `transitions.jump`.
   */
  "SR-INTENT-104":
    "`jump` is allowed with a targetField but no transition: its targets are chosen at run time.",
} as const;

export type FlowFindingCode = keyof typeof FLOW_FINDING_CODES;

/** A flow analysis result: a `Problem` about steps_registry.json, naming the step when there is one. */
export interface FlowFinding extends Problem {
  readonly code: FlowFindingCode;
  readonly stepId?: string;
}
