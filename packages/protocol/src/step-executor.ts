import type {
  AgentDefinition,
  JsonSchema,
  JsonValue,
  ModelContentBlock,
  ProtectedPath,
  Step,
  ToolCall,
  ToolExecutor,
  ToolResult,
  Usage,
} from "@climpt/model";
import type { RunError } from "./run-result.ts";

/** A model reply as the journal records it: what a resumed phase is served instead of a call. */
export interface RecordedReply {
  readonly content: readonly ModelContentBlock[];
  readonly usage: Usage;
  readonly costUsd: number;
  readonly stopReason: string | null;
  readonly model: string;
  readonly requestId: string | null;
}

/**
 * The seam between the runner and whatever talks to the model. An executor runs **one step
 * phase**: a fresh conversation from the system prompt and the resolved prompt, the tool loop
 * under the step's tools, and the structured output checked against the output schema, with
 * the usage of every call. Everything around it stays the runner's: prompts, the journal,
 * budgets, the gate and check interpretation, the router, the completion chain, resume.
 *
 * The runner's default is `createMessagesStepExecutor` of `@climpt/runner` (the Messages API through `@climpt/sdk-adapter`'s
 * `runStep`). Another executor (an agent SDK that runs its own tool loop, say) implements this
 * interface from this package and is passed as `RunnerOptions.stepExecutor`; `@climpt/claude-code`
 * is one. Its obligations:
 *
 * - report every model call through `observer.modelResponse` (the runner journals the reply
 *   and adds its usage to the run's totals; budgets depend on it), and every tool call and
 *   result through `toolCall` / `toolResult`;
 * - await `observer.durable()` before each model call, so the replies and tool results the
 *   call builds on are on disk before anything acts on them (the runner's toolbox waits for it
 *   itself before a tool runs, and the runner before the phase starts);
 * - honour `signal`: stop the phase promptly when it aborts (a stop or the wall-clock budget);
 * - return expected failures as data: `schema` when no output matching `outputSchema` came back
 *   (the runner spends the iteration and runs the step again), `failed` for anything else, with
 *   a coded `RunError`, a @climpt/model `Problem` built with `problem()` (`AC-MODEL-*` for API
 *   failures keeps the journal resumable mid-step);
 * - with `replay`, serve the recorded replies and tool results first, in order, and say so
 *   (`replayed: true`), so a resumed step repeats no completed call. An executor that cannot
 *   replay ignores it; the step then runs live from its start.
 */
export interface StepExecutor {
  execute(request: StepExecutionRequest): Promise<StepExecutionResult>;
}

export interface StepExecutionRequest {
  /** A full model id (the runner resolved step > run > agent > default). */
  readonly model: string;
  readonly system: string;
  /** The resolved step prompt (or check prompt, or retry prompt): the first user message. */
  readonly prompt: string;
  /** Absent: the phase returns its final text and no output. */
  readonly outputSchema: JsonSchema | undefined;
  /**
   * The schema a reply is accepted under when it differs from `outputSchema` (the intent enum
   * widened by its aliases, `Step.acceptedOutputSchema`); the model is sent `outputSchema`. An
   * executor that cannot tell the two apart may validate against `outputSchema` alone.
   */
  readonly acceptedOutputSchema?: JsonSchema;
  /** The step's tools, under its tool policy (refusals are the toolbox's, not the executor's). */
  readonly tools: ToolExecutor;
  readonly maxTurns: number | undefined;
  /** Per model call. */
  readonly callTimeoutMs: number | undefined;
  /** Per model call: how long its response may take to start (undefined: the client's). */
  readonly connectTimeoutMs?: number | undefined;
  /** Per model call: the longest silence in its stream (undefined: the client's). */
  readonly streamIdleTimeoutMs?: number | undefined;
  readonly signal: AbortSignal;
  /** What the journal recorded of this phase before the run stopped (resume). */
  readonly replay: PhaseReplay | undefined;
  readonly observer: StepExecutionObserver;
  /**
   * What the phase belongs to, for an executor that applies the tool policy itself (an agent
   * SDK with its own tools): the step, the agent and the run's working directory (absolute).
   */
  readonly step: Step;
  readonly agent: AgentDefinition;
  readonly cwd: string;
  /**
   * What no tool of the run may change — the journal folder, the agent definitions
   * (run-protected-paths.ts) — for an executor with tools of its own to refuse, as the
   * runner's toolbox does (`resolveProtectedPaths` of @climpt/tools).
   */
  readonly protectedPaths?: readonly ProtectedPath[];
}

/** The recorded part of an interrupted phase: replies in order, tool results by tool_use id. */
export interface PhaseReplay {
  readonly replies: readonly RecordedReply[];
  /** tool_use id → its recorded results in order (an id may come back). */
  readonly toolResults: ReadonlyMap<string, readonly ToolResult[]>;
  /**
   * Every tool call the replies ask for runs again, even one that was in flight at the stop: the
   * run resumed in a folder rebuilt from its last step end, where no call of this phase had any
   * effect. Otherwise a call in flight is answered as "effect unknown" (RUN-RESUME-004).
   */
  readonly rerunTools?: boolean;
}

export interface StepExecutionObserver {
  /** A model call is about to be made (`call` is 1-based within the phase). */
  modelRequest(request: { call: number; model: string; repair: boolean }): void;
  /** A model call came back (or was served from the journal: `replayed`). */
  modelResponse(response: {
    call: number;
    reply: RecordedReply;
    durationMs: number;
    replayed: boolean;
  }): void;
  toolCall(call: ToolCall): void;
  toolResult(result: {
    call: ToolCall;
    result: ToolResult;
    durationMs: number;
    replayed: boolean;
  }): void;
  /**
   * Resolves once what was reported so far is durable in the journal (a group commit: one
   * flush covers every waiting record). Await it before each model call.
   */
  durable(): Promise<void>;
  /** A tool call the executor's own policy check refused (the toolbox reports its own). */
  toolRefused(refusal: { tool: string; reason: string }): void;
  /** Streamed model text, for live display; absent when nobody displays it. */
  readonly textDelta?: ((delta: string) => void) | undefined;
}

/** What a phase produced: the structured output (when it had a schema) and the final text. */
export interface StepAnswer {
  readonly output: JsonValue | undefined;
  readonly text: string;
}

export type StepExecutionResult =
  | ({ readonly ok: true } & StepAnswer)
  | { readonly ok: false; readonly reason: "schema" | "failed"; readonly error: RunError };
