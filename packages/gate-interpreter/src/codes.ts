/**
 * The codes and families the gate interpreter reports, with their meaning. docs/codes.md, the
 * catalogue of every package's codes, is generated from this table.
 */
export const GATE_CODES = {
  /**
   * Example: `Step "continuation.issue" returned no intent at "next_action.action" on iteration 4;
   * the run stops instead of guessing where to go (fail-fast).` (code `SR-INTENT-007`, family
   * `FAILED_STEP_ROUTING`) Fix: Make the intent field required in the step's output schema and name
   * its values in the prompt; otherwise resume with the registry the run started with, or report
   * the bug.
   */
  FAILED_STEP_ROUTING:
    "A step's structured output has no intent on an iteration after the first (the family of `SR-INTENT-007`); the step the run is at does not exist (runner); the router was called out of order (a runner bug). Other routing failures end the run with the router's own code (`SR-TRANS-*`, `SR-INTENT-*`).",
  /**
   * Example: `Step "initial.issue" returned "finish" at "next_action.action", which is not an
   * intent. …` (code `SR-INTENT-002`) Fix: See the detail code's row.
   */
  GATE_INTERPRETATION_ERROR:
    "The family of the problems the gate finds when it cannot interpret a step's output: `SR-INTENT-001`, `-002`, `-007` (iteration 1), `SR-TRANS-011`, `SR-GATE-005`, `-006`. The problem's `code` is the specific code and `family` this name; so is a failed run's `error`.",
  /**
   * Example: `Step "section.context" (section) has no structuredGate, so its output has no intent
   * to read.` Fix: Route check-dialect steps with their check; give flow steps a gate.
   */
  "SR-GATE-005":
    "`interpretGate` was asked about a step without `structuredGate` (a check-dialect or section step); family `GATE_INTERPRETATION_ERROR`.",
  /**
   * Example: `Step "initial.issue" fell back to fallbackIntent "closing" (…), but "closing" is not
   * allowed for this work step.` Fix: Choose a `fallbackIntent` the step kind and `allowedIntents`
   * allow (the loader checks this as `SR-INTENT-001` / `-006`).
   */
  "SR-GATE-006":
    "The gate fell back to `fallbackIntent` (`failFast: false`), but that intent is not allowed for the step; family `GATE_INTERPRETATION_ERROR`.",
  /**
   * Example: Have the prompt ask for one JSON object, e.g. `{"result": "ok", "message": "…"}`.
   */
  "SR-GATE-007":
    '`coerceJsonObject`: an output that is not a JSON object, a JSON string of one, or a text with a ```` ```json ```` fence holding one. A check-dialect check reads this as a failed check (its message says why), not as an error. | `The output is not JSON and has no ```json fence holding a JSON object: "looks fine to me".`',
  /**
   * Example: `Step "initial.issue" returned no intent at "next_action.action" on iteration 1; the
   * run stops instead of guessing where to go (fail-fast).` Fix: Make the field required in the
   * output schema with an enum of the allowed intents; correct `intentField` if the intent lives
   * elsewhere.
   */
  "SR-INTENT-007":
    "The output has no intent at `intentField` (missing, empty or `null`); family `GATE_INTERPRETATION_ERROR` on iteration 1, `FAILED_STEP_ROUTING` later.",
} as const;
