import type { AgentDefinition, JsonSchema, JsonValue, Problem, Step } from "@climpt/model";
import type {
  ModelContentBlock,
  ToolCall,
  ToolExecutor,
  ToolResult,
  Usage,
} from "@climpt/sdk-adapter";
import type { ProtectedPath } from "@climpt/tools";

/**
 * The runner's model-step seam (`StepExecutor` of `@climpt/runner`), restated with the parts
 * this executor uses. The package sits beside the runner, not above it, so it names the shape
 * instead of importing it; TypeScript checks the fit structurally where the two meet
 * (`RunnerOptions.stepExecutor` in the CLI and in this package's runner tests).
 */
export interface SeamRequest {
  readonly model: string;
  readonly system: string;
  readonly prompt: string;
  readonly outputSchema: JsonSchema | undefined;
  /** The runner's toolbox for the step: it serves the GitHub tools of closure steps. */
  readonly tools: ToolExecutor;
  readonly maxTurns: number | undefined;
  readonly callTimeoutMs: number | undefined;
  readonly signal: AbortSignal;
  readonly observer: SeamObserver;
  readonly step: Step;
  readonly agent: AgentDefinition;
  readonly cwd: string;
  /** What no tool of the run may change (the journal folder, the agent definitions). */
  readonly protectedPaths?: readonly ProtectedPath[];
}

export interface SeamReply {
  readonly content: readonly ModelContentBlock[];
  readonly usage: Usage;
  readonly costUsd: number;
  readonly stopReason: string | null;
  readonly model: string;
  readonly requestId: string | null;
}

export interface SeamObserver {
  modelRequest(request: { call: number; model: string; repair: boolean }): void;
  modelResponse(response: {
    call: number;
    reply: SeamReply;
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
  toolRefused(refusal: { tool: string; reason: string }): void;
  readonly textDelta?: ((delta: string) => void) | undefined;
}

export type SeamResult =
  | { readonly ok: true; readonly output: JsonValue | undefined; readonly text: string }
  | { readonly ok: false; readonly reason: "schema" | "failed"; readonly error: Problem };
