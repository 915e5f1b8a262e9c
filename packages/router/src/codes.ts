/**
 * The codes the router reports (a thrown `RouterError` or a `Result`'s problem), with their
 * meaning. docs/codes.md, the catalogue of every package's codes, is generated from this table.
 */
export const ROUTER_CODES = {
  /**
   * Example: `Step "initial.issue" chose abort: the issue is a duplicate.` Fix: Read the reason;
   * the agent decided it cannot go on.
   */
  AGENT_ABORTED: "A step chose `abort`: the run ends as a failure, never as success.",
  /**
   * Example: `The run reached its iteration cap of 100: iteration 100 ran step "continuation.issue"
   * and the flow would continue at step "continuation.issue".` Fix: Raise `limits.maxIterations` /
   * `--max-iterations` if the flow progresses; otherwise give the looping step a way out.
   */
  AGENT_MAX_ITERATIONS:
    "The next iteration would pass the run-wide iteration cap (the router also throws it for a cap that is not a positive integer).",
  /**
   * Example: `Step "s_c9d4" has executed 1 time(s) in this run, its iterations.max; the flow from
   * step "s_b2c1" would run it again, so the run stops.` Fix: Raise that step's `iterations.max` if
   * the cycle makes progress; otherwise fix what keeps sending the flow back.
   */
  "SR-ITER-001":
    "Check dialect: the flow would run a step that writes `iterations` more often than its `iterations.max` over the whole run (executions by `onFail.retry` aside). Family `AGENT_MAX_ITERATIONS`.",
  /**
   * Example: `Step "initial.issue" emitted "next" but has no transitions.next and no
   * "continuation.issue" step to fall back to.` Fix: Add the transition, or the continuation step.
   */
  "SR-TRANS-003":
    "The step emitted `next` but has no `transitions.next`, and (for `initial.X`) there is no `continuation.X` to fall back to.",
  /**
   * Example: `Step "initial.issue" emitted "handoff" but has no transitions.handoff.` Fix: Add
   * `"handoff": { "target": "closure.<domain>" }`.
   */
  "SR-TRANS-004": "The step emitted `handoff` but has no `transitions.handoff`.",
  /**
   * Example: `Step "continuation.issue" has transitions.handoff.target: null, but a null (terminal)
   * target is only allowed for "closing" on a closure step.` Fix: Point it at the closure step the
   * work hands over to.
   */
  "SR-TRANS-005": "`transitions.handoff.target` is `null`: handoff must move to a step.",
  /**
   * Example: `Step "continuation.issue" emitted "handoff" to "closure.isue" (transitions.handoff),
   * which does not exist in the registry.` Fix: Add the step or change the target.
   */
  "SR-TRANS-006": "The `handoff` target is not a step.",
  /**
   * Example: `Step "verification.check" emitted "escalate" but has no transitions.escalate: …` Fix:
   * Add `"escalate": { "target": "<verification support step>" }`.
   */
  "SR-TRANS-007":
    "The step emitted `escalate` but has no `transitions.escalate` (escalation only goes to a declared support step).",
  /**
   * Example: `Step "verification.check" emitted "escalate" to "verification.suport"
   * (transitions.escalate), which does not exist in the registry.` Fix: Add the step or change the
   * target.
   */
  "SR-TRANS-008": "The `escalate` target is not a step.",
  /**
   * Example: `Step "verification.check" has transitions.escalate.target: null, but a null
   * (terminal) target is only allowed for "closing" on a closure step.` Fix: Set it to a
   * verification support step.
   */
  "SR-TRANS-009": "`transitions.escalate.target` is `null`.",
  /**
   * Example: `Step "initial.issue" emitted "jump" to "review" (the model's jump target
   * (structuredGate.targetField "next_action.details.target")), which does not exist in the
   * registry.` Fix: List the valid step ids in the prompt and constrain the target field with an
   * enum of them.
   */
  "SR-TRANS-010":
    "The `jump` target (the model's, or `transitions.jump`) is not a step; inherited names such as `constructor` are not steps.",
  /**
   * Example: `Step "initial.issue" returned "jump" without a target step id at
   * "next_action.details.target".` Fix: Declare `structuredGate.targetField` and require it for
   * `jump` in the schema, or add a `transitions.jump` target.
   */
  "SR-TRANS-011":
    "`jump` without any target: none at `targetField` and no `transitions.jump` (from the gate: family `GATE_INTERPRETATION_ERROR`).",
  /**
   * Example: `Step "initial.issue" emitted "next" and its conditional transition found "blocked",
   * which matches none of targets ["ready"] and there is no "default".` Fix: Add a `default`
   * target, or hand off one of the listed values.
   */
  "SR-TRANS-014":
    "A conditional transition found a value that matches none of its `targets`, and there is no `default`.",
  /**
   * Example: `Closure step "closure.issue" emitted "closing" but has no transitions.closing.` Fix:
   * Add `"closing": { "target": null }`.
   */
  "SR-TRANS-016": "A closure step emitted `closing` but has no `transitions.closing`.",
  /**
   * Example: `The router state is at step "continuation.old", which the registry does not define.`
   * Fix: Resume only with the registry the run started with.
   */
  "SR-TRANS-017":
    "The router state is at a step the registry does not define (a run resumed with another registry).",
  /**
   * Example: `Step "s_a1" has no check, so nothing says where the flow goes after it.` Fix: Add
   * `"check": { "onPass": { "next": "<step id>" } }` (or `{ "complete": true }`).
   */
  "SR-TRANS-018":
    "Check dialect: the step has no `check`, so nothing says where the flow goes after it.",
  /**
   * Example: `Step "initial.issue" is a work step without an intent: only a closure step may hand
   * its result to the completion chain without saying "closing".` Fix: Give the step a
   * `structuredGate` and transitions, or make it a closure step.
   */
  "SR-TRANS-019":
    "A step without an intent was handed to the completion chain, but it is not a closure step (only a closure step without a gate, or one that runs a program, ends its execution that way).",
} as const;
