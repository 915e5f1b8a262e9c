import type { GateIntent, JsonValue } from "@climpt/model";

/** What a step's structured output says about where the flow goes next. */
export interface GateInterpretation {
  /** One of the seven intents, after alias mapping (or the step's fallbackIntent). */
  readonly intent: GateIntent;
  /** The step id a `jump` names through `targetField`. Only set for `jump`. */
  readonly target?: string;
  /**
   * `handoffFields` values by short key (`analysis.understanding` → `understanding`): the `<key>`
   * of `uv-<step>_<key>`. A field the output lacks is absent, not an error.
   */
  readonly handoff: Readonly<Record<string, JsonValue>>;
  /** The same values by the full dot path as declared in `handoffFields`. */
  readonly handoffPaths: Readonly<Record<string, JsonValue>>;
  /**
   * The model's own `reason`, read from the object that holds the intent field
   * (`next_action.reason` for `next_action.action`); when the fallback intent was used and the
   * model gave none, why the fallback was needed.
   */
  readonly reason?: string;
  /** True when the intent is the step's `fallbackIntent` (failFast: false), not the model's. */
  readonly usedFallback: boolean;
  /** The value found at `intentField` as written (non-strings as JSON), when there was one. */
  readonly rawIntent?: string;
}

export interface InterpretGateOptions {
  /** The run-wide iteration this output belongs to (1 for the run's first model call). */
  readonly iteration: number;
}
