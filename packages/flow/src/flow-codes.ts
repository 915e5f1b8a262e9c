import type { Problem } from "@climpt/model";

/**
 * The codes static flow analysis emits. SR-TRANS and SR-INTENT numbers start at 101 so they
 * never collide with the loader's own SR-TRANS / SR-INTENT codes (schema-level checks).
 */
export const FLOW_FINDING_CODES = {
  "SR-FLOW-001": "The registry names no entry step (no entryStep and no entryStepMapping).",
  "SR-FLOW-002": "An entry step names a step that does not exist or is a section step.",
  "SR-FLOW-003": "A flow step is not reachable from any entry step.",
  "SR-FLOW-004": "No completion (terminal edge) is reachable from a reachable step.",
  "SR-FLOW-005":
    "A cycle in which no edge carries a bound: only the run-wide iteration cap stops it.",
  "SR-FLOW-006": "A handoff key is read that no step writes.",
  "SR-FLOW-007":
    "A handoff key is read that is not written on every path from the entry into the reader.",
  "SR-TRANS-101": "A transition targets a step that does not exist.",
  "SR-TRANS-102": "A transition targets a section step, which has no flow.",
  "SR-TRANS-103":
    "A `target: null` (terminal) transition on an intent other than `closing` and `abort`.",
  "SR-TRANS-104": "A `closing` transition with a step target: closing is terminal.",
  "SR-TRANS-105": "A work step's `handoff` leads nowhere near a closure step.",
  "SR-TRANS-106": "A closure step's `repeat` targets a verification step.",
  "SR-TRANS-107": "An `escalate` transition targets a step that is not a verification step.",
  "SR-TRANS-108": "A work step's `next` or `jump` targets a closure step (only `handoff` crosses).",
  "SR-INTENT-101": "An allowed intent has no transition.",
  "SR-INTENT-102": "A transition for an intent the step's gate does not allow.",
  "SR-INTENT-103": "`repeat` is allowed but has no transition: the router stays on the step.",
  "SR-INTENT-104":
    "`jump` is allowed with a targetField but no transition: its targets are chosen at run time.",
} as const;

export type FlowFindingCode = keyof typeof FLOW_FINDING_CODES;

/** A flow analysis result: a `Problem` about steps_registry.json, naming the step when there is one. */
export interface FlowFinding extends Problem {
  readonly code: FlowFindingCode;
  readonly stepId?: string;
}
