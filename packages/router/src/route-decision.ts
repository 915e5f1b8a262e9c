import type { GateIntent, JsonValue, StepVia } from "@climpt/model";
import type { RouterState } from "./router-state.ts";

// `StepVia` lives in @climpt/model (the journal's `route` events carry it); re-exported by name.
export type { StepVia } from "@climpt/model";

/** Run `stepId` next, as iteration `state.iteration` (the same id for a repeat). */
export interface StepDecision {
  readonly kind: "step";
  readonly stepId: string;
  readonly via: StepVia;
  readonly state: RouterState;
  readonly reason?: string;
}

/**
 * A closure step emitted `closing`: start the completion chain for `stepId`. The router does not
 * decide that the run is done; the chain does. On a failed validation, continue with
 * `returnAfterFailedValidation`.
 */
export interface ClosingDecision {
  readonly kind: "closing";
  readonly stepId: string;
  readonly state: RouterState;
  readonly reason?: string;
}

/**
 * A check-dialect step passed its check with `onPass: {complete: true}`: like `closing`, this
 * starts the completion chain; it is not yet success.
 */
export interface CompleteDecision {
  readonly kind: "complete";
  readonly stepId: string;
  readonly state: RouterState;
  readonly message?: string;
}

/** The model chose `abort`: the run ends as a failure with `AGENT_ABORTED`, never as success. */
export interface AbortDecision {
  readonly kind: "abort";
  readonly code: "AGENT_ABORTED";
  readonly stepId: string;
  readonly reason: string;
  readonly state: RouterState;
}

export type RouteDecision = StepDecision | ClosingDecision | CompleteDecision | AbortDecision;

/** Check dialect: after an execution, either run the check now or run the step again first. */
export interface RunCheckDecision {
  readonly kind: "check";
  readonly stepId: string;
  readonly state: RouterState;
}

export type BeforeCheckDecision = RunCheckDecision | StepDecision;

/**
 * What `route` needs from a gate interpretation. `GateInterpretation` from
 * `@climpt/gate-interpreter` fits as is; a custom runner can build one by hand.
 */
export interface RouteInput {
  readonly intent: GateIntent;
  /** The jump target the model named (`targetField`). */
  readonly target?: string;
  /** This execution's handoff by short key: looked up first by conditional transitions. */
  readonly handoff?: Readonly<Record<string, JsonValue>>;
  /** This execution's handoff by full dot path. */
  readonly handoffPaths?: Readonly<Record<string, JsonValue>>;
  readonly reason?: string;
}

/** Per-call input of `route` beside the interpretation. */
export interface RouteOptions {
  /**
   * The handoff accumulated over the run so far, flattened to key → latest value. A
   * conditional transition looks here when the current execution did not hand the key off.
   */
  readonly handoff?: Readonly<Record<string, JsonValue>>;
}
