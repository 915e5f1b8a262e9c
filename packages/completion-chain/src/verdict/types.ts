import type { AgentDefinition, JsonValue, StepKind } from "@climpt/model";
import type { BoundaryRequest } from "../boundary/boundary-request.ts";
import type { CommandRunner } from "../command-runner.ts";
import type { ValidationSummary } from "../validation/validation-summary.ts";

/** One finished iteration, as the runner reports it to the verdict (every iteration). */
export interface IterationRecord {
  readonly iteration: number;
  readonly stepId: string;
  readonly stepKind: StepKind;
  readonly intent?: string | undefined;
  /** The step's structured output (`null` when there was none). */
  readonly output: JsonValue;
  /** The model's final text. */
  readonly text: string;
  /**
   * Present when this record reports a check-dialect status check (a check prompt)
   * rather than a step execution: `count:check` counts these.
   */
  readonly check?: { readonly passed: boolean; readonly message?: string | undefined } | undefined;
}

/** What `afterIteration` sees: the iteration that just finished. */
export interface AfterIterationContext {
  readonly iteration: number;
  readonly stepId: string;
  readonly stepKind: StepKind;
  readonly intent?: string | undefined;
}

/** Which prompt the UV variables are for. */
export interface UvContext {
  /** The iteration whose prompt is being resolved. */
  readonly iteration: number;
}

/** A budget asking the runner to go to the closure step now. */
export interface AfterIterationAnswer {
  readonly enterClosure?: boolean;
  readonly reason?: string;
}

/** What `decide` sees: the closure step's result after validation passed (or was skipped). */
export interface DecideContext {
  readonly closureStepId: string;
  /**
   * True when the closure step said `closing` (or a check-dialect step completed). False when
   * the closure step carries no intent at all: a closure step without a gate, or one that runs a
   * program; then the verdict alone decides whether the job is done, as it does when asked
   * after every such execution (docs/design.md#verdicts).
   */
  readonly closing: boolean;
  readonly closureOutput: JsonValue;
  readonly closureText: string;
  readonly validation: ValidationSummary;
  /** Boundary actions the closure step's tools asked for (to be carried out by the hook). */
  readonly boundaryRequests: readonly BoundaryRequest[];
  readonly iteration: number;
  readonly signal?: AbortSignal | undefined;
}

export interface VerdictDecision {
  readonly done: boolean;
  readonly reason: string;
  /** When not done: what the model should do differently, for the retry prompt. */
  readonly retryHint?: string;
  /**
   * Done, but only once the boundary hook has acted (`poll:state` when the hook's close puts
   * the issue into the target state). The runner should call `confirmAfterBoundary` after the
   * hook.
   */
  readonly awaitsBoundary?: boolean;
}

/**
 * A completion strategy (the original runtime's CompletionHandler). The built-in eight and every
 * `meta:custom` module implement this. The runner feeds `observe` every iteration, asks
 * `afterIteration` whether a budget forces the closure step, and merges `uvVariables()` into
 * the prompt's channel 3. The completion chain calls `decide` only after a closure step's
 * `closing` passed validation (docs/design.md#verdicts).
 */
export interface VerdictStrategy {
  /** The canonical verdict type (`meta:custom` for custom modules unless they say otherwise). */
  readonly type: string;
  observe(record: IterationRecord): void;
  afterIteration(ctx: AfterIterationContext): Promise<AfterIterationAnswer | undefined>;
  decide(ctx: DecideContext): Promise<VerdictDecision>;
  /**
   * Channel-3 UV values (and `completion_keyword`), e.g. `{max_iterations, remaining}`, for the
   * prompt of iteration `ctx.iteration` (`remaining` counts the iterations left after it).
   */
  uvVariables(ctx?: UvContext): Record<string, JsonValue>;
  /**
   * Optional: after the boundary hook ran, check again (`poll:state` re-polls the issue).
   * Absent means the decision stands.
   */
  confirmAfterBoundary?(ctx: {
    readonly signal?: AbortSignal | undefined;
  }): Promise<VerdictDecision>;
}

/** What strategies may use; `createVerdictStrategy` fills the defaults. */
export interface VerdictDeps {
  /** Absolute path of the agent folder (custom handlers are loaded from inside it). */
  readonly agentDir: string;
  /** CLI parameters (channel 1): `poll:state` reads `issue` here first. */
  readonly params: Readonly<Record<string, JsonValue | undefined>>;
  /** Runs `gh`; default on execa. */
  readonly commandRunner?: CommandRunner;
  /** Where `gh` runs (the run's working directory); default `process.cwd()`. */
  readonly cwd?: string;
  /**
   * The agent definition: lets `poll:state` know whether the boundary hook will close the
   * issue (GitHub integration, `defaultClosureAction`).
   */
  readonly agent?: AgentDefinition;
}
